@testable import LatchkeyCore

extension SessionService {
    /// A refresh as the route makes it (`rotate`, then `pair`), awaited.
    func refresh(_ token: String) async throws -> TokenPair {
        let rotated = try await withCheckedThrowingContinuation { continuation in
            rotate(token) { continuation.resume(with: $0) }
        }
        return try pair(for: rotated)
    }
}
