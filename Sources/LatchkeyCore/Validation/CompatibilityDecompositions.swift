/// The compatibility decompositions NFKC needs beyond what the standard library knows
/// (it carries canonical normalisation only): for each code point whose NFKD differs from
/// its NFD, its full NFKD. Parsed on first use (the first non-ASCII password), not at
/// start-up, so a server whose users type ASCII never holds the table.
enum CompatibilityDecompositions {
    static let table: [UInt32: [Unicode.Scalar]] = {
        var table: [UInt32: [Unicode.Scalar]] = [:]
        table.reserveCapacity(4096)
        for line in embedded.utf8.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " ")).compactMap { UInt32(String(decoding: $0, as: UTF8.self), radix: 16) }
            guard fields.count >= 2 else { continue }
            table[fields[0]] = fields.dropFirst().compactMap(Unicode.Scalar.init)
        }
        return table
    }()
}
