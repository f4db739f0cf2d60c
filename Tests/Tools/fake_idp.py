"""A fake Apple and a fake Google for the identity-token tests: one HTTPS server with a
certificate the test made (as https_fixture.py is run), playing two issuers, and a plain
HTTP control port on 127.0.0.1 through which the test mints tokens and changes the
providers. Writes the control port to PORT_FILE, then serves until killed.

HTTPS (the server under test fetches these):
  /apple/auth/keys                                 Apple's JWKS (issuer https://127.0.0.1:P/apple)
  /google/.well-known/openid-configuration         discovery of issuer https://127.0.0.1:P/google
  /google/jwks                                     Google's JWKS (the discovery's jwks_uri)
  POST /apple/auth/token, /apple/auth/revoke       Apple's token and revocation endpoints, as
                                                   fake_apple_endpoints.py plays them, when
                                                   started with its --apple-key ... --record
                                                   (so one appleBaseURL serves all of Apple)

Control (plain HTTP, JSON bodies):
  GET  /info                      {"httpsPort", "apple": issuer, "google": issuer}
  POST /mint                      {"provider", "claims", "alg"?: "ES256"|"RS256"|"HS256"|"none",
                                   "kid"?: a kid to name instead of the key's}
                                  -> {"token"}; claims are used as given (the test sets iss,
                                  aud, exp...); HS256 is signed with the provider's RSA public
                                  key as the secret, the old confusion attack
  POST /rotate                    {"provider"} new keys with new kids; the old ones are gone
  POST /set                       {"provider", "cacheControl"?: text, "failing"?: bool,
                                   "discoveryIssuer"?: text}
  GET  /count?provider=NAME       {"jwks": fetches of the provider's JWKS so far}

  fake_idp.py --port-file PORT_FILE --cert CERT --key KEY [--port N]
      [--apple-key P8 --team-id TEAM --key-id KID --client-ids A,B --record RECORD]
"""
import argparse
import base64
import hashlib
import hmac
import http.server
import json
import socketserver
import threading
import uuid

import jwt
import tls_serving
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from fake_apple_endpoints import AppleEndpoints, AppleState, add_apple_arguments

LOCK = threading.Lock()


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def integer(number, length):
    return b64(number.to_bytes(length, "big"))


class Provider:
    def __init__(self, name):
        self.name = name
        self.cache_control = "public, max-age=3600"
        self.failing = False
        self.discovery_issuer = None
        self.jwks_fetches = 0
        self.rotate()

    def rotate(self):
        self.ec_key = ec.generate_private_key(ec.SECP256R1())
        self.rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.ec_kid = "ec-" + uuid.uuid4().hex[:8]
        self.rsa_kid = "rsa-" + uuid.uuid4().hex[:8]

    def jwks(self):
        ec_numbers = self.ec_key.public_key().public_numbers()
        rsa_numbers = self.rsa_key.public_key().public_numbers()
        return {"keys": [
            {"kty": "EC", "crv": "P-256", "x": integer(ec_numbers.x, 32), "y": integer(ec_numbers.y, 32),
             "kid": self.ec_kid, "alg": "ES256", "use": "sig"},
            {"kty": "RSA", "n": integer(rsa_numbers.n, 256), "e": integer(rsa_numbers.e, 3),
             "kid": self.rsa_kid, "alg": "RS256", "use": "sig"},
        ]}

    def mint(self, claims, alg, kid):
        if alg == "ES256":
            return jwt.encode(claims, self.ec_key, algorithm="ES256", headers={"kid": kid or self.ec_kid})
        if alg == "RS256":
            return jwt.encode(claims, self.rsa_key, algorithm="RS256", headers={"kid": kid or self.rsa_kid})
        header = {"alg": alg, "kid": kid or self.rsa_kid, "typ": "JWT"}
        signing_input = b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())
        if alg == "none":
            return signing_input + "."
        # HS256 keyed with the public key's PEM: a verifier that let the token pick its
        # algorithm would take the public key as an HMAC secret.
        secret = self.rsa_key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        return signing_input + "." + b64(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())


PROVIDERS = {"apple": Provider("apple"), "google": Provider("google")}
STATE = {"https_port": 0, "apple_endpoints": None}


def issuer(name):
    return "https://127.0.0.1:%d/%s" % (STATE["https_port"], name)


def respond(handler, status, body, headers=()):
    data = json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    for name, value in headers:
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(data)


class ProviderHandler(AppleEndpoints, http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def apple_state(self):
        return STATE["apple_endpoints"]

    def do_POST(self):
        if STATE["apple_endpoints"] and self.path.startswith("/apple/auth/"):
            return self.serve_apple_post(self.path[len("/apple"):])
        respond(self, 404, {})

    def do_GET(self):
        with LOCK:
            if self.path == "/apple/auth/keys":
                return self.jwks(PROVIDERS["apple"])
            if self.path == "/google/jwks":
                return self.jwks(PROVIDERS["google"])
            if self.path == "/google/.well-known/openid-configuration":
                google = PROVIDERS["google"]
                return respond(self, 200, {"issuer": google.discovery_issuer or issuer("google"),
                                           "jwks_uri": issuer("google") + "/jwks"})
        respond(self, 404, {})

    def jwks(self, provider):
        provider.jwks_fetches += 1
        if provider.failing:
            return respond(self, 500, {})
        respond(self, 200, provider.jwks(), [("Cache-Control", provider.cache_control)])


class ControlHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        with LOCK:
            if self.path == "/info":
                return respond(self, 200, {"httpsPort": STATE["https_port"], "apple": issuer("apple"), "google": issuer("google")})
            if self.path.startswith("/count?provider="):
                provider = PROVIDERS[self.path.split("=", 1)[1]]
                return respond(self, 200, {"jwks": provider.jwks_fetches})
        respond(self, 404, {})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        with LOCK:
            provider = PROVIDERS[body["provider"]]
            if self.path == "/mint":
                return respond(self, 200, {"token": provider.mint(body["claims"], body.get("alg", "ES256"), body.get("kid"))})
            if self.path == "/rotate":
                provider.rotate()
                return respond(self, 200, {})
            if self.path == "/set":
                provider.cache_control = body.get("cacheControl", provider.cache_control)
                provider.failing = body.get("failing", provider.failing)
                provider.discovery_issuer = body.get("discoveryIssuer", provider.discovery_issuer)
                return respond(self, 200, {})
        respond(self, 404, {})


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    tls_serving.add_arguments(parser)
    add_apple_arguments(parser, required=False)
    options = parser.parse_args()
    providers = Server(("127.0.0.1", 0), ProviderHandler)
    tls_serving.wrap(providers, options)
    STATE["https_port"] = providers.server_address[1]
    if options.apple_key:
        options.client_ids = set(options.client_ids.split(","))
        STATE["apple_endpoints"] = AppleState(options, issuer("apple"))
    threading.Thread(target=providers.serve_forever, daemon=True).start()
    control = Server(("127.0.0.1", options.port), ControlHandler)
    tls_serving.announce(control, options.port_file)
    control.serve_forever()


if __name__ == "__main__":
    main()
