import Foundation
import Glibc
import Testing
import TestSupport

/// What `latchkey serve` keeps resident once it listens (issue 24: idle memory).
@Suite struct ServeMemoryTests {
    /// Start-up runs all of OpenSSL's set-up (the provider, the keys' first MACs), which maps
    /// most of libcrypto's code; a listening server runs none of it until a request signs or
    /// checks a token. Once the server listens, that code is unmapped again (it stays in the
    /// page cache): less than a quarter of the mapping is resident, where start-up left
    /// three quarters.
    @Test func startUpsCodeIsUnmappedOnceTheServerListens() throws {
        let server = try LatchkeyProcess()
        defer { server.terminate() }
        try server.waitUntilListening()
        // The pages are released right after the "listening" line: wait up to 5 s for it.
        var code = try Self.residentCode(of: server, library: "libcrypto.so")
        for _ in 0..<50 where code.resident * 4 >= code.size {
            usleep(100_000)
            code = try Self.residentCode(of: server, library: "libcrypto.so")
        }
        #expect(code.size > 0, "libcrypto's code is mapped")
        #expect(code.resident * 4 < code.size, "\(code.resident) kB of \(code.size) kB resident")
    }

    /// The Size and Rss (kB) of the server's executable mappings of `library`, from
    /// /proc/PID/smaps (read to its end, as `memoryMap()` does).
    private static func residentCode(of server: LatchkeyProcess, library: String) throws -> (size: Int, resident: Int) {
        let path = "/proc/\(server.process.processIdentifier)/smaps"
        guard let file = FileHandle(forReadingAtPath: path) else { throw TestError("cannot open \(path)") }
        defer { try? file.close() }
        let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        var (size, resident, inLibraryCode) = (0, 0, false)
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), fields.count >= 5, !range.hasSuffix(":") {
                inLibraryCode = fields[1] == "r-xp" && line.contains(library)
            } else if inLibraryCode, fields.count >= 2, fields[0] == "Size:" {
                size += Int(fields[1]) ?? 0
            } else if inLibraryCode, fields.count >= 2, fields[0] == "Rss:" {
                resident += Int(fields[1]) ?? 0
            }
        }
        return (size, resident)
    }
}
