import Glibc
import Testing
import TestSupport

/// `scripts/postgres start` leaves a server running for the whole test process; it must hold
/// no descriptor of that process (see `runChildProgram`), or the ends of children that
/// Foundation's `Process` started at the same moment go unseen.
@Suite struct ChildProgramTests {
    @Test func whatAChildProgramLeavesRunningHoldsNoDescriptorOfTheTestProcess() throws {
        var ends: [Int32] = [0, 0]
        // Not close-on-exec, as the socket pair Foundation makes for each child.
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let result = runChildProgram("/bin/sh", ["-c", "sleep 5 & exit 0"])
        close(ends[1])
        #expect(result.status == 0)
        // End of file at once: no copy of the write end lives on in the `sleep`.
        var ready = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 2_000) == 1)
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) == 0)
    }
}
