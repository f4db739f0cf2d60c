#!/usr/bin/env python3
"""Passkey sign-ins, for bench/run: signs up ACCOUNTS accounts, registers a passkey for
each (a P-256 key of this script's own, `none` attestation), then signs in with them as
an app does, two round trips each (POST /v1/auth/passkeys/login/options, then the
assertion to POST /v1/auth/passkeys/login), over keep-alive connections:

  --connections 1    one sign-in at a time for --seconds: prints the median and p99 time
                     of a whole sign-in (both round trips and the signing), in ms;
  --connections 64   64 connections, a process each, each signing in again and again for
                     --seconds: prints sign-ins per second.

Every answer must be 200 with a token pair; anything else is counted in `errors` and
printed once. The authenticator's counter stays 0, as synced passkeys report. Everything
talks to 127.0.0.1; every loop is bounded by the clock or a count. Prints key=value lines.

  passkey_signins.py --port P --origin http://127.0.0.1:P [--connections 64] [--seconds 10]
"""
import argparse
import base64
import hashlib
import json
import multiprocessing
import os
import selectors
import socket
import statistics
import time

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

PASSWORD = "correct horse battery staple"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def cbor_head(major, length):
    if length < 24:
        return bytes([major << 5 | length])
    if length < 256:
        return bytes([major << 5 | 24, length])
    return bytes([major << 5 | 25]) + length.to_bytes(2, "big")


def cbor_int(value):
    return cbor_head(0, value) if value >= 0 else cbor_head(1, -1 - value)


def cbor_bytes(value):
    return cbor_head(2, len(value)) + value


def cbor_text(value):
    encoded = value.encode()
    return cbor_head(3, len(encoded)) + encoded


