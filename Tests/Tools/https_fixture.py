"""An HTTPS server for the HTTPS client's tests, with a certificate the test made: writes
its port to PORT_FILE, then serves until killed. Each path plays one kind of answer:

  /json           200, a small JSON body, Content-Length, Cache-Control: max-age=300
  /chunked        200, the same JSON in three chunks, with a trailer
  /until-close    200, no length: the body ends when the connection closes
  /echo           200, a JSON echo of the method, the request's headers and its body
  /redirect       302 to /json (the client must refuse it)
  /huge           200, a 2 MB body (over the client's 1 MB limit)
  /huge-head      200, 200 headers of 100 bytes
  /stall-head     accepts, then sends nothing for 30 s
  /stall-body     sends the head, half the body, then nothing for 30 s
  /interim        103 Early Hints, then 200
  /bad-status     a status line that is not HTTP/1.x NNN

  https_fixture.py --port-file PORT_FILE --cert CERT --key KEY [--port N]
"""
import argparse
import json
import socket
import socketserver
import ssl
import threading
import time

import tls_serving

BODY = json.dumps({"keys": [{"kid": "one", "kty": "EC"}]}).encode()


def answer(path, method, headers, body):
    """The raw bytes to send for `path`, or None to stall."""
    if path == "/json":
        return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: public, max-age=300\r\n"
                b"Content-Length: %d\r\n\r\n" % len(BODY)) + BODY
    if path == "/chunked":
        parts = [BODY[:5], BODY[5:20], BODY[20:]]
        chunks = b"".join(b"%x;ext=1\r\n%s\r\n" % (len(part), part) for part in parts)
        return b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\nX-Trailer: yes\r\n\r\n"
    if path == "/until-close":
        return b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + BODY
    if path == "/echo":
        echoed = json.dumps({"method": method, "headers": headers, "body": body.decode("latin-1")}).encode()
        return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(echoed) + echoed
    if path == "/redirect":
        return b"HTTP/1.1 302 Found\r\nLocation: /json\r\nContent-Length: 0\r\n\r\n"
    if path == "/huge":
        return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (2 * 1024 * 1024) + b"x" * (2 * 1024 * 1024)
    if path == "/huge-head":
        fields = b"".join(b"X-Field-%03d: %s\r\n" % (index, b"v" * 86) for index in range(200))
        return b"HTTP/1.1 200 OK\r\n" + fields + b"Content-Length: 0\r\n\r\n"
    if path == "/interim":
        return b"HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n" + answer("/json", method, headers, body)
    if path == "/bad-status":
        return b"HTTP/1.1 OK 200\r\nContent-Length: 0\r\n\r\n"
    return b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        connection = self.request
        connection.settimeout(10)
        data = b""
        while b"\r\n\r\n" not in data and len(data) < 65536:
            chunk = connection.recv(4096)
            if not chunk:
                return
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, path, _ = lines[0].split(" ", 2)
        headers = [line.split(":", 1)[0] + ":" + line.split(":", 1)[1].strip() for line in lines[1:]]
        length = next((int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:")), 0)
        while len(rest) < length:
            chunk = connection.recv(4096)
            if not chunk:
                break
            rest += chunk
        if path == "/stall-head":
            time.sleep(30)
            return
        if path == "/stall-body":
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + b"y" * 50)
            time.sleep(30)
            return
        connection.sendall(answer(path, method, headers, rest))
        try:
            connection.unwrap()  # TLS's close_notify: the end of a body framed by the close
        except (OSError, ssl.SSLError):
            pass


class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    tls_serving.add_arguments(parser)
    options = parser.parse_args()
    server = Server(("127.0.0.1", options.port), Handler)
    tls_serving.wrap(server, options)
    tls_serving.announce(server, options.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
