@testable import LatchkeyCore
import Foundation
import Testing
import TestSupport

/// An authenticator app is another implementation: it reads our otpauth URI and computes
/// codes on its own. Python's standard library stands in for it (urllib reads the URI,
/// base64 the secret, hmac the codes, in a few lines written from RFC 6238 and the Key URI
/// format), so the test does not only check that we agree with ourselves.
@Suite struct TOTPInteropTests {
    @Test func anAppReadingOurURIShowsTheCodesWeAccept() throws {
        let totp = TOTP.generate()
        let issuer = "Zoë & Co: Auth"
        let account = "zoë+1@exämple.com"
        let times: [Int64] = [0, 59, 1_111_111_109, 1_800_000_000, 1_800_000_029, 1_800_000_030, 20_000_000_000]
        let output = try runPython("""
            import base64, hmac, hashlib, json, struct, sys
            from urllib.parse import urlsplit, parse_qs, unquote
            uri = urlsplit(sys.argv[1])
            issuer, account = [unquote(part) for part in uri.path[1:].split(":")]
            query = {name: values[0] for name, values in parse_qs(uri.query, strict_parsing=True).items()}
            secret = base64.b32decode(query["secret"] + "=" * (-len(query["secret"]) % 8))
            digits, period = int(query["digits"]), int(query["period"])
            assert query["algorithm"] == "SHA1"
            def code(time):
                mac = hmac.new(secret, struct.pack(">Q", time // period), hashlib.sha1).digest()
                offset = mac[-1] & 0x0F
                value = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
                return str(value % 10 ** digits).zfill(digits)
            print(json.dumps({"scheme": uri.scheme, "type": uri.netloc, "issuer": issuer, "account": account,
                              "issuerParameter": query["issuer"],
                              "codes": [code(int(time)) for time in sys.argv[2:]]}))
            """, arguments: [totp.otpauthURI(issuer: issuer, account: account)] + times.map(String.init))
        let app = try JSONDecoder().decode(AppReading.self, from: Data(output.utf8))
        #expect(app.scheme == "otpauth")
        #expect(app.type == "totp")
        #expect(app.issuer == issuer)
        #expect(app.account == account)
        #expect(app.issuerParameter == issuer)
        #expect(app.codes == times.map { totp.code(at: $0) })
        for (time, code) in zip(times, app.codes) {
            #expect(totp.check(Array(code.utf8), at: time, lastAcceptedStep: nil) == .accepted(step: TOTP.step(at: time)), "T = \(time)")
        }
    }

    private struct AppReading: Decodable {
        let scheme: String
        let type: String
        let issuer: String
        let account: String
        let issuerParameter: String
        let codes: [String]
    }
}
