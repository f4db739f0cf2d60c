import Foundation
import Glibc

public struct DataDirectoryError: Error, CustomStringConvertible {
    public let description: String
}

/// The directory that holds the database, the generated key and (later) pictures and mail.
public enum DataDirectory {
    /// Creates the directory (mode 0700) if needed and proves it is writable, so a bad
    /// path fails at start-up with one clear line instead of at the first write.
    public static func prepare(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DataDirectoryError(description: "cannot create data directory \(path): \(reason(error))")
        }
        let probe = path + "/.write-test-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw DataDirectoryError(description: "data directory \(path) is not writable: \(String(cString: strerror(errno)))")
        }
        close(fd)
        unlink(probe)
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
