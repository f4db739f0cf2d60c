import Glibc

/// A picture as it arrives, written to an anonymous file in the picture store (it has no
/// name, so a refused upload or a crash leaves nothing behind) instead of held in memory.
/// `ProfilePictures.replace` reads it back in pieces.
///
/// `@unchecked Sendable`: used by one thread at a time, the event loop while the body
/// arrives, then the handler.
public final class PictureUpload: @unchecked Sendable {
    let fd: Int32
    public private(set) var length = 0
    /// Largest picture taken; a longer one is refused as it arrives.
    let limit: Int

    init(in folder: String, limit: Int) throws {
        self.limit = limit
        fd = try Self.openAnonymous(in: folder)
    }

    deinit { close(fd) }

    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard length + bytes.count <= limit else { throw PictureError.tooLarge }
        try DurableFile.writeAll(bytes, to: fd)
        length += bytes.count
    }

    /// The upload's bytes, read through a window.
    var contents: FileWindow { FileWindow(fd: fd, count: length) }

    /// A file created under a random name and unlinked at once: only its descriptor
    /// names it from then on.
    private static func openAnonymous(in folder: String) throws -> Int32 {
        var template = Array("\(folder)/.upload-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw DataDirectoryError(description: "cannot store an upload in \(folder): \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }
}