class Connection:
    """One keep-alive HTTP/1.1 connection to the server, blocking, answers read by
    Content-Length."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def request(self, method, path, body=None, token=None):
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(payload)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.sock.sendall(head.encode() + b"\r\n" + payload)
        return self.answer()

    def answer(self):
        for _ in range(10000):
            end = self.buffer.find(b"\r\n\r\n")
            if end >= 0:
                head = self.buffer[:end].decode("latin-1")
                status = int(head.split(" ", 2)[1])
                length = 0
                for line in head.split("\r\n")[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                if len(self.buffer) >= end + 4 + length:
                    body = self.buffer[end + 4:end + 4 + length]
                    self.buffer = self.buffer[end + 4 + length:]
                    return status, (json.loads(body) if body else None)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise SystemExit("the server closed the connection")
            self.buffer += chunk
        raise SystemExit("no whole answer after 10000 reads")


class Authenticator:
    """A passkey of one account: its key, credential id and the relying party's hash."""

    def __init__(self, origin):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.origin = origin
        self.rp_hash = None

    def registration(self, options):
        self.rp_hash = hashlib.sha256(options["rp"]["id"].encode()).digest()
        numbers = self.key.public_key().public_numbers()
        cose = (cbor_head(5, 5) + cbor_int(1) + cbor_int(2) + cbor_int(3) + cbor_int(-7) + cbor_int(-1) + cbor_int(1)
                + cbor_int(-2) + cbor_bytes(numbers.x.to_bytes(32, "big")) + cbor_int(-3) + cbor_bytes(numbers.y.to_bytes(32, "big")))
        auth_data = (self.rp_hash + bytes([0x45]) + (0).to_bytes(4, "big") + bytes(16)
                     + len(self.credential_id).to_bytes(2, "big") + self.credential_id + cose)
        attestation = (cbor_head(5, 3) + cbor_text("fmt") + cbor_text("none") + cbor_text("attStmt") + cbor_head(5, 0)
                       + cbor_text("authData") + cbor_bytes(auth_data))
        client_data = self.client_data("webauthn.create", options["challenge"])
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation)},
                "clientExtensionResults": {}}

    def assertion(self, options):
        client_data = self.client_data("webauthn.get", options["challenge"])
        auth_data = self.rp_hash + bytes([0x05]) + (0).to_bytes(4, "big")
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature)},
                "clientExtensionResults": {}}

    def client_data(self, kind, challenge):
        return json.dumps({"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False},
                          separators=(",", ":")).encode()


def enrol(port, origin, name):
    """Signs up `name` and registers a passkey; answers its authenticator."""
    connection = Connection(port)
    for _ in range(100):  # 503 while the password-hash queue is full: retried
        status, pair = connection.request("POST", "/v1/auth/signup", {
            "email": f"{name}@example.com", "password": PASSWORD, "displayName": name})
        if status != 503:
            break
        time.sleep(0.2)
    if status != 201:
        raise SystemExit(f"signup {name}: {status} {pair}")
    authenticator = Authenticator(origin)
    status, options = connection.request("POST", "/v1/auth/passkeys/register/options", token=pair["accessToken"])
    if status != 200:
        raise SystemExit(f"register options: {status} {options}")
    status, passkey = connection.request("POST", "/v1/auth/passkeys/register",
                                         {"credential": authenticator.registration(options), "name": "bench"}, pair["accessToken"])
    if status != 201:
        raise SystemExit(f"register: {status} {passkey}")
    connection.sock.close()
    return authenticator


def sign_in(connection, authenticator):
    status, options = connection.request("POST", "/v1/auth/passkeys/login/options", {})
    if status != 200:
        return f"options {status} {options}"
    status, answer = connection.request("POST", "/v1/auth/passkeys/login", {"credential": authenticator.assertion(options)})
    if status != 200 or "accessToken" not in answer:
        return f"login {status} {answer}"
    return None


def worker(port, authenticators, seconds, results):
    """Signs in over one connection per authenticator, in turn, until `seconds` pass: one
    request of this process in flight at a time, so a process per connection makes the
    concurrency (threads would share one interpreter lock)."""
    connections = [Connection(port) for _ in authenticators]
    done, errors, first_error = 0, 0, None
    deadline = time.monotonic() + seconds
    index = 0
    while time.monotonic() < deadline:
        error = sign_in(connections[index], authenticators[index])
        if error:
            errors += 1
            first_error = first_error or error
        else:
            done += 1
        index = (index + 1) % len(connections)
    results.put((done, errors, first_error))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--origin", required=True)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    tag = os.urandom(3).hex()
    authenticators = [enrol(args.port, args.origin, f"pk_{tag}_{index}") for index in range(args.connections)]
    if args.connections == 1:
        connection = Connection(args.port)
        sign_in(connection, authenticators[0])  # the connection warmed
        times, errors, first_error = [], 0, None
        deadline = time.monotonic() + args.seconds
        while time.monotonic() < deadline and len(times) < 1_000_000:
            started = time.perf_counter()
            error = sign_in(connection, authenticators[0])
            if error:
                errors += 1
                first_error = first_error or error
            else:
                times.append((time.perf_counter() - started) * 1000)
        times.sort()
        print(f"signins={len(times)}")
        print(f"median_ms={statistics.median(times):.3f}" if times else "median_ms=")
        print(f"p99_ms={times[int(0.99 * (len(times) - 1))]:.3f}" if times else "p99_ms=")
    else:
        results = multiprocessing.Queue()
        processes = [multiprocessing.Process(target=worker, args=(args.port, [authenticator], args.seconds, results))
                     for authenticator in authenticators]
        for process in processes:
            process.start()
        outcomes = [results.get(timeout=args.seconds + 60) for _ in processes]
        for process in processes:
            process.join(timeout=10)
        done = sum(outcome[0] for outcome in outcomes)
        errors = sum(outcome[1] for outcome in outcomes)
        first_error = next((outcome[2] for outcome in outcomes if outcome[2]), None)
        print(f"signins={done}")
        print(f"signins_per_second={done / args.seconds:.0f}")
    print(f"errors={errors}")
    if first_error:
        print(f"first_error={first_error!r}")


if __name__ == "__main__":
    main()
