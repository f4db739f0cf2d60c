import HTTPServer
import LatchkeyCore

/// `PUT /v1/presence`, `GET /v1/presence/{userId}` and `GET /v1/presence?userIds=a,b,…`.
/// Reads are one primary-key lookup per id.
enum PresenceHandlers {
    static func put(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let text = try JSONBody(request).string("status")
        // Compared as bytes: a status is a protocol token, not text.
        guard let status = PresenceStatus.allCases.first(where: { Array($0.rawValue.utf8) == Array(text.utf8) }) else {
            throw APIProblem.invalidArgument(field: "status", detail: "status must be online, away or offline.")
        }
        return JSONResponses.make(200, presence(try await context.core.presence.set(status, for: caller)))
    }

    static func get(_ request: Request, _ caller: Authenticated, _ reader: StoreReader, _ context: APIContext) throws -> Response {
        let found = try context.core.presence.get(request.pathParameters["userId"] ?? "", reader: reader)
        return JSONResponses.make(200, presence(found))
    }

    static func batch(_ request: Request, _ caller: Authenticated, _ reader: StoreReader, _ context: APIContext) throws -> Response {
        let ids = try userIDs(of: request)
        var json = JSONObjectWriter()
        json.field("presences", jsonArray: try context.core.presence.get(ids, reader: reader).map(presence))
        return JSONResponses.make(200, json.finish())
    }

    /// The `userIds=a,b,…` of a batch read or a stream: 1 to 100 non-empty ids. Split on
    /// the comma scalar, not on Characters: a comma followed by a combining mark or an emoji
    /// modifier is one Character, and the list would not be split there.
    static func userIDs(of request: Request) throws -> [String] {
        let ids = (request.queryParameter("userIds") ?? "").unicodeScalars.split(separator: ",", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)) }
        guard !ids.isEmpty, !ids.contains(where: \.isEmpty), ids.count <= PresenceService.maximumBatch else {
            throw APIProblem.invalidArgument(field: "userIds", detail: "userIds must be 1 to \(PresenceService.maximumBatch) user ids, separated by commas.")
        }
        return ids
    }

    static func presence(_ presence: Presence) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("userId", presence.userID)
        json.field("status", presence.status.rawValue)
        json.field("lastSeen", RFC3339.format(presence.lastSeen))
        return json.finish()
    }
}
