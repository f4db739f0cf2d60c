import HTTPServer

/// The caller's own presence, others' (one or a batch), and the stream of their changes.
enum PresenceRoutes {
    static func bind(_ routes: inout Routes, _ context: APIContext) {
        context.core.presence.streams.deliverChanges(through: EventStreamFanOut())
        routes.write("PUT", "/v1/presence", auth: .bearer, admit: JSONBody.admission) { try await PresenceHandlers.put($0, $1, context) }
        routes.read("/v1/presence", auth: .bearer) { try PresenceHandlers.batch($0, $1, $2, context) }
        routes.read("/v1/presence/stream", auth: .bearer) { try PresenceStreamHandler.open($0, $1, $2, context) }
        routes.read("/v1/presence/{userId}", auth: .bearer) { try PresenceHandlers.get($0, $1, $2, context) }
    }
}
