import AuthCrypto
import Foundation
import Testing
import TestSupport

/// Another implementation must agree with ours, or we only tested that we agree with
/// ourselves. PyJWT is the reference: clients and tools in the wild behave like it.
///
/// The interpreter is `$LATCHKEY_TEST_PYTHON` (the project's test script points it at a
/// venv with PyJWT), else `python3` on PATH. A missing PyJWT fails these tests: skipping
/// would let a broken setup pass silently.
@Suite("PyJWT interoperability")
struct PyJWTInteropTests {
    let key = Fixtures.key("interop-1", Array("interop-secret-0123456789-abcdefghij".utf8))

    @Test func pyJWTAcceptsOurToken() throws {
        let now = Int64(Date().timeIntervalSince1970)
        let claims = TestClaims(sub: "user-42", exp: now + 600, aud: "latchkey", role: "member")
        let token = JWT.sign(claims.flat, with: Fixtures.keyring(key))

        let output = try runPython("""
            import json, sys
            import jwt
            token, key = sys.argv[1], bytes.fromhex(sys.argv[2])
            claims = jwt.decode(token, key, algorithms=["HS256"], audience="latchkey")
            print(json.dumps({"header": jwt.get_unverified_header(token), "claims": claims}))
            """, arguments: [token, key.secret.hex])

        let decoded = try JSONDecoder().decode(PyJWTResult.self, from: Data(output.utf8))
        #expect(decoded.claims == claims)
        #expect(decoded.header == ["alg": "HS256", "typ": "JWT", "kid": "interop-1"])
    }

    @Test func weAcceptPyJWTsToken() throws {
        let exp = Fixtures.now + 600
        let token = try runPython("""
            import sys
            import jwt
            key = bytes.fromhex(sys.argv[1])
            claims = {"sub": "user-7", "exp": int(sys.argv[2]), "aud": "latchkey"}
            print(jwt.encode(claims, key, algorithm="HS256", headers={"kid": "interop-1"}))
            """, arguments: [key.secret.hex, String(exp)])
            .trimmingCharacters(in: .whitespacesAndNewlines)

        let claims = try TestClaims(JWT.verifyFlatClaims(token, with: Fixtures.keyring(key), now: Fixtures.now))
        #expect(claims == TestClaims(sub: "user-7", exp: exp, aud: "latchkey"))
        #expect(throws: JWTError.expired) {
            _ = try JWT.verifyFlatClaims(token, with: Fixtures.keyring(key), now: exp + 31)
        }
    }

    @Test func weRefusePyJWTsTokenSignedWithAnotherAlgorithm() throws {
        let token = try runPython("""
            import sys
            import jwt
            key = bytes.fromhex(sys.argv[1])
            print(jwt.encode({"sub": "user-7", "exp": 1700000600}, key, algorithm="HS512", headers={"kid": "interop-1"}))
            """, arguments: [key.secret.hex])
            .trimmingCharacters(in: .whitespacesAndNewlines)

        #expect(throws: JWTError.unsupportedAlgorithm) {
            _ = try JWT.verifyFlatClaims(token, with: Fixtures.keyring(key), now: Fixtures.now)
        }
    }
}

private struct PyJWTResult: Decodable {
    let header: [String: String]
    let claims: TestClaims
}
