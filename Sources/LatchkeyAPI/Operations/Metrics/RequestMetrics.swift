import HTTPServer
import LatchkeyCore
import Synchronization

/// Requests by method, route template and status, and their latency by route, recorded
/// from the engine's `CompletedRequest`. Each event loop keeps its own share behind its
/// own lock, which only a scrape of `/metrics` ever contends, so recording costs a
/// dictionary update and no shared cache line.
///
/// Bounded whatever clients send: a key is a `RequestLabels` pair (8 methods by the
/// router's templates and `unmatched`), and a status comes from the server's own code
/// (literals and problems, never from a request), so the tables stop growing once each
/// answer has been seen.
final class RequestMetrics: Sendable {
    struct RouteKey: Hashable, Sendable {
        let method: String
        let route: String
    }

    struct RouteShare: Sendable {
        var statuses: [Int: UInt64] = [:]
        var latency = Histogram(bounds: Histogram.latencyBounds)
    }

    private final class LoopShare: Sendable {
        let routes = Mutex<[RouteKey: RouteShare]>([:])
    }

    private let loops: [LoopShare]

    init(eventLoops: Int) {
        loops = (0..<max(1, eventLoops)).map { _ in LoopShare() }
    }

    func record(_ completed: CompletedRequest, _ labels: RequestLabels) {
        let seconds = Double(completed.nanoseconds) / 1e9
        loops[completed.eventLoopIndex % loops.count].routes.withLock { routes in
            // One lookup: the share is updated in place.
            Self.count(completed.status, seconds, in: &routes[RouteKey(method: labels.method, route: labels.route), default: RouteShare()])
        }
    }

    private static func count(_ status: Int, _ seconds: Double, in share: inout RouteShare) {
        share.statuses[status, default: 0] += 1
        share.latency.observe(seconds)
    }

    /// Every loop's share added up.
    func snapshot() -> [RouteKey: RouteShare] {
        var total: [RouteKey: RouteShare] = [:]
        for loop in loops {
            for (key, share) in loop.routes.withLock({ $0 }) {
                total[key, default: RouteShare()].statuses.merge(share.statuses, uniquingKeysWith: +)
                total[key]!.latency.merge(share.latency)
            }
        }
        return total
    }
}
