import CBOR
import COpenSSL

extension COSEKey {
    static let p256Curve: Int64 = 1
    static let ed25519Curve: Int64 = 6
    static let coordinateLength = 32
    static let minRSABits = 2048
    static let maxRSABytes = 8192 / 8

    /// P-256: the uncompressed point `04 ‖ x ‖ y`, which OpenSSL refuses off the curve;
    /// the public check then confirms it is a point of the group.
    static func ec2Key(_ map: CBORMap) throws(COSEKeyError) -> EVPPublicKey {
        guard map[Label.curve]?.integer == p256Curve else { throw .unsupportedCurve }
        return try p256Key(x: try bytes(map, Label.x), y: try bytes(map, Label.y))
    }

    /// A P-256 key from its coordinates (a COSE key's or a JSON Web Key's).
    static func p256Key(x: [UInt8], y: [UInt8]) throws(COSEKeyError) -> EVPPublicKey {
        guard x.count == coordinateLength, y.count == coordinateLength else { throw .wrongCoordinateLength }
        let point: [UInt8] = [0x04] + x + y
        let key = point.withUnsafeBytes { point in
            EVPPublicKey.fromParameters(type: "EC") { builder in
                OSSL_PARAM_BLD_push_utf8_string(builder, OSSLParameterName.group, OSSLParameterName.p256, 0) == 1
                    && OSSL_PARAM_BLD_push_octet_string(builder, OSSLParameterName.publicKey, point.baseAddress, point.count) == 1
            }
        }
        guard let key, key.passesPublicCheck else { throw .pointNotOnCurve }
        return key
    }

    static func ed25519Key(_ map: CBORMap) throws(COSEKeyError) -> EVPPublicKey {
        guard map[Label.curve]?.integer == ed25519Curve else { throw .unsupportedCurve }
        let x = try bytes(map, Label.x)
        guard x.count == coordinateLength else { throw .wrongCoordinateLength }
        let key = x.withUnsafeBytes { x in
            EVPPublicKey.fromParameters(type: "ED25519") { builder in
                OSSL_PARAM_BLD_push_octet_string(builder, OSSLParameterName.publicKey, x.baseAddress, x.count) == 1
            }
        }
        guard let key else { throw .keyRejected }
        return key
    }

    /// n and e as unsigned big-endian integers; leading zero bytes do not count towards
    /// the modulus's size.
    static func rsaKey(_ map: CBORMap) throws(COSEKeyError) -> EVPPublicKey {
        try rsaKey(modulus: try bytes(map, Label.modulus), exponent: try bytes(map, Label.exponent))
    }

    /// An RSA key from n and e (a COSE key's or a JSON Web Key's), with the same limits.
    static func rsaKey(modulus: [UInt8], exponent: [UInt8]) throws(COSEKeyError) -> EVPPublicKey {
        let modulus = Array(modulus.drop { $0 == 0 })
        let exponent = Array(exponent.drop { $0 == 0 })
        guard let first = modulus.first, (modulus.count - 1) * 8 + (8 - first.leadingZeroBitCount) >= minRSABits else {
            throw .rsaModulusTooShort
        }
        guard modulus.count <= maxRSABytes else { throw .rsaModulusTooLong }
        guard !exponent.isEmpty, exponent.count <= 8, exponent.last! & 1 == 1,
              exponent.count > 1 || exponent[0] >= 3
        else { throw .invalidRSAExponent }
        guard let n = BN_bin2bn(modulus, Int32(modulus.count), nil) else { fatalError("BN_bin2bn failed (out of memory)") }
        defer { BN_free(n) }
        guard let e = BN_bin2bn(exponent, Int32(exponent.count), nil) else { fatalError("BN_bin2bn failed (out of memory)") }
        defer { BN_free(e) }
        let key = EVPPublicKey.fromParameters(type: "RSA") { builder in
            OSSL_PARAM_BLD_push_BN(builder, OSSLParameterName.modulus, n) == 1
                && OSSL_PARAM_BLD_push_BN(builder, OSSLParameterName.exponent, e) == 1
        }
        guard let key else { throw .keyRejected }
        return key
    }
}
