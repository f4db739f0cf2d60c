import Glibc

/// Why an upload was refused; nothing was changed.
public enum PictureError: Error, Equatable, Sendable {
    case empty
    /// Not `image/jpeg`, `image/png` or `image/webp`.
    case unsupportedType
    /// The bytes are not the declared type (or not a picture at all).
    case typeMismatch
    /// The declared type's signature, but the file does not hold together.
    case unreadable
    /// Over `maxPictureBytes` (a form part found too long as it arrives).
    case tooLarge
}

/// Profile pictures on disk, `{root}/{userId}/{random}.{ext}`, and the `photoURL` that
/// names them. A new picture is checked, stripped of metadata, written under a temporary
/// name, flushed, renamed into place, and only then named in the database; a failure at
/// any step leaves the old picture and URL as they were and no new file behind. A stored
/// file lives exactly as long as `photoURL` names it: whatever replaces the URL (a new
/// picture, `DELETE`, a `PATCH` to `null` or an outside URL), the old file goes once that
/// is committed.
public struct ProfilePictures: Sendable {
    let database: Database
    /// `{dataDir}/uploads/profile_pictures`.
    let root: String
    /// `{publicURL}/files/profile_pictures`.
    let baseURL: String
    let quota: PictureUploadQuota
    /// Where a new `photoURL` is told (`AccountEvent.profileChanged`); nil for the admin
    /// commands, which only ever delete an account's files.
    let events: AccountEvents?

    /// `throttlesUploads` is `rateLimitsEnabled`: see `PictureUploadQuota`.
    init(database: Database, root: String, publicURL: String, throttlesUploads: Bool = true, events: AccountEvents?) {
        self.database = database
        self.root = root
        baseURL = publicURL + "/files/profile_pictures"
        quota = PictureUploadQuota(enabled: throttlesUploads)
        self.events = events
    }

    /// For the admin commands: see `events`.
    public init(database: Database, root: String, publicURL: String) {
        self.init(database: database, root: root, publicURL: publicURL, events: nil)
    }

    /// A place for a picture of at most `limit` bytes to arrive in; see `PictureUpload`.
    public func newUpload(limit: Int) throws -> PictureUpload {
        do {
            return try PictureUpload(in: root, limit: limit)
        } catch {
            // The first picture ever: the store's folder comes first (once).
            try DataDirectory.prepare(root)
            return try PictureUpload(in: root, limit: limit)
        }
    }

    /// Stores the picture in `upload`, declared by the client as `mediaType`, as the user's
    /// picture. The upload is read in pieces, never whole. Throws `Throttled` when the
    /// account has had its uploads for the hour (`PictureUploadQuota`).
    public func replace(for userID: String, mediaType: some Collection<UInt8>, upload: PictureUpload) async throws -> User {
        guard upload.length > 0 else { throw PictureError.empty }
        guard let format = ImageFormat(mediaType: mediaType) else { throw PictureError.unsupportedType }
        try database.read { db in try quota.check(userID, now: UnixTime.now(), on: db) }
        let contents = upload.contents
        guard ImageFormat(sniffing: contents.bytes(0..<min(ImageFormat.signatureLength, contents.count))) == format else {
            throw PictureError.typeMismatch
        }
        let plan: StripPlan
        do {
            plan = try PictureMetadata.plan(contents, as: format)
        } catch {
            throw PictureError.unreadable
        }
        let name = RandomID.make() + "." + format.fileExtension
        let folder = try folder(of: userID)
        try DurableFile.write(to: folder + "/" + name) { try plan.write(from: upload.fd, to: $0) }
        let user: User
        do {
            user = try await setPhotoURL("\(baseURL)/\(userID)/\(name)", of: userID, isUpload: true)
        } catch {
            unlink(folder + "/" + name)
            throw error
        }
        return user
    }

    /// Clears the user's picture; its file goes once that is committed.
    public func remove(for userID: String) async throws -> User {
        guard UserID.isValid(userID) else { throw AccessError.sessionRevoked }
        return try await setPhotoURL(nil, of: userID)
    }

    /// Commits `url` as the user's `photoURL` (counting an upload against the quota in the
    /// same transaction), then deletes the file the old URL named.
    private func setPhotoURL(_ url: String?, of userID: String, isUpload: Bool = false) async throws -> User {
        let (quota, events) = (quota, events)
        let (user, previous, changed) = try await database.write { db in
            let now = UnixTime.now()
            guard let before = try AccountStore.user(id: userID, on: db) else { throw AccessError.sessionRevoked }
            if isUpload { try quota.admit(userID, now: now, on: db) }
            try AccountStore.setPhotoURL(url, for: userID, now: now, on: db)
            guard let user = try AccountStore.user(id: userID, on: db) else { throw AccessError.sessionRevoked }
            return (user, before.photoURL, try events?.record(.profileChanged, userID: userID, now: now, on: db))
        }
        if let changed { await events?.published(changed) }
        photoURLChanged(of: userID, from: previous, to: url)
        return user
    }

    /// Call once a change of `userID`'s `photoURL` from `previous` to `current` is
    /// committed: deletes the one file `previous` named, if it named one of this store's
    /// and `current` does not name it too. Never the folder's other files, which may be
    /// another upload of the same user still being written, or already renamed and about
    /// to be named by its own commit; and only after the commit, so no file the database
    /// names is ever deleted, whichever instance committed (the folder is shared).
    public func photoURLChanged(of userID: String, from previous: String?, to current: String?) {
        let ours = "\(baseURL)/\(userID)/"
        guard let previous, previous.utf8.starts(with: ours.utf8), UserID.isValid(userID) else { return }
        let name = Array(previous.utf8.dropFirst(ours.utf8.count))
        // A new URL that holds the name (a random 32 hex digits) names the same file.
        if let current, Self.contains(Array(current.utf8), name) { return }
        let text = String(decoding: name, as: UTF8.self)
        if Self.format(ofStoredName: text) != nil { unlink("\(root)/\(userID)/\(text)") }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    /// The stored file behind `/files/profile_pictures/{userId}/{name}`, or nil. Only names
    /// this store makes are looked up (an id of `A-Z a-z 0-9 _ -`, a name of 32 hex digits
    /// and a known extension), so no dot, slash or encoded trick reaches another path; a
    /// symbolic link or anything but a regular file is not served.
    public func file(userID: String, name: String) -> (path: String, format: ImageFormat)? {
        guard UserID.isValid(userID), let format = Self.format(ofStoredName: name) else { return nil }
        let path = "\(root)/\(userID)/\(name)"
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return (path, format)
    }

    /// An account's pictures go with it.
    public func removeAll(of userID: String) {
        guard let folder = try? folder(of: userID, creating: false) else { return }
        PictureFile.removeAll(in: folder)
        rmdir(folder)
    }

    private func folder(of userID: String, creating: Bool = true) throws -> String {
        guard UserID.isValid(userID) else { throw AccessError.sessionRevoked }
        let folder = root + "/" + userID
        guard creating, mkdir(folder, 0o700) != 0, errno != EEXIST else { return folder }
        try DataDirectory.prepare(root)
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
            throw DataDirectoryError(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        return folder
    }

    static func format(ofStoredName name: String) -> ImageFormat? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 32,
              parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return ImageFormat.allCases.first { $0.fileExtension == parts[1] }
    }
}
