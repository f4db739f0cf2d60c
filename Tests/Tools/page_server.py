"""A web page for the browser tests, served from 127.0.0.1 on its own port (the page's
origin is then http://localhost:PORT, not the Latchkey server's), on a daemon thread."""
import http.server
import threading


def serve_page(port, body):
    """Serves `body` (HTML bytes) at every path of 127.0.0.1:`port`; answers the server,
    to shut down."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", port), Page)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd
