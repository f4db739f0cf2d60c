/// `application/x-www-form-urlencoded` (WHATWG URL §5): every byte but ASCII letters,
/// digits and `*-._` percent-encoded, a space as `+`.
enum FormEncoding {
    static func encoded(_ text: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                result.append(byte)
            case 0x20:
                result.append(UInt8(ascii: "+"))
            default:
                result += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
