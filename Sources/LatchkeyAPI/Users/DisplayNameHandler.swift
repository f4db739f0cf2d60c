import HTTPServer
import LatchkeyCore

/// `GET /v1/display-names/{name}` (no auth, throttled per address, inline).
enum DisplayNameHandler {
    static func handle(_ request: Request, _ context: APIContext) throws -> Response {
        try context.throttle.admit(request, to: .displayNames)
        let answer = try DisplayNameAvailability.check(
            request.pathParameters["name"] ?? "", reserved: context.policy.reservedDisplayNames, reader: context.reader(request)
        )
        return JSONResponses.make(200, JSONResponses.availability(answer), private: false)
    }
}
