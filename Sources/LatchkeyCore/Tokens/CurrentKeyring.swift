import AuthCrypto
import Synchronization

/// The keyring tokens are signed and checked with, replaced while the server runs when
/// `latchkey keys rotate|retire` change it. Reading it takes one uncontended lock; the
/// generation, an atomic read, changes with every replacement so verified-token caches
/// stop trusting what an earlier ring vouched for (a retired key's tokens).
public final class CurrentKeyring: Sendable {
    private let state: Mutex<(keyring: Keyring, generation: Int)>
    private let latestGeneration = Atomic<Int>(0)

    public init(_ keyring: Keyring) {
        state = Mutex((keyring, 0))
    }

    public var keyring: Keyring { state.withLock { $0.keyring } }

    /// The ring and its generation, read together.
    var snapshot: (keyring: Keyring, generation: Int) { state.withLock { $0 } }

    var generation: Int { latestGeneration.load(ordering: .acquiring) }

    public func replace(with keyring: Keyring) {
        state.withLock { state in
            state = (keyring, state.generation + 1)
            latestGeneration.store(state.generation, ordering: .releasing)
        }
    }
}
