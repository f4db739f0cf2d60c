import Foundation
import JSONStream
import Testing

@Suite struct JSONStreamReaderTests {
    /// A reader over `text` whose source hands out `piece` bytes at a time into a buffer of
    /// `chunk`: with 1, every token lies across a boundary.
    static func reader(_ text: String, piece: Int = 65_536, chunk: Int = 65_536, maximumStringBytes: Int = 1 << 20) -> JSONStreamReader {
        JSONStreamReader(ByteArraySource(Array(text.utf8), pieceSize: piece), chunkSize: chunk, maximumStringBytes: maximumStringBytes)
    }

    /// The error `body` throws, or nil when it succeeds.
    static func failure(_ body: () throws -> Void) -> JSONStreamError? {
        do {
            try body()
            return nil
        } catch let error as JSONStreamError {
            return error
        } catch {
            Issue.record("not a JSONStreamError: \(error)")
            return nil
        }
    }

    static let document = """
        {"users": [
          {"localId": "a1", "email": "ad\\u00e4@example.com", "emailVerified": true, "createdAt": "1508893925000",
           "providerUserInfo": [{"providerId": "password", "nested": {"deep": [1, -2.5e3, null, "x\\"y"]}}], "n": -0},
          {"localId": "b2", "tags": {}, "list": [], "esc": "\\ud83d\\udd11 \\/ \\t"}
        ], "kind": "identitytoolkit#DownloadAccountResponse"}
        """

    /// Walks `document`, keeping the scalars of each user and skipping the containers.
    static func users(_ reader: JSONStreamReader) throws -> [[String: JSONScalar]] {
        var users: [[String: JSONScalar]] = []
        try reader.beginObject()
        while let key = try reader.nextKey() {
            guard key == "users" else {
                try reader.skipValue()
                continue
            }
            try reader.beginArray()
            while try reader.nextElement() {
                var user: [String: JSONScalar] = [:]
                try reader.beginObject()
                while let field = try reader.nextKey() {
                    switch try reader.peekKind() {
                    case .object, .array: try reader.skipValue()
                    default: user[field] = try reader.readScalar()
                    }
                }
                users.append(user)
            }
        }
        try reader.finish()
        return users
    }

    @Test(arguments: [(1, 1), (1, 7), (3, 2), (65_536, 65_536)])
    func readsTheSameWhereverTheInputIsCut(piece: Int, chunk: Int) throws {
        let users = try Self.users(Self.reader(Self.document, piece: piece, chunk: chunk))
        #expect(users.count == 2)
        #expect(users[0]["localId"] == .string("a1"))
        #expect(users[0]["email"] == .string("adä@example.com"))
        #expect(users[0]["emailVerified"] == .bool(true))
        #expect(users[0]["createdAt"]?.string == "1508893925000")
        #expect(users[0]["n"] == .number("-0"))
        #expect(users[0]["providerUserInfo"] == nil, "containers were skipped")
        #expect(users[1]["esc"] == .string("🔑 / \t"))
        #expect(Set(users[1].keys) == ["localId", "esc"])
    }

    @Test func numbersStayAsWrittenAndIntegersConvert() throws {
        let reader = Self.reader("[1508893925000, -12, 1.5, 2e3, 92233720368547758070]")
        try reader.beginArray()
        var values: [JSONScalar] = []
        while try reader.nextElement() { values.append(try reader.readScalar()) }
        #expect(values == [.number("1508893925000"), .number("-12"), .number("1.5"), .number("2e3"), .number("92233720368547758070")])
        #expect(values.map(\.integer) == [1_508_893_925_000, -12, nil, nil, nil])
    }

    @Test(arguments: [
        ("", 1, 1, "expected a value, found the end of the input"),
        ("{\"a\": 1,}", 1, 9, "expected a key (a string), found '}'"),
        ("{\"a\" 1}", 1, 6, "expected ':' after a key, found '1'"),
        ("{\"a\": 1\n \"b\": 2}", 2, 2, "expected ',' or '}', found '\"'"),
        ("[1, 2,]", 1, 7, "expected a value after ',', found ']'"),
        ("{\"a\": tru}", 1, 7, "expected true, found something else"),
        ("{\"a\": \"x\ny\"}", 1, 9, "a control character (byte 0x0A) inside a string; it must be escaped"),
        ("{\"a\": \"x", 1, 7, "a string that does not end"),
        ("{\"a\": \"\\q\"}", 1, 8, "an unknown escape '\\q' in a string"),
        ("{\"a\": \"\\udc00\"}", 1, 8, "a lone low surrogate in a \\u escape"),
        ("{\"a\": -}", 1, 8, "expected a digit in a number"),
        ("{\"a\": 1} x", 1, 10, "expected the end of the input, found 'x'"),
        ("{\"a\": @}", 1, 7, "expected a value, found '@'"),
    ])
    func malformedInputIsAnErrorNamingItsLineAndColumn(text: String, line: Int, column: Int, message: String) {
        let error = Self.failure {
            let reader = Self.reader(text, piece: 2, chunk: 3)
            try reader.skipValue()
            try reader.finish()
        }
        #expect(error?.message == message, "\(text)")
        #expect(error?.location.line == line && error?.location.column == column, "\(text): \(String(describing: error))")
    }

