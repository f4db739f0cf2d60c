import CBOR

/// The reader's own rules beyond Appendix A: the edges of each accepted kind, then one or
/// more rows for every error.
extension CBORCase {
    static let tight = CBORLimits(maxDepth: 2, maxItemsPerContainer: 4, maxInputBytes: 8)
    /// No item limit, so only the bytes left can refuse a huge declared count.
    static let unlimitedItems = CBORLimits(maxItemsPerContainer: Int.max)

    static let edgesAccepted: [CBORCase] = [
        .accepts("Int64.max", "1b7fffffffffffffff", .integer(.max)),
        .accepts("Int64.min", "3b7fffffffffffffff", .integer(.min)),
        .accepts("a long form of a small integer", "1b0000000000000001", .integer(1)),
        .accepts("a two-byte length for a short string", "590002abcd", .bytes([0xAB, 0xCD])),
        .accepts("NUL inside text", "630061 00", .text("\u{0}a\u{0}")),
        .accepts("composed and decomposed e-acute are two keys", "a262c3a9 01 6365cc81 02",
                 textMap([("\u{E9}", .integer(1)), ("e\u{301}", .integer(2))])),
        .accepts("integer and text keys mixed", "a2 01 02 6161 03",
                 .map(CBORMap([.init(key: .integer(1), value: .integer(2)), .init(key: .text("a"), value: .integer(3))]))),
        .accepts("negative integer keys (a COSE EC2 key's shape)", "a3 01 02 20 01 21 4100",
                 integerMap([(1, .integer(2)), (-1, .integer(1)), (-2, .bytes([0]))])),
        .accepts("nesting exactly at the depth limit", bytes: nestedArrays(16).bytes, nestedArrays(16).value),
        .accepts("exactly maxItemsPerContainer elements", "8401020304", limits: tight,
                 .array([.integer(1), .integer(2), .integer(3), .integer(4)])),
        .accepts("input exactly at maxInputBytes", "47 01020304050607", limits: CBORLimits(maxInputBytes: 8),
                 .bytes([1, 2, 3, 4, 5, 6, 7])),
    ]

    static let rulesRefused: [CBORCase] = [
        .refuses("empty input", "", .truncated),
        .refuses("a one-byte argument missing", "18", .truncated),
        .refuses("an eight-byte argument cut short", "1b00000000000000", .truncated),
        .refuses("an array one element short", "82 1801", .truncated),
        .refuses("a map value cut short", "a3 0102 0304 05 1a0000", .truncated),
        .refuses("a byte string longer than the input", "4501020304", .lengthPastEnd),
        .refuses("a text string longer than the input", "6a616263", .lengthPastEnd),
        .refuses("a byte string declaring 2^63 bytes", "5b7fffffffffffffff", .lengthPastEnd),
        .refuses("a text string declaring 2^64-1 bytes", "7bffffffffffffffff", .lengthPastEnd),
        .refuses("an array declaring more elements than bytes left", "9820 010203", .lengthPastEnd),
        .refuses("an array declaring 2^63-1 elements, no item limit", "9b7fffffffffffffff 00",
                 limits: unlimitedItems, .lengthPastEnd),
        .refuses("a map declaring more pairs than bytes left could hold", "a2 0102 03", .lengthPastEnd),
        .refuses("a map declaring 2^63-1 pairs, no item limit", "bb7fffffffffffffff 0102",
                 limits: unlimitedItems, .lengthPastEnd),
        .refuses("additional information 28", "1c", .malformedHead),
        .refuses("additional information 29 on a byte string", "5d", .malformedHead),
        .refuses("additional information 30 on a map", "be", .malformedHead),
        .refuses("additional information 31 on an unsigned integer", "1f", .malformedHead),
        .refuses("additional information 31 on a negative integer", "3f", .malformedHead),
        .refuses("additional information 31 on a tag", "df", .malformedHead),
        .refuses("Int64.max + 1", "1b8000000000000000", .integerOutOfRange),
        .refuses("Int64.min - 1", "3b8000000000000000", .integerOutOfRange),
        .refuses("a lone continuation byte", "6180", .invalidUTF8),
        .refuses("a cut-off two-byte sequence", "62c328", .invalidUTF8),
        .refuses("an overlong slash", "62c0af", .invalidUTF8),
        .refuses("a UTF-16 surrogate", "63eda080", .invalidUTF8),
        .refuses("a code point above U+10FFFF", "64f4908080", .invalidUTF8),
        .refuses("a text map key that is not UTF-8", "a1 61ff 01", .invalidUTF8),
        .refuses("a break with nothing to end", "ff", .unexpectedBreak),
        .refuses("a break inside a definite array", "8201ff", .unexpectedBreak),
        .refuses("a tag on a map value", "a1 01 c0 00", .tag),
        .refuses("a float inside an array", "8201f93c00", .float),
        .refuses("simple(0)", "e0", .unsupportedSimpleValue),
        .refuses("simple(19)", "f3", .unsupportedSimpleValue),
        .refuses("simple(24) in the extended form", "f818", .unsupportedSimpleValue),
        .refuses("a byte string key", "a1 4101 01", .unsupportedMapKey),
        .refuses("an array key", "a1 80 01", .unsupportedMapKey),
        .refuses("a map key that is a map", "a1 a0 01", .unsupportedMapKey),
        .refuses("a boolean key", "a1 f5 01", .unsupportedMapKey),
        .refuses("a null key", "a1 f6 01", .unsupportedMapKey),
        .refuses("a tagged key", "a1 c1 01 01", .unsupportedMapKey),
        .refuses("an integer key twice", "a2 01 02 01 03", .duplicateMapKey),
        .refuses("an integer key twice, spelled two ways", "a2 01 00 1801 00", .duplicateMapKey),
        .refuses("a negative key twice", "a2 20 00 3800 00", .duplicateMapKey),
        .refuses("a text key twice", "a2 6161 01 6161 02", .duplicateMapKey),
        .refuses("a duplicate key inside a nested map", "81 a2 6166 00 6166 00", .duplicateMapKey),
        .refuses("nesting one past the depth limit", bytes: nestedArrays(17).bytes, .tooDeep),
        .refuses("a map nested past a tight depth limit", "a1 01 a1 01 a1 01 00", limits: tight, .tooDeep),
        .refuses("one element more than maxItemsPerContainer", "850102030405", limits: tight, .tooManyItems),
        .refuses("one pair more than maxItemsPerContainer", "a5 0100 0200 0300 0400 0500",
                 limits: CBORLimits(maxItemsPerContainer: 4), .tooManyItems),
        .refuses("a count past the item limit, before its length is checked", "9bffffffffffffffff", .tooManyItems),
        .refuses("input one byte over maxInputBytes", "48 0102030405060708", limits: CBORLimits(maxInputBytes: 8), .inputTooLong),
        .refuses("one item followed by another", "0000", .trailingBytes),
        .refuses("a map followed by a stray byte", "a0 00", .trailingBytes),
    ]

    static let accepted = appendixAAccepted + edgesAccepted
    static let all = accepted + appendixARefused + rulesRefused
}
