import ClientSocket
import HTTPSClient
import LatchkeyCore
import TestSupport

/// Gives an account Apple's refresh token the way a Sign in with Apple does once its route
/// hands over the authorization code: through `AppleRefreshTokens.store`, the API that route
/// calls, run beside the server on its database and outbox key (as the admin commands
/// write beside it). The code is exchanged at the fake Apple, so the token is Apple's.
enum AppleTokenSeed {
    static func store(code: String, clientID: String, forAccount userID: String, of server: AccountServer, apple: FakeAppleEndpoints) async throws {
        let database = DatabaseUnderTest.isPostgreSQL
            ? try Database(postgresURL: try DatabaseUnderTest.postgresURL(forDataDirectory: server.dataDirectory), connections: 2)
            : try Database(path: server.databasePath)
        defer { try? database.close() }
        let endpoint = AppleTokenEndpoint(
            client: HTTPSClient(context: try TLSContext(caFile: apple.certificate.certificatePath)), baseURL: apple.baseURL,
            secrets: AppleClientSecrets(
                teamID: FakeAppleEndpoints.teamID, keyID: FakeAppleEndpoints.keyID, key: try AppleServerKey.load(path: apple.keyPath),
                audience: apple.baseURL)
        )
        let tokens = AppleRefreshTokens(database: database, endpoint: endpoint, key: try OutboxKey.loadOrCreate(inDirectory: server.dataDirectory))
        // The fake answers with an ID token whose `sub` is the code (up to a "~").
        try await tokens.store(forAccount: userID, clientID: clientID, authorizationCode: code, subject: String(code.prefix { $0 != "~" }))
    }
}