    @Test func aStringThatIsNotUTF8IsRefusedWhenRead() {
        let bytes: [UInt8] = Array("{\"a\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        let reader = JSONStreamReader(ByteArraySource(bytes))
        let error = Self.failure {
            try reader.beginObject()
            _ = try reader.nextKey()
            _ = try reader.readScalar()
        }
        #expect(error?.message == "a string that is not UTF-8")
        #expect(error?.location.column == 7)
    }

    @Test func nestingIsBounded() throws {
        let depth = JSONStreamReader.maximumDepth
        let fits = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let reader = Self.reader(fits)
        try reader.skipValue()
        try reader.finish()
        let tooDeep = "[" + fits + "]"
        let error = Self.failure { try Self.reader(tooDeep).skipValue() }
        #expect(error?.message == "nested deeper than \(depth) levels")
        #expect(error?.location.column == depth + 1)
    }

    @Test func stringsAndNumbersThatAreReadAreBounded() {
        let long = Self.failure {
            let reader = Self.reader("[\"\(String(repeating: "x", count: 17))\"]", maximumStringBytes: 16)
            try reader.beginArray()
            _ = try reader.nextElement()
            _ = try reader.readScalar()
        }
        #expect(long?.message == "a string longer than 16 bytes")
        // Read a buffered run at a time: the bound holds exactly, wherever the input is cut.
        for chunk in [1, 3, 65_536] {
            let reader = Self.reader("[\"\(String(repeating: "x", count: 15))\\u00e9\"]", chunk: chunk, maximumStringBytes: 16)
            #expect(Self.failure { try reader.beginArray(); _ = try reader.nextElement(); _ = try reader.readScalar() }?.message == "a string longer than 16 bytes")
            let fits = Self.reader("[\"\(String(repeating: "x", count: 14))\\u00e9\"]", chunk: chunk, maximumStringBytes: 16)
            var read: JSONScalar?
            #expect(Self.failure { try fits.beginArray(); _ = try fits.nextElement(); read = try fits.readScalar() } == nil)
            #expect(read == .string(String(repeating: "x", count: 14) + "é"))
        }
        let number = Self.failure {
            let reader = Self.reader("[" + String(repeating: "9", count: 200) + "]")
            try reader.beginArray()
            _ = try reader.nextElement()
            _ = try reader.readScalar()
        }
        #expect(number?.message == "a number longer than 128 characters")
        // A skipped string is not kept, so its length does not matter.
        let skipped = Self.failure {
            let reader = Self.reader("[\"\(String(repeating: "x", count: 100))\", 1]", maximumStringBytes: 16)
            try reader.skipValue()
            try reader.finish()
        }
        #expect(skipped == nil)
    }

    @Test func readScalarRefusesAContainerAndSaysWhatItFound() {
        let error = Self.failure {
            let reader = Self.reader("{\"email\": {\"x\": 1}}")
            try reader.beginObject()
            _ = try reader.nextKey()
            _ = try reader.readScalar()
        }
        #expect(error?.message == "expected a string, number, true, false or null, found an object")
        #expect(error?.location.column == 11)
    }

    @Test func aFileIsReadInPiecesAndAMissingOneSaysWhy() throws {
        let path = NSTemporaryDirectory() + "latchkey-jsonstream-\(UUID().uuidString).json"
        let text = "{\"users\": [" + (0..<2_000).map { "{\"localId\": \"u\($0)\", \"email\": \"u\($0)@example.com\"}" }.joined(separator: ",") + "]}"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = JSONStreamReader(try FileByteSource(path: path), chunkSize: 4096)
        try reader.beginObject()
        #expect(try reader.nextKey() == "users")
        try reader.beginArray()
        var count = 0
        while try reader.nextElement() {
            try reader.skipValue()
            count += 1
        }
        #expect(count == 2_000)
        #expect(try reader.nextKey() == nil)
        try reader.finish()

        #expect(throws: FileReadError(path: path + ".missing", reason: "No such file or directory")) {
            _ = try FileByteSource(path: path + ".missing")
        }
        #expect(throws: FileReadError(path: "/tmp", reason: "it is a directory")) {
            _ = try FileByteSource(path: "/tmp")
        }
    }
}
