import Testing

/// A named raw request for parameterized socket tests, shown by name in the test output.
struct RawRequestCase: Sendable, CustomTestStringConvertible {
    let name: String
    let request: String
    var status = 0

    init(_ name: String, _ request: String, status: Int = 0) {
        self.name = name
        self.request = request
        self.status = status
    }

    init(_ pair: (String, String)) {
        self.init(pair.0, pair.1)
    }

    var testDescription: String { name }
}
