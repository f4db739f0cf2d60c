import Foundation

/// What `updateProfile` does with the profile's `photoURL`.
public enum PhotoURLChange: Sendable, Hashable {
    /// Leave it as it is.
    case unchanged
    /// Point it at a picture elsewhere: an `https` URL (an uploaded picture is deleted).
    case set(URL)
    /// Clear it; an uploaded picture is deleted, as by `removePicture()`.
    case remove
}

/// Display names and profiles.
extension Latchkey {
    /// Changes the display name (claimed, and the old one freed, in one step) and/or the
    /// photo URL (`DISPLAY_NAME_INVALID` with `reason`, `DISPLAY_NAME_TAKEN`,
    /// `INVALID_ARGUMENT` for a photo URL that is not an `https` URL).
    @discardableResult
    public func updateProfile(displayName: String? = nil, photoURL: PhotoURLChange = .unchanged) async throws -> User {
        let request = try APIRequest.json("PATCH", "/v1/users/me", ProfilePatch(displayName: displayName, photoURL: photoURL))
        return try await authorizedUser { try await self.transport.send(request, token: $0) }
    }

    /// Whether `displayName` can be claimed now, and if not why; no sign-in needed, so a
    /// signup form can check as the user types (throttled per address by the server).
    public func displayNameAvailability(_ displayName: String) async throws -> DisplayNameAvailability {
        try await anonymous(APIRequest("GET", "/v1/display-names/\(APIRequest.encoded(displayName))"), as: DisplayNameAvailability.self)
    }

    /// Another user's public profile (`USER_NOT_FOUND`).
    public func profile(userID: String) async throws -> PublicProfile {
        try await authorized(APIRequest("GET", "/v1/users/\(APIRequest.encoded(userID))"), as: PublicProfile.self)
    }
}

/// The body of `PATCH /v1/users/me`: absent fields stay as they are, and `photoURL: null`
/// clears the URL, so the three cases of `PhotoURLChange` are written by hand.
struct ProfilePatch: Encodable {
    let displayName: String?
    let photoURL: PhotoURLChange

    private enum CodingKeys: String, CodingKey { case displayName, photoURL }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(displayName, forKey: .displayName)
        switch photoURL {
        case .unchanged: break
        case .set(let url): try container.encode(url.absoluteString, forKey: .photoURL)
        case .remove: try container.encodeNil(forKey: .photoURL)
        }
    }
}
