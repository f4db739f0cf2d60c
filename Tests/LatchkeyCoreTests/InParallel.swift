/// Runs `body` for `0..<count` at once, as concurrent requests would, and waits for all;
/// rethrows the first failure.
func inParallel(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<count { group.addTask { try await body(index) } }
        try await group.waitForAll()
    }
}
