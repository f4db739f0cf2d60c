import Foundation
@testable import LatchkeyCore
import Testing

/// Accounts on both databases: what SQLite's single writer guaranteed by itself, PostgreSQL's
/// writers (side by side, SERIALIZABLE, retried) must guarantee too.
@Suite struct AccountStoreBackendTests {
    private static func form(_ email: String, _ name: String) -> SignupForm {
        SignupForm(email: email, password: "lighthouse-Quokka-42", displayName: name, confirmPassword: nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func aSignupWritesAccountClaimPresenceAndSessionTogether(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let pair = try await scratch.services().accounts.signup(Self.form("ada@example.com", "Ada.L"), userAgent: "test")
        let id = pair.user.id
        #expect(try scratch.count("users", where: "id", is: id) == 1)
        #expect(try scratch.count("display_names", where: "user_id", is: id) == 1)
        #expect(try scratch.count("presence", where: "user_id", is: id) == 1)
        #expect(try scratch.count("sessions", where: "user_id", is: id) == 1)
    }

    /// Every contender passes the first check together; only one may commit the name, and
    /// the others get the answer SQLite gives (taken), never a storage error, and leave no row.
    @Test(arguments: StoreBackend.allCases)
    func concurrentSignupsForOneNameHaveExactlyOneWinner(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let accounts = try scratch.services().accounts
        let names = ["Ada.L", "ada.l", "ADA.L", "Ada.l", "aDa.L", "adA.L"]
        let outcomes = await withTaskGroup(of: Result<TokenPair, any Error>.self) { group in
            for (index, name) in names.enumerated() {
                group.addTask { await Result(awaiting: { try await accounts.signup(Self.form("user\(index)@example.com", name), userAgent: nil) }) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let winners = outcomes.filter { if case .success = $0 { true } else { false } }
        #expect(winners.count == 1)
        for case .failure(let error) in outcomes {
            #expect(error as? AccountError == .displayNameTaken(reserved: false), "\(error)")
        }
        #expect(try scratch.count("users") == 1)
        #expect(try scratch.count("display_names") == 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func deletingAnAccountTakesItsClaimPresenceAndSessions(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let core = try scratch.services()
        let pair = try await core.accounts.signup(Self.form("ada@example.com", "Ada.L"), userAgent: nil)
        _ = try await core.accounts.login(email: "ada@example.com", password: "lighthouse-Quokka-42", from: "10.0.0.1", userAgent: nil)
        let caller = try core.authenticate(authorization: "Bearer \(pair.accessToken)")
        try await core.accounts.deleteAccount(caller, password: "lighthouse-Quokka-42", from: "10.0.0.1")
        let id = pair.user.id
        #expect(try scratch.count("users", where: "id", is: id) == 0)
        #expect(try scratch.count("display_names", where: "user_id", is: id) == 0)
        #expect(try scratch.count("presence", where: "user_id", is: id) == 0)
        #expect(try scratch.count("sessions", where: "user_id", is: id) == 0)
        #expect(throws: AccessError.sessionRevoked) { try core.authenticate(authorization: "Bearer \(pair.accessToken)") }
    }
}

extension Result where Failure == any Error {
    init(awaiting body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
