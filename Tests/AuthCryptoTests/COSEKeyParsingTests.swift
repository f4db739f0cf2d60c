import AuthCrypto
import CBOR
import Testing
import TestSupport

/// One COSE key map and the error that refuses it (or nil: accepted).
struct COSEKeyCase: Sendable, CustomTestStringConvertible {
    let name: String
    let map: CBORMap
    let expected: COSEKeyError?

    var testDescription: String { name }

    init(_ name: String, _ pairs: [(Int64, CBOR)], _ expected: COSEKeyError?) {
        self.name = name
        map = coseKey(pairs)
        self.expected = expected
    }
}

/// P-256's generator: a point on the curve that needs no key generation (private key 1).
let generatorX = [UInt8](hex: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
let generatorY = [UInt8](hex: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
/// P-256's field prime: not a coordinate.
let p256Prime = [UInt8](hex: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
let ed25519Key = [UInt8](hex: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
/// An odd 2048-bit modulus (its top bit set); RSA keys are not checked for being a product of primes.
let modulus2048 = [0xC0] + [UInt8](repeating: 0x5A, count: 254) + [0x01]

extension COSEKeyCase {
    static func ec2(_ name: String, kty: CBOR = .integer(2), alg: CBOR? = .integer(-7), crv: CBOR? = .integer(1),
                    x: CBOR? = .bytes(generatorX), y: CBOR? = .bytes(generatorY), extra: [(Int64, CBOR)] = [],
                    _ expected: COSEKeyError?) -> COSEKeyCase {
        let pairs: [(Int64, CBOR)] = [(1, kty)] + [(3, alg), (-1, crv), (-2, x), (-3, y)].compactMap { label, value in value.map { (label, $0) } }
        return COSEKeyCase(name, pairs + extra, expected)
    }

    static func rsa(_ name: String, alg: Int64 = -257, n: [UInt8]? = modulus2048, e: [UInt8]? = [1, 0, 1], _ expected: COSEKeyError?) -> COSEKeyCase {
        let pairs: [(Int64, CBOR)] = [(1, .integer(3)), (3, .integer(alg))] + [(-1, n), (-2, e)].compactMap { label, value in value.map { (label, .bytes($0)) } }
        return COSEKeyCase(name, pairs, expected)
    }

    static func okp(_ name: String, alg: Int64 = -8, crv: Int64 = 6, x: [UInt8] = ed25519Key, _ expected: COSEKeyError?) -> COSEKeyCase {
        COSEKeyCase(name, [(1, .integer(1)), (3, .integer(alg)), (-1, .integer(crv)), (-2, .bytes(x))], expected)
    }

    static let all: [COSEKeyCase] = [
        .ec2("EC2 P-256 ES256", nil),
        .ec2("EC2 with a kid and key_ops beside", extra: [(2, .bytes([1, 2])), (4, .array([.integer(2)]))], nil),
        .rsa("RSA 2048 bits RS256", nil),
        .rsa("RSA modulus with a leading zero byte", n: [0] + modulus2048, nil),
        .rsa("RSA exponent with a leading zero byte", e: [0, 3], nil),
        .okp("OKP Ed25519 EdDSA", nil),

        COSEKeyCase("kty missing", [(3, .integer(-7)), (-1, .integer(1)), (-2, .bytes(generatorX)), (-3, .bytes(generatorY))], .unsupportedKeyType),
        .ec2("kty Symmetric (4)", kty: .integer(4), .unsupportedKeyType),
        .ec2("kty as text", kty: .text("EC2"), .unsupportedKeyType),
        .ec2("EC2 without alg", alg: nil, .unsupportedAlgorithm),
        .ec2("EC2 with ES384 (-35)", alg: .integer(-35), .unsupportedAlgorithm),
        .ec2("EC2 with EdDSA (-8)", alg: .integer(-8), .unsupportedAlgorithm),
        .ec2("EC2 with alg as text", alg: .text("ES256"), .unsupportedAlgorithm),
        .rsa("RSA with PS256 (-37)", alg: -37, .unsupportedAlgorithm),
        .rsa("RSA with ES256 (-7)", alg: -7, .unsupportedAlgorithm),
        .okp("OKP with ES256 (-7)", alg: -7, .unsupportedAlgorithm),
        .ec2("EC2 on P-384 (2)", crv: .integer(2), .unsupportedCurve),
        .ec2("EC2 without crv", crv: nil, .unsupportedCurve),
        .okp("OKP on X25519 (4)", crv: 4, .unsupportedCurve),
        .ec2("EC2 without x", x: nil, .missingParameter(label: -2)),
        .ec2("EC2 with a compressed point (y a boolean)", y: .bool(true), .missingParameter(label: -3)),
        .rsa("RSA without n", n: nil, .missingParameter(label: -1)),
        .rsa("RSA without e", e: nil, .missingParameter(label: -2)),
        .ec2("EC2 x of 31 bytes", x: .bytes(Array(generatorX.dropFirst())), .wrongCoordinateLength),
        .ec2("EC2 y of 33 bytes", y: .bytes([0] + generatorY), .wrongCoordinateLength),
        .okp("Ed25519 x of 33 bytes", x: ed25519Key + [0], .wrongCoordinateLength),
        .ec2("EC2 point off the curve (the generator, y's last byte changed)",
             y: .bytes(Array(generatorY.dropLast()) + [0xF4]), .pointNotOnCurve),
        .ec2("EC2 x equal to the field prime", x: .bytes(p256Prime), .pointNotOnCurve),
        .ec2("EC2 point (0, 0)", x: .bytes([UInt8](repeating: 0, count: 32)), y: .bytes([UInt8](repeating: 0, count: 32)), .pointNotOnCurve),
        .rsa("RSA modulus of 2047 bits", n: [0x7F] + Array(modulus2048.dropFirst()), .rsaModulusTooShort),
        .rsa("RSA modulus of 2047 bits padded to 257 bytes", n: [0, 0x7F] + Array(modulus2048.dropFirst()), .rsaModulusTooShort),
        .rsa("RSA modulus of zeros", n: [UInt8](repeating: 0, count: 256), .rsaModulusTooShort),
        .rsa("RSA modulus of 8200 bits", n: [0xFF] + [UInt8](repeating: 0x5A, count: 1024), .rsaModulusTooLong),
        .rsa("RSA exponent 1", e: [1], .invalidRSAExponent),
        .rsa("RSA exponent 2", e: [2], .invalidRSAExponent),
        .rsa("RSA exponent 65536", e: [1, 0, 0], .invalidRSAExponent),
        .rsa("RSA exponent empty", e: [], .invalidRSAExponent),
        .rsa("RSA exponent of 72 bits", e: [1, 0, 0, 0, 0, 0, 0, 0, 1], .invalidRSAExponent),
    ]
}

@Suite struct COSEKeyParsingTests {
    @Test(arguments: COSEKeyCase.all)
    func givesTheExpectedResult(_ row: COSEKeyCase) {
        let result: COSEKeyError?
        do throws(COSEKeyError) {
            _ = try COSEKey(row.map)
            result = nil
        } catch {
            result = error
        }
        #expect(result == row.expected)
    }

    @Test func refusesAnItemThatIsNotAMap() {
        #expect(throws: COSEKeyError.notAMap) { try COSEKey(.array([.integer(1), .integer(2)])) }
    }

    @Test func refusesEncodingsTheCBORReaderRefuses() {
        #expect(throws: COSEKeyError.malformedCBOR(.trailingBytes)) { try COSEKey(encoded: [0xA0, 0x00]) }
        // kty twice: an attacker's second kty must not be read as the one that counts.
        #expect(throws: COSEKeyError.malformedCBOR(.duplicateMapKey)) { try COSEKey(encoded: [0xA2, 0x01, 0x02, 0x01, 0x03]) }
    }
}
