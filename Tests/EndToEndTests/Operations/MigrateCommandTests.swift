import Foundation
import Glibc
import Testing
import TestSupport

/// `latchkey migrate` on its own, as an operator runs it before the first `serve`.
@Suite struct MigrateCommandTests {
    private func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    private func migrate(_ dataDirectory: String) throws -> (status: Int32?, output: String) {
        let process = try LatchkeyProcess(arguments: ["migrate"], dataDirectory: dataDirectory)
        let status = process.waitForExit()
        return (status, process.output)
    }

    @Test func createsTheDatabaseForTheOwnerOnlyInAnExistingDirectory() throws {
        // An existing, world-readable directory: nothing but the umask-independent file
        // mode keeps the password hashes private.
        let directory = LatchkeyProcess.makeTemporaryDirectory()
        chmod(directory, 0o755)
        let result = try migrate(directory)
        #expect(result.status == 0, "\(result.output)")
        #expect(mode(directory + "/latchkey.sqlite") == 0o600)
    }

    @Test func tightensADatabaseFileALooserVersionLeftReadable() throws {
        let directory = LatchkeyProcess.makeTemporaryDirectory()
        #expect(try migrate(directory).status == 0)
        chmod(directory + "/latchkey.sqlite", 0o644)
        #expect(try migrate(directory).status == 0)
        #expect(mode(directory + "/latchkey.sqlite") == 0o600)
    }
}
