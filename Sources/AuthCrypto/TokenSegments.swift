/// The three dot-separated parts of a compact JWS (RFC 7515 §7.1), as views into the
/// token's own bytes: splitting allocates nothing.
struct TokenSegments {
    let header: UnsafeBufferPointer<UInt8>
    let payload: UnsafeBufferPointer<UInt8>
    let signature: UnsafeBufferPointer<UInt8>
    /// `header.payload` exactly as received: the bytes the signature covers.
    let signingInput: UnsafeBufferPointer<UInt8>

    /// Exactly two dots and three non-empty segments; the base64url alphabet of each
    /// segment is checked when it is decoded.
    init(_ token: UnsafeBufferPointer<UInt8>) throws(JWTError) {
        guard token.count <= JWT.maximumTokenLength, let base = token.baseAddress else { throw .malformed }
        var firstDot = -1
        var secondDot = -1
        for index in 0..<token.count where token[index] == UInt8(ascii: ".") {
            if firstDot < 0 {
                firstDot = index
            } else if secondDot < 0 {
                secondDot = index
            } else {
                throw .malformed
            }
        }
        guard firstDot > 0, secondDot > firstDot + 1, secondDot < token.count - 1 else { throw .malformed }
        header = UnsafeBufferPointer(start: base, count: firstDot)
        payload = UnsafeBufferPointer(start: base + firstDot + 1, count: secondDot - firstDot - 1)
        signature = UnsafeBufferPointer(start: base + secondDot + 1, count: token.count - secondDot - 1)
        signingInput = UnsafeBufferPointer(start: base, count: secondDot)
    }
}
