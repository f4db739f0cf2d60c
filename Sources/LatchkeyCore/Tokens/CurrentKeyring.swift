import AuthCrypto
import Synchronization

/// The keyring tokens are signed and checked with, replaced while the server runs when
/// `latchkey keys rotate|retire` change it, with the retired P-256 keys whose public
/// halves are still published. Reading it takes one uncontended lock; the generation, an
/// atomic read, changes with every replacement so verified-token caches stop trusting
/// what an earlier ring vouched for (a retired key's tokens), and the JWKS is rebuilt.
public final class CurrentKeyring: Sendable {
    private let state: Mutex<(keyring: Keyring, retired: [RetiredPublicKey], generation: Int)>
    private let latestGeneration = Atomic<Int>(0)

    public init(_ keyring: Keyring, retired: [RetiredPublicKey] = []) {
        state = Mutex((keyring, retired, 0))
    }

    public var keyring: Keyring { state.withLock { $0.keyring } }

    /// The ring and its generation, read together.
    var snapshot: (keyring: Keyring, generation: Int) { state.withLock { ($0.keyring, $0.generation) } }

    /// Everything a JWKS is made of, read together.
    public var publication: (keyring: Keyring, retired: [RetiredPublicKey], generation: Int) { state.withLock { $0 } }

    public var generation: Int { latestGeneration.load(ordering: .acquiring) }

    public func replace(with keyring: Keyring, retired: [RetiredPublicKey] = []) {
        state.withLock { state in
            state = (keyring, retired, state.generation + 1)
            latestGeneration.store(state.generation, ordering: .releasing)
        }
    }
}

/// A retired P-256 key's public half: it verifies nothing here any more, but resource
/// servers may still hold tokens it signed until `retiredAt` plus the access token lifetime.
public struct RetiredPublicKey: Sendable, Equatable {
    public let id: String
    public let x: [UInt8]
    public let y: [UInt8]
    public let retiredAt: Int64

    public init(id: String, x: [UInt8], y: [UInt8], retiredAt: Int64) {
        (self.id, self.x, self.y, self.retiredAt) = (id, x, y, retiredAt)
    }
}
