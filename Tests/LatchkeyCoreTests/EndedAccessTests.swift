@testable import LatchkeyCore
import Testing

/// What an account event ended travels between processes as one line (NOTIFY, the SQLite
/// feed); every shape comes back as it went, and anything else is refused.
@Suite struct EndedAccessTests {
    @Test(arguments: [
        EndedAccess(userID: "0b6a", sessions: .one("s1"), accountDeleted: false, offlineAt: nil),
        EndedAccess(userID: "0b6a", sessions: .allBut(nil), accountDeleted: false, offlineAt: 1_700_000_000),
        EndedAccess(userID: "0b6a", sessions: .allBut("s2"), accountDeleted: false, offlineAt: nil),
        EndedAccess(userID: "imported uid with spaces", sessions: .allBut(nil), accountDeleted: true, offlineAt: 5),
    ])
    func aLineComesBackAsItWent(_ ended: EndedAccess) {
        #expect(EndedAccess(payload: Substring(ended.payload)) == ended)
    }

    @Test(arguments: ["", "1:s 0 -", "x:s 0 - u", "1: 0 - u", "* 2 - u", "* 0 soon u", "*:  0 - u", "* 0 - "])
    func malformedLinesAreRefused(_ line: String) {
        #expect(EndedAccess(payload: Substring(line)) == nil)
    }
}
