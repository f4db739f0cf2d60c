import HTTPServer
import LatchkeyCore

/// What an operator's tools call: health, readiness, the OpenAPI document and, when
/// metrics are on, `/metrics`.
enum OperationsRoutes {
    static func bind(_ routes: inout Routes, _ core: CoreServices, metrics: (requests: RequestMetrics, server: ServerGauges, token: MetricsToken?)?) {
        HealthRoutes.bind(&routes)
        OpenAPIRoute.bind(&routes)
        if let metrics {
            MetricsRoute.bind(&routes, core, requests: metrics.requests, server: metrics.server, token: metrics.token)
        }
    }
}
