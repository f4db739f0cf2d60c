"""A fake of Apple's token and revocation endpoints (Sign in with Apple's server side),
over HTTPS with a certificate the test made: writes its port to PORT_FILE, then serves
until killed. It checks each request's client secret as Apple does, with PyJWT against
the public key of the test's .p8 (ES256, `kid` the key id, `iss` the team id, `aud` this
server's base URL, `sub` the client id, at most six months of life), and appends every
exchange and revocation it accepted, as one JSON line, to RECORD for the test to read.

  POST /auth/token   grant_type=authorization_code, code, client_id, client_secret
                     200 {"access_token", "token_type", "expires_in", "refresh_token",
                     "id_token"}: the refresh token is "rt." followed by the code, the
                     id_token's sub the code up to its first "~" (all of it without one,
                     its signature a placeholder); a code
                     used twice is 400 invalid_grant. Codes that play a misbehaving Apple:
                     "no-token" (200 without refresh_token), "odd-error" (400 with an
                     error code that is not one), "slow" (nothing for 30 s).
  POST /auth/revoke  token, token_type_hint, client_id, client_secret: 200, empty

A client secret that does not check out is 400 invalid_client, as at Apple.

  fake_apple_endpoints.py --port-file PORT_FILE --cert CERT --key KEY --apple-key P8
      --team-id TEAM --key-id KID --client-ids A,B --record RECORD [--port N]
"""
import argparse
import base64
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
import tls_serving
from cryptography.hazmat.primitives.serialization import load_pem_private_key

SIX_MONTHS = 15777000


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class AppleState:
    """What the endpoints check against and where they record: the options, the public key
    of the test's .p8, and the audience a client secret must name (the base URL)."""

    def __init__(self, options, audience):
        self.options = options
        self.audience = audience
        with open(options.apple_key, "rb") as key:
            self.public_key = load_pem_private_key(key.read(), password=None).public_key()


class AppleEndpoints:
    """The two endpoints, for a BaseHTTPRequestHandler whose `apple_state()` gives an
    AppleState. fake_idp.py mounts them under its Apple issuer, so one base URL serves
    Apple's keys, token and revocation endpoints, as appleid.apple.com does."""

    spent_codes = set()
    lock = threading.Lock()

    def answer(self, status, body=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def client_secret_refusal(self, form):
        """None when the form's client secret is one Apple would accept, else why not."""
        state = self.apple_state()
        options = state.options
        client_id = form.get("client_id", "")
        if client_id not in options.client_ids:
            return "unknown client_id"
        secret = form.get("client_secret", "")
        try:
            header = jwt.get_unverified_header(secret)
            claims = jwt.decode(secret, state.public_key, algorithms=["ES256"], audience=state.audience,
                                issuer=options.team_id, options={"require": ["iss", "iat", "exp", "aud", "sub"]})
        except jwt.PyJWTError as error:
            return "client secret: %s" % error
        if header.get("kid") != options.key_id:
            return "kid %r is not the key id" % header.get("kid")
        if claims["sub"] != client_id:
            return "sub is not the client id"
        if claims["exp"] - claims["iat"] > SIX_MONTHS:
            return "lives longer than six months"
        return None

    def record(self, entry):
        with AppleEndpoints.lock, open(self.apple_state().options.record, "a") as record:
            record.write(json.dumps(entry) + "\n")

    def serve_apple_post(self, path):
        """Answers a POST to `path` (relative to the base URL)."""
        length = int(self.headers.get("Content-Length", "0"))
        if length > 65536:
            return self.answer(413)
        form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode("ascii"), keep_blank_values=True))
        if self.headers.get("Content-Type") != "application/x-www-form-urlencoded":
            return self.answer(400, {"error": "invalid_request"})
        refusal = self.client_secret_refusal(form)
        if refusal:
            self.record({"kind": "refused", "path": path, "why": refusal})
            return self.answer(400, {"error": "invalid_client"})
        if path == "/auth/token":
            code = form.get("code", "")
            if form.get("grant_type") != "authorization_code" or not code:
                return self.answer(400, {"error": "invalid_request"})
            if code == "slow":
                time.sleep(30)
                return
            if code == "no-token":
                return self.answer(200, {"access_token": "at", "token_type": "Bearer", "expires_in": 3600})
            if code == "odd-error":
                return self.answer(400, {"error": "<b>not a code</b>"})
            with AppleEndpoints.lock:
                if code in AppleEndpoints.spent_codes:
                    return self.answer(400, {"error": "invalid_grant"})
                AppleEndpoints.spent_codes.add(code)
            refresh_token = "rt." + code
            subject = code.split("~", 1)[0]
            self.record({"kind": "exchange", "client_id": form["client_id"], "code": code, "refresh_token": refresh_token})
            id_token = b64(b'{"alg":"ES256"}') + "." + b64(json.dumps({
                "iss": self.apple_state().audience, "aud": form["client_id"], "sub": subject,
                "iat": int(time.time()), "exp": int(time.time()) + 600}).encode()) + ".c2ln"
            return self.answer(200, {"access_token": "at." + code, "token_type": "Bearer", "expires_in": 3600,
                                     "refresh_token": refresh_token, "id_token": id_token})
        if path == "/auth/revoke":
            self.record({"kind": "revoke", "client_id": form["client_id"], "token": form.get("token"),
                         "token_type_hint": form.get("token_type_hint")})
            return self.answer(200)
        return self.answer(404)


def add_apple_arguments(parser, required):
    parser.add_argument("--apple-key", required=required)
    parser.add_argument("--team-id", required=required)
    parser.add_argument("--key-id", required=required)
    parser.add_argument("--client-ids", required=required)
    parser.add_argument("--record", required=required)


class Handler(AppleEndpoints, BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def apple_state(self):
        return self.server.apple

    def do_POST(self):
        self.serve_apple_post(self.path)


def main():
    parser = argparse.ArgumentParser()
    tls_serving.add_arguments(parser)
    add_apple_arguments(parser, required=True)
    options = parser.parse_args()
    options.client_ids = set(options.client_ids.split(","))
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    server.apple = AppleState(options, "https://127.0.0.1:%d" % server.server_address[1])
    tls_serving.wrap(server, options)
    tls_serving.announce(server, options.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
