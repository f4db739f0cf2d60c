import HTTPServer
import LatchkeyCore

/// `GET /v1/display-names/{name}` (no auth, throttled per address).
enum DisplayNameHandler {
    static func handle(_ request: Request, _ reader: StoreReader, _ context: APIContext) throws -> Response {
        let answer = try DisplayNameAvailability.check(
            request.pathParameters["name"] ?? "", reserved: context.policy.reservedDisplayNames, reader: reader
        )
        return JSONResponses.make(200, JSONResponses.availability(answer), private: false)
    }
}
