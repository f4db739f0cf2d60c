import Foundation

/// Profile pictures: the bytes go to the server, which strips their metadata (a GPS
/// position, say), stores them and points `photoURL` at them. Firebase Storage's
/// `putData` with an upload-progress observer, in one call.
extension Latchkey {
    /// Uploads picture bytes as the user's profile picture (at most the server's
    /// `maxPictureBytes`, 5 MiB by default: `PAYLOAD_TOO_LARGE`; `UNSUPPORTED_MEDIA_TYPE`
    /// when the bytes are not a picture of `type`). `progress` is called from a background
    /// task as bytes go out (hop to the main actor to show it); when the token must be
    /// refreshed first, progress starts over with the retry.
    @discardableResult
    public func uploadPicture(
        _ data: Data, type: PictureType, progress: (@Sendable (UploadProgress) -> Void)? = nil
    ) async throws -> User {
        try await upload(APIRequest("PUT", "/v1/users/me/photo", body: .bytes(data, mediaType: type.mediaType)), progress: progress)
    }

    /// Uploads the picture in a file (its extension does not matter;
    /// `PictureType(fileExtension:)` guesses a type from it). A file that cannot be read
    /// throws the file system's error before anything is sent.
    ///
    /// The file is mapped into memory (pictures are a few MiB at most) and sent as bytes,
    /// not handed to URLSession as a file: on Linux, swift-corelibs-foundation reads a file
    /// body on a queue of its own and then resumes libcurl with `try!`, which crashes the
    /// process when the upload was cancelled in between.
    @discardableResult
    public func uploadPicture(
        contentsOf fileURL: URL, type: PictureType, progress: (@Sendable (UploadProgress) -> Void)? = nil
    ) async throws -> User {
        try await uploadPicture(Data(contentsOf: fileURL, options: .mappedIfSafe), type: type, progress: progress)
    }

    /// Removes the profile picture: the stored file goes and `photoURL` becomes nil.
    @discardableResult
    public func removePicture() async throws -> User {
        try await authorizedUser { try await self.transport.send(APIRequest("DELETE", "/v1/users/me/photo"), token: $0) }
    }

    private func upload(_ request: APIRequest, progress: (@Sendable (UploadProgress) -> Void)?) async throws -> User {
        try await authorizedUser { try await self.transport.upload(request, token: $0, progress: progress) }
    }
}
