import HTTPServer
import LatchkeyCore

/// The small pages a person reaches from an emailed link: no script, no external
/// resource, readable on a 320 px phone with the system's text size, and headers that
/// keep the token in the link out of other sites' hands (`Referrer-Policy`) and the page
/// out of frames and caches.
enum HTMLPage {
    /// A page that only says something: a heading and a paragraph, both escaped.
    static func message(status: Int, title: String, text: String) -> Response {
        response(status: status, title: title, body: "<h1>\(HTMLText.escape(title))</h1>\n<p>\(HTMLText.escape(text))</p>")
    }

    static func response(status: Int, title: String, body: String) -> Response {
        Response(
            status: status,
            headers: [
                HTTPField(name: "Content-Type", value: "text/html; charset=utf-8"),
                HTTPField(name: "Content-Security-Policy",
                          value: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
                HTTPField(name: "Referrer-Policy", value: "no-referrer"),
                HTTPField(name: "Cache-Control", value: "no-store"),
            ],
            body: Array(document(title: title, body: body).utf8)
        )
    }

    private static func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escape(title))</title>
        <style>
        body { font: 100%/1.5 -apple-system, system-ui, sans-serif; margin: 0; padding: 1.5rem 1rem; color: #1a1a1a; background: #fafafa; }
        main { max-width: 26rem; margin: 0 auto; }
        h1 { font-size: 1.5rem; margin: 0 0 1rem; }
        label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
        input { width: 100%; box-sizing: border-box; font-size: 1rem; padding: 0.75rem; border: 1px solid #767676; border-radius: 0.5rem; }
        input:focus, button:focus { outline: 3px solid #1a73e8; outline-offset: 2px; }
        button { margin-top: 1.5rem; width: 100%; font-size: 1rem; padding: 0.85rem; border: 0; border-radius: 0.5rem; background: #1a73e8; color: #fff; font-weight: 600; }
        .error { background: #fdecea; color: #8a1c13; border-radius: 0.5rem; padding: 0.75rem; margin: 0 0 1rem; }
        .hint { color: #555; font-size: 0.9rem; margin: 0.25rem 0 0; }
        </style>
        </head>
        <body>
        <main>
        \(body)
        </main>
        </body>
        </html>
        """
    }
}
