import HTTPServer
import LatchkeyCore
import Synchronization

/// `GET /metrics`: Prometheus text. Every label comes from a fixed set (`RequestLabels`):
/// no id, token or address reaches a metrics store, and nothing a client sends adds a
/// series.
enum MetricsRoute {
    /// A read: the gauges count the outbox. With a `token`, a scrape without it is refused
    /// from the head, before any read.
    static func bind(_ routes: inout Routes, _ core: CoreServices, requests: RequestMetrics, server: ServerGauges, token: MetricsToken?) {
        var admit: Routes.Admission?
        if let token {
            let refusal = ErrorResponder.metricsTokenRequired.response()
            admit = { head in token.admits(authorization: head.field("authorization")) ? nil : refusal }
        }
        routes.read("/metrics", admit: admit) { _, reader in
            let body = render(requests: requests.snapshot(), gauges: try core.gauges(reader: reader), server: server)
            return Response(status: 200, headers: [
                HTTPField(name: "Content-Type", value: "text/plain; version=0.0.4; charset=utf-8"),
                HTTPField(name: "Cache-Control", value: "no-store"),
            ], body: Array(body.utf8))
        }
    }

    static func render(requests: [RequestMetrics.RouteKey: RequestMetrics.RouteShare], gauges: CoreServices.Gauges, server: ServerGauges) -> String {
        let routes = requests.sorted { ($0.key.route, $0.key.method) < ($1.key.route, $1.key.method) }
        var out = PrometheusText()
        out.family("latchkey_http_requests_total", "counter", "Requests answered, by method, route template and status.")
        for (key, share) in routes {
            for (status, count) in share.statuses.sorted(by: { $0.key < $1.key }) {
                out.sample("latchkey_http_requests_total", [("method", key.method), ("route", key.route), ("status", "\(status)")], count)
            }
        }
        out.family("latchkey_http_request_duration_seconds", "histogram", "From the end of the request head to the answer, by method and route template.")
        for (key, share) in routes {
            out.histogram("latchkey_http_request_duration_seconds", [("method", key.method), ("route", key.route)], share.latency)
        }
        let throttled = requests.values.reduce(0) { $0 + ($1.statuses[429] ?? 0) }
        out.family("latchkey_throttle_refusals_total", "counter", "Requests refused with 429 by a rate limit or a password-guessing throttle.")
        out.sample("latchkey_throttle_refusals_total", [], throttled)
        out.family("latchkey_open_connections", "gauge", "Client connections open now.")
        out.sample("latchkey_open_connections", [], server.openConnections())
        out.family("latchkey_presence_streams", "gauge", "Presence streams open now.")
        out.sample("latchkey_presence_streams", [], gauges.presenceStreams)
        out.family("latchkey_hashing_queue_depth", "gauge", "Password hashes waiting for a hashing thread.")
        out.sample("latchkey_hashing_queue_depth", [], gauges.hashingQueueDepth)
        out.family("latchkey_hashing_rejections_total", "counter", "Password hashes refused (503) because the queue was full.")
        out.sample("latchkey_hashing_rejections_total", [], gauges.hashingRejections)
        out.family("latchkey_outbox_backlog", "gauge", "Mail waiting to be delivered.")
        out.sample("latchkey_outbox_backlog", [], gauges.outboxBacklog)
        out.family("latchkey_mail_delivery_failures_total", "counter", "Mail delivery attempts that failed (retried later or given up).")
        out.sample("latchkey_mail_delivery_failures_total", [], server.mailDeliveryFailures())
        out.family("latchkey_database_write_batch_size", "histogram", "Write transactions committed together in one durable commit.")
        out.histogram("latchkey_database_write_batch_size", [], gauges.writeBatchSizes)
        out.family("latchkey_database_commit_seconds", "histogram", "Duration of each durable commit.")
        out.histogram("latchkey_database_commit_seconds", [], gauges.commitSeconds)
        if !gauges.batchSizes.isEmpty {
            out.family("latchkey_database_batch_size", "histogram", "Requests one PostgreSQL batch statement served, by kind.")
            for (kind, sizes) in gauges.batchSizes { out.histogram("latchkey_database_batch_size", [("kind", kind)], sizes) }
        }
        return out.text
    }
}

/// What `/metrics` reads from beside the domain, filled in by the executable once the
/// server and the outbox exist (the router is built before the server).
public final class ServerGauges: Sendable {
    private let sources = Mutex<(connections: (@Sendable () -> Int)?, mailFailures: (@Sendable () -> Int)?)>((nil, nil))

    public init() {}

    public func attach(openConnections: @escaping @Sendable () -> Int, mailDeliveryFailures: @escaping @Sendable () -> Int) {
        sources.withLock { $0 = (openConnections, mailDeliveryFailures) }
    }

    func openConnections() -> Int { sources.withLock { $0.connections }?() ?? 0 }
    func mailDeliveryFailures() -> Int { sources.withLock { $0.mailFailures }?() ?? 0 }
}
