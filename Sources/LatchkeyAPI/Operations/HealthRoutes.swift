import HTTPServer
import LatchkeyCore

/// `GET /healthz` (the process serves: needs nothing but memory) and `GET /readyz` (the
/// database answers: a read). Load balancers call them often; they must stay cheap.
enum HealthRoutes {
    private static let ok = Array(#"{"status":"ok"}"#.utf8)
    private static let unavailable = Array(#"{"status":"unavailable"}"#.utf8)
    private static let noStore = [HTTPField(name: "Cache-Control", value: "no-store")]

    static func bind(_ routes: inout Routes) {
        routes.plain("GET", "/healthz") { _ in .json(200, ok, headers: noStore) }
        routes.read("/readyz") { _, reader in
            Readiness.check(reader) ? .json(200, ok, headers: noStore) : .json(503, unavailable, headers: noStore)
        }
    }
}
