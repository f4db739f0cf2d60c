import FlatJSON
import HTTPServer
import LatchkeyCore

/// `GET /.well-known/jwks.json` and `GET /.well-known/openid-configuration`: with
/// `accessTokenAlgorithm` ES256, what an app's own backend needs to verify access tokens
/// without any secret. With HS256 there is no public key, and both answer 404 as a path
/// the server does not know would. Neither reads the store; both run on the loop.
enum TokenPublicationRoutes {
    static func bind(_ routes: inout Routes, keys: CurrentKeyring, policy: AccountsPolicy, publicURL: String) {
        guard keys.keyring.algorithm == .es256 else {
            let absent = ErrorResponder.problem(for: Problem.notFound).response()
            routes.plain("GET", "/.well-known/jwks.json") { _ in absent }
            routes.plain("GET", "/.well-known/openid-configuration") { _ in absent }
            return
        }
        let keySet = PublicKeySet(keys: keys, tokenLifetime: policy.accessTokenTTL)
        routes.plain("GET", "/.well-known/jwks.json") { _ in keySet.response(now: UnixTime.now()) }
        let configuration = Response(
            status: 200,
            headers: [HTTPField(name: "Content-Type", value: "application/json"), HTTPField(name: "Cache-Control", value: "public, max-age=300")],
            body: openIDConfiguration(issuer: policy.issuer, jwksURI: publicURL + "/.well-known/jwks.json")
        )
        routes.plain("GET", "/.well-known/openid-configuration") { _ in configuration }
    }

    /// OpenID Connect Discovery's fields that describe our tokens (this server is no
    /// authorization server: no endpoints beyond the keys).
    static func openIDConfiguration(issuer: String, jwksURI: String) -> [UInt8] {
        var body = Array(#"{"issuer":"#.utf8)
        FlatJSONObject.appendQuoted(issuer, to: &body)
        body += Array(#","jwks_uri":"#.utf8)
        FlatJSONObject.appendQuoted(jwksURI, to: &body)
        body += Array(#","id_token_signing_alg_values_supported":["ES256"],"subject_types_supported":["public"],"#.utf8)
        body += Array(#""claims_supported":["sub","iss","aud","exp","iat","sid","amr","email","email_verified"]}"#.utf8)
        return body
    }
}
