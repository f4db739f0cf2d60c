import HTTPServer
import LatchkeyCore

/// `GET /healthz` (the process serves) and `GET /readyz` (the database answers), both
/// inline, as load balancers call them often and they must stay cheap; `/readyz` on the
/// store-read threads where a read crosses the network.
enum HealthRoutes {
    private static let ok = Array(#"{"status":"ok"}"#.utf8)
    private static let unavailable = Array(#"{"status":"unavailable"}"#.utf8)
    private static let noStore = [HTTPField(name: "Cache-Control", value: "no-store")]

    static func register(on router: inout Router, reads: StoreReadRoutes) {
        router.add("GET", "/healthz") { _ in .json(200, ok, headers: noStore) }
        router.add("GET", "/readyz", reads.handler { request, context in
            Readiness.check(context.reader(request))
                ? .json(200, ok, headers: noStore)
                : .json(503, unavailable, headers: noStore)
        })
    }
}
