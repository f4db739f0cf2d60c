import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/refresh` → 200 TokenPair with a new refresh token. A write that answers
/// through the sink itself: the body is read and the token's MAC checked on the loop (a
/// forged one is answered there), the rotation goes to the database writer (SQLite) or a
/// refresh batch (PostgreSQL), and the loop signs and writes the answer once it is
/// durable; no task hop, since a refresh is one durable write and little else.
enum RefreshHandler {
    static func handle(_ request: Request, _ sink: ResponseSink, _ context: APIContext) {
        let token: String
        do {
            token = try JSONBody(request).string("refreshToken")
        } catch {
            return sink.respond(context.errors.response(for: error, to: request))
        }
        context.sessions.rotate(token) { result in
            // Signing and JSON happen on the event loop, not on the database writer.
            sink.respond {
                do {
                    return JSONResponses.make(200, JSONResponses.tokenPair(try context.sessions.pair(for: result.get())))
                } catch {
                    return context.errors.response(for: error, to: request)
                }
            }
        }
    }
}
