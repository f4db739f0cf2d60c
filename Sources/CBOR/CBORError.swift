/// Why the reader refused its input: one case per rule, so a test (and a log line) can say
/// exactly which one an input broke.
public enum CBORError: Error, Equatable, Sendable {
    /// The input is longer than `CBORLimits.maxInputBytes`; nothing was read.
    case inputTooLong
    /// The input ends inside an item's head or before a container's last item.
    case truncated
    /// A byte or text string, array or map declares more than the bytes left could hold;
    /// refused before anything is allocated for it.
    case lengthPastEnd
    /// Additional information 28–30 (reserved), or 31 on an integer or a tag.
    case malformedHead
    /// An unsigned integer above Int64.max, or a negative one below Int64.min.
    case integerOutOfRange
    /// A text string that is not valid UTF-8.
    case invalidUTF8
    /// An indefinite-length string, array or map (additional information 31).
    case indefiniteLength
    /// A "break" stop code (0xFF) with no indefinite-length item to end.
    case unexpectedBreak
    /// Major type 6: no tag has a place in WebAuthn's CBOR.
    case tag
    /// A half, single or double precision float.
    case float
    /// The simple value `undefined` (0xF7).
    case undefined
    /// A simple value other than false, true, null and undefined.
    case unsupportedSimpleValue
    /// A map key that is neither an integer nor a text string.
    case unsupportedMapKey
    /// The same key twice in one map (compared as bytes).
    case duplicateMapKey
    /// Containers nested deeper than `CBORLimits.maxDepth`.
    case tooDeep
    /// An array or map with more entries than `CBORLimits.maxItemsPerContainer`.
    case tooManyItems
    /// Bytes after the one item when the whole input must be that item.
    case trailingBytes
}
