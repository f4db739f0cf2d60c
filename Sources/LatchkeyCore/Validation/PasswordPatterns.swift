/// The repetitive and sequential passwords NIST SP 800-63B asks to refuse, which a
/// blocklist can never list in full: `aaaaaaaa`, `00000000`, `abcabcabc`, `12345678`,
/// `87654321`, `abcdefgh`, `12345678abc`.
enum PasswordPatterns {
    /// `.passwordRepetitive` when the whole password repeats one unit of at most half its
    /// length; `.passwordSequential` when it is at most two runs, each of one character
    /// repeated or of consecutive code points up or down (compared case-insensitively).
    static func weakness(of password: String) -> ValidationRule? {
        let scalars = password.lowercased().unicodeScalars.map(\.value)
        guard scalars.count >= 2 else { return nil }
        if repeatsAUnit(scalars) { return .passwordRepetitive }
        return runs(scalars) <= 2 ? .passwordSequential : nil
    }

    /// `abcabcab` repeats `abc`: every scalar equals the one a period before it.
    private static func repeatsAUnit(_ scalars: [UInt32]) -> Bool {
        (1...scalars.count / 2).contains { period in
            (period..<scalars.count).allSatisfy { scalars[$0] == scalars[$0 - period] }
        }
    }

    /// How many maximal runs of a constant step of -1, 0 or +1 the scalars split into,
    /// reading left to right.
    private static func runs(_ scalars: [UInt32]) -> Int {
        var count = 0
        var index = 0
        while index < scalars.count {
            count += 1
            guard index + 1 < scalars.count else { break }
            let step = Int64(scalars[index + 1]) - Int64(scalars[index])
            guard abs(step) <= 1 else {
                index += 1
                continue
            }
            index += 1
            while index + 1 < scalars.count, Int64(scalars[index + 1]) - Int64(scalars[index]) == step { index += 1 }
            index += 1
        }
        return count
    }
}
