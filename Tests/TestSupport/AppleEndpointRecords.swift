import Foundation

/// What a fake Apple's token and revocation endpoints accepted (and refused), in order, as
/// Tests/Tools/fake_apple_endpoints.py appends it to a file: `kind` is exchange, revoke or
/// refused. Read by `FakeAppleEndpoints` and by the identity tests' fake Apple, which
/// mounts the same endpoints under its issuer.
public struct AppleEndpointRecords: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func all() -> [[String: String]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: String]
        }
    }

    public func of(_ kind: String) -> [[String: String]] { all().filter { $0["kind"] == kind } }

    /// Waits (at most `timeout` seconds) until `kind` has been recorded `count` times.
    public func waitFor(_ kind: String, count: Int = 1, timeout: Double = 30) -> [[String: String]] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found = of(kind)
            if found.count >= count { return found }
            usleep(100_000)
        }
        return of(kind)
    }
}
