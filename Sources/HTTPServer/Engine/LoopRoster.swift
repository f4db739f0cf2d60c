import Synchronization

/// The event loops of one server and how many connections each holds, so a loop that
/// accepts can hand a connection to the one holding fewest. Without it the loop that
/// happens to wake takes every connection waiting in the backlog: 64 keep-alive
/// connections opened together (a proxy's pool, a load test) landed five to one on two
/// loops, and one core did most of the work while the other idled.
final class LoopRoster: Sendable {
    private let loops = Mutex<[EventLoop]>([])

    /// Set once the loops exist; emptied on shutdown, which also ends the loops' references
    /// to each other through here.
    func set(_ loops: [EventLoop]) {
        self.loops.withLock { $0 = loops }
    }

    /// The loop holding fewest connections (`self` on a tie, so a lone server, or equal
    /// loops, keep what they accept), counted as held from here on: a burst of accepts
    /// spreads before any of the loops has taken its share.
    func assign(from accepting: EventLoop) -> EventLoop {
        let target = loops.withLock { loops in
            loops.reduce(accepting) { best, loop in
                loop.heldConnections.load(ordering: .relaxed) < best.heldConnections.load(ordering: .relaxed) ? loop : best
            }
        }
        target.heldConnections.add(1, ordering: .relaxed)
        return target
    }
}
