/// The common-password blocklist: the 30,000 most frequent leaked passwords from zxcvbn
/// (resources/common-passwords.txt; source and licence in common-passwords.LICENSE).
/// The list is compiled into the binary (`CommonPasswords+Embedded.swift`, written by
/// scripts/embed-password-blocklist) so the server runs from any directory with no
/// files beside it.
///
/// It is searched where it lies, in the binary's read-only data, line by line: a check
/// (a signup or a password change, never a login) scans about 250 KB in well under a
/// millisecond, and the server holds no copy of the list on its heap.
public enum CommonPasswords {
    /// Case-insensitive: `Password` is as guessable as `password`.
    public static func contains(_ password: String) -> Bool {
        let wanted = Array(password.lowercased().utf8)
        guard !wanted.isEmpty, !wanted.contains(newline) else { return false }
        return lines { $0.elementsEqual(wanted) }
    }

    public static var count: Int {
        var count = 0
        _ = lines { _ in
            count += 1
            return false
        }
        return count
    }

    private static let newline = UInt8(ascii: "\n")

    /// Calls `body` with each line until it answers true; whether one did.
    private static func lines(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var list = embeddedList
        return list.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
                if body(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return true }
                start = end + 1
            }
            return false
        }
    }
}
