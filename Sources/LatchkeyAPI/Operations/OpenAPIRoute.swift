import HTTPServer

/// `GET /openapi.yaml`: the OpenAPI document of docs/api.md, compiled into the binary by
/// scripts/embed-openapi so it is served with no files beside it. Its bytes are built
/// once: serving it costs no more than a health check.
enum OpenAPIRoute {
    private static let bytes = Array(document.utf8)
    private static let headers = [
        HTTPField(name: "Content-Type", value: "application/yaml"),
        HTTPField(name: "Cache-Control", value: "public, max-age=300"),
    ]

    static func bind(_ routes: inout Routes) {
        routes.plain("GET", "/openapi.yaml") { _ in Response(status: 200, headers: headers, body: bytes) }
    }
}
