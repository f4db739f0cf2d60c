import Glibc

/// Start-up runs code that a running server never runs again: argument parsing, settings,
/// migrations, key loading, the first use of every Swift type and OpenSSL provider. The
/// kernel maps each page it touches, and 16 pages around it, and leaves them mapped: right
/// after start about 9 MB of the binary's 11 MB of code and 5 MB of the libraries' counted
/// in the server's resident memory, most of it never to run again.
///
/// `release()` unmaps those pages once the server listens, from every mapping that holds
/// nothing but clean pages of a file (code and read-only data, private, never written):
/// the pages stay in the page cache, shared with every other process using the file, and
/// whatever the server runs next maps again, each page once, on first use. A mapping that
/// holds a page of its own (the relocated read-only data of RELRO, a page a debugger
/// wrote a breakpoint into) is left whole: unmapping it would lose that page's content.
enum StartupPages {
    static func release() {
        for mapping in cleanFileMappings() {
            // Only advice: a failure leaves the pages mapped, which costs memory, not
            // correctness.
            _ = madvise(UnsafeMutableRawPointer(bitPattern: mapping.start), Int(mapping.end - mapping.start), MADV_DONTNEED)
        }
    }

    private struct Mapping {
        let start: UInt
        let end: UInt
    }

    /// Private, not writable, backed by a file and holding no anonymous page, from
    /// /proc/self/smaps (read once, at start).
    private static func cleanFileMappings() -> [Mapping] {
        guard let smaps = fopen("/proc/self/smaps", "r") else { return [] }
        defer { fclose(smaps) }
        var mappings: [Mapping] = []
        var candidate: Mapping?
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), smaps) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let header = mappingHeader(text) {
                candidate = header.isCleanFileCandidate ? header.mapping : nil
            } else if text.hasPrefix("Anonymous:"), let mapping = candidate {
                candidate = nil
                let kilobytes = text.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
                if kilobytes == "0" { mappings.append(mapping) }
            }
        }
        return mappings
    }

    /// A header line is `start-end perms offset dev inode [path]`; nil for the other lines
    /// (`Rss:`, `Anonymous:`, ...). A candidate is private and read-only (`r--p` or `r-xp`)
    /// and names a file (a path beginning with `/`).
    private static func mappingHeader(_ line: String) -> (mapping: Mapping, isCleanFileCandidate: Bool)? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        let bounds = fields.first?.split(separator: "-") ?? []
        guard fields.count >= 5, bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
              end > start else { return nil }
        let isCandidate = (fields[1] == "r--p" || fields[1] == "r-xp") && fields.count >= 6 && fields[5].hasPrefix("/")
        return (Mapping(start: start, end: end), isCandidate)
    }
}
