import HTTPServer

/// Refresh, logout and the caller's sessions.
enum SessionsRoutes {
    static func bind(_ routes: inout Routes, _ context: APIContext) {
        routes.write("POST", "/v1/auth/refresh", admit: JSONBody.admission, answering: { RefreshHandler.handle($0, $1, context) })
        routes.write("POST", "/v1/auth/logout", auth: .bearer) { try await LogoutHandlers.logout($0, $1, context) }
        routes.write("POST", "/v1/auth/logout-all", auth: .bearer) { try await LogoutHandlers.logoutAll($0, $1, context) }
        routes.read("/v1/auth/sessions", auth: .bearer) { try SessionsHandlers.list($0, $1, $2, context) }
        routes.write("DELETE", "/v1/auth/sessions/{id}", auth: .bearer) { try await SessionsHandlers.delete($0, $1, context) }
    }
}
