import HTTPServer

/// The second factor (TOTP): its status, enrolment and confirmation, removal, recovery
/// codes, and the challenge a password login answers for an account that has one. The
/// challenge draws on the login's per-address budget: it is the second half of a login.
enum FactorsRoutes {
    static func bind(_ routes: inout Routes, _ context: APIContext) {
        let json = JSONBody.admission
        routes.read("/v1/auth/mfa", auth: .bearer) { try SecondFactorHandlers.status($0, $1, $2, context) }
        routes.write("POST", "/v1/auth/mfa/totp", auth: .bearer, admit: json) { try await SecondFactorHandlers.enrol($0, $1, context) }
        routes.write("POST", "/v1/auth/mfa/totp/verify", auth: .bearer, admit: json) { try await SecondFactorHandlers.confirm($0, $1, context) }
        routes.write("DELETE", "/v1/auth/mfa/totp", auth: .bearer, admit: json) { try await SecondFactorHandlers.remove($0, $1, context) }
        routes.write("POST", "/v1/auth/mfa/recovery-codes", auth: .bearer, admit: json) {
            try await SecondFactorHandlers.renewRecoveryCodes($0, $1, context)
        }
        routes.write("POST", "/v1/auth/mfa/challenge", admit: json, throttle: .login) { try await MFAChallengeHandler.handle($0, context) }
    }
}
