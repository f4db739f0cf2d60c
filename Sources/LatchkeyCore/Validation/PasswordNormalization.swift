/// Passwords are compared in Unicode NFKC (NIST SP 800-63B 5.1.1.2), so the same password
/// typed on two keyboards (a full-width "Ｐ", a ligature "ﬁ", a composed or decomposed "é")
/// is the same password.
///
/// Without ICU (the binary links FoundationEssentials only): NFKC(s) is NFC applied to
/// the string with every code point replaced by its full compatibility decomposition, and
/// the standard library has NFC (`_nfcCodeUnits`, the normaliser its own `String`
/// comparison uses); only the compatibility mappings are carried here, generated from
/// Unicode 16.0, the standard library's version (`scripts/embed-nfkc`).
public enum PasswordNormalization {
    public static func nfkc(_ password: String) -> String {
        // ASCII is its own NFKC: the common case costs one pass over the bytes.
        if password.utf8.allSatisfy({ $0 < 0x80 }) { return password }
        var decomposed = String.UnicodeScalarView()
        for scalar in password.unicodeScalars {
            if let mapped = CompatibilityDecompositions.table[scalar.value] {
                decomposed.append(contentsOf: mapped)
            } else {
                decomposed.append(scalar)
            }
        }
        return String(decoding: String(decomposed)._nfcCodeUnits, as: UTF8.self)
    }
}
