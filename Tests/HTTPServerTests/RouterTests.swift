import Testing
@testable import HTTPServer

@Suite struct RouterTests {
    static let router: Router = {
        var router = Router()
        let ok: @Sendable (Request) throws -> Response = { _ in Response(status: 200) }
        router.add("GET", "/hello", inline: ok)
        router.add("POST", "/echo", bodyLimit: 1024, inline: ok)
        router.add("GET", "/users/me", inline: ok)
        router.add("GET", "/users/{id}", inline: ok)
        router.add("DELETE", "/users/{id}", inline: ok)
        router.add("GET", "/users/{id}/posts/{post}", inline: ok)
        router.add("GET", "/files", inline: ok)
        router.add("HEAD", "/files", inline: ok)
        router.add("GET", "/", inline: ok)
        return router
    }()

    /// `METHOD pattern {parameters}` for a match, so results compare as plain text.
    static func describe(_ match: RouteMatch) -> String {
        switch match {
        case .found(let route, let parameters):
            let bound = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            return "\(route.method) \(route.pattern) {\(bound)}"
        case .methodNotAllowed(let allowed):
            return "405 " + allowed.joined(separator: ", ")
        case .options(let allowed):
            return "204 " + allowed.joined(separator: ", ")
        case .notFound:
            return "404"
        }
    }

    @Suite struct Matching {
        @Test(arguments: [
            ("GET", "/hello", "GET /hello {}"),
            ("GET", "/", "GET / {}"),
            ("POST", "/echo", "POST /echo {}"),
            ("GET", "/users/42", "GET /users/{id} {id=42}"),
            ("GET", "/users/a%20b", "GET /users/{id} {id=a b}"),
            ("GET", "/users/%E2%9C%93", "GET /users/{id} {id=\u{2713}}"),
            ("DELETE", "/users/42", "DELETE /users/{id} {id=42}"),
            ("GET", "/users/7/posts/x%2Fy", "GET /users/{id}/posts/{post} {id=7,post=x/y}"),
            ("GET", "/users/me", "GET /users/me {}"),
        ])
        func findsTheRouteAndDecodesParameters(method: String, path: String, expected: String) {
            #expect(RouterTests.describe(RouterTests.router.match(method: method, path: path)) == expected)
        }

        @Test(arguments: ["/nope", "/hello/", "/hello/x", "/users", "/users/", "/users/%zz", "/users/%E2", "/users/1/posts", "//"])
        func answersNotFound(path: String) {
            #expect(RouterTests.describe(RouterTests.router.match(method: "GET", path: path)) == "404")
        }
    }

    @Suite struct Methods {
        @Test(arguments: [
            ("POST", "/hello", "405 GET, HEAD, OPTIONS"),
            ("GET", "/echo", "405 POST, OPTIONS"),
            ("PUT", "/users/1", "405 GET, DELETE, HEAD, OPTIONS"),
            ("POST", "/files", "405 GET, HEAD, OPTIONS"),
            // A literal path is its own resource: `/users/{id}`'s DELETE does not take it.
            ("PUT", "/users/me", "405 GET, HEAD, OPTIONS"),
            ("DELETE", "/users/me", "405 GET, HEAD, OPTIONS"),
        ])
        func answersMethodNotAllowedWithTheAllowedMethods(method: String, path: String, expected: String) {
            #expect(RouterTests.describe(RouterTests.router.match(method: method, path: path)) == expected)
        }

        /// A browser's preflight must find the path: OPTIONS answers what it allows.
        @Test(arguments: [
            ("/hello", "204 GET, HEAD, OPTIONS"),
            ("/users/1", "204 GET, DELETE, HEAD, OPTIONS"),
            ("/echo", "204 POST, OPTIONS"),
            ("/users/me", "204 GET, HEAD, OPTIONS"),
        ])
        func optionsAnswersTheAllowedMethodsOfAKnownPath(path: String, expected: String) {
            #expect(RouterTests.describe(RouterTests.router.match(method: "OPTIONS", path: path)) == expected)
            #expect(RouterTests.describe(RouterTests.router.match(method: "OPTIONS", path: "/nope")) == "404")
        }

        @Test(arguments: [
            ("/hello", "GET /hello {}"),
            ("/users/5", "GET /users/{id} {id=5}"),
            ("/files", "HEAD /files {}"),
        ])
        func headFallsBackToGetUnlessItHasItsOwnRoute(path: String, expected: String) {
            #expect(RouterTests.describe(RouterTests.router.match(method: "HEAD", path: path)) == expected)
        }

        @Test func registeringARouteTwiceTraps() async {
            await #expect(processExitsWith: .failure) {
                var router = Router()
                router.add("GET", "/a/{x}", inline: { _ in Response(status: 200) })
                router.add("GET", "/a/{x}", inline: { _ in Response(status: 200) })
            }
        }

        @Test func registeringTheSameShapeUnderAnotherParameterNameTraps() async {
            await #expect(processExitsWith: .failure) {
                var router = Router()
                router.add("GET", "/a/{x}", inline: { _ in Response(status: 200) })
                router.add("GET", "/a/{y}", inline: { _ in Response(status: 200) })
            }
        }
    }

    @Suite struct Targets {
        @Test(arguments: [
            ("/search?q=a+b&x=%2F", "/search", "q=a+b&x=%2F"),
            ("/plain", "/plain", nil),
            ("/empty?", "/empty", ""),
            ("http://example.com/a/b?c=d", "/a/b", "c=d"),
            ("HTTPS://Example.com:8443/a", "/a", nil),
            ("http://example.com", "/", nil),
            ("http://example.com?x=1", "/", "x=1"),
            ("*", "*", nil),
        ] as [(String, String, String?)])
        func splitsPathAndQuery(target: String, path: String, query: String?) {
            let request = Request(head: RequestHead(method: "GET", target: target, version: .http1_1, fields: []), requestID: "r", remoteAddress: "127.0.0.1")
            #expect(request.path == path)
            #expect(request.query == query)
        }

        @Test func decodesQueryParameters() {
            let head = RequestHead(method: "GET", target: "/s?q=a+b%21&flag&empty=&x=%2F&q=second&bad=%zz", version: .http1_1, fields: [])
            let request = Request(head: head, requestID: "r", remoteAddress: "127.0.0.1")
            #expect(request.queryParameter("q") == "a b!")
            #expect(request.queryParameter("flag") == "")
            #expect(request.queryParameter("empty") == "")
            #expect(request.queryParameter("x") == "/")
            #expect(request.queryParameter("bad") == nil)
            #expect(request.queryParameter("missing") == nil)
        }

        @Test func absoluteFormTargetsRouteLikeOriginForm() {
            let path = RequestTarget.split("http://example.com/users/9?full=1").path
            #expect(RouterTests.describe(RouterTests.router.match(method: "GET", path: path)) == "GET /users/{id} {id=9}")
        }
    }
}
