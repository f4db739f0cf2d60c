"""latchkey import firebase of a generated Auth export (100,000 accounts, then 20,000 to
show that memory does not grow with the file): how long each takes and the import
process's peak resident memory (ru_maxrss from wait4: the kernel's VmHWM of the process
when it ended). Then a server over the 100,000 imported accounts, and the first login of
imported accounts (Firebase's scrypt checked, PBKDF2 stored in its place) against one
scrypt verification plus one PBKDF2 at the server's count, each timed alone in this
process through hashlib, which calls the same OpenSSL functions Latchkey does
(EVP_PBE_scrypt, PKCS5_PBKDF2_HMAC).

Every account carries the hash of github.com/firebase/scrypt's README example (the import
does not check hashes, and each first login is of another account). Prints key=value
lines for bench/run. Loopback only; every loop is bounded by a count or a deadline.

    python3 bench/firebase_import.py --binary .build/release/latchkey --work /tmp/x"""
import argparse
import base64
import hashlib
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time

SIGNER_KEY = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="
SALT_SEPARATOR = "Bw=="
SALT = "42xEC+ixf3L2lw=="
HASH = "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="
PASSWORD = "user1password"
PARAMETERS = ["--hash-key", SIGNER_KEY, "--salt-separator", SALT_SEPARATOR, "--rounds", "8", "--mem-cost", "14"]


def write_export(path, accounts):
    """An Auth export as firebase auth:export writes it, one account at a time."""
    with open(path, "w") as out:
        out.write('{"users": [\n')
        for i in range(accounts):
            account = {
                "localId": f"bench{i:023d}", "email": f"user{i}@example.com", "emailVerified": i % 2 == 0,
                "passwordHash": HASH, "salt": SALT, "displayName": f"user_{i}",
                "createdAt": str(1508893925000 + i), "lastSignedInAt": str(1508893925000 + i), "disabled": False,
                "providerUserInfo": [{"providerId": "password", "rawId": f"user{i}@example.com", "email": f"user{i}@example.com"}],
            }
            out.write(("," if i else "") + json.dumps(account) + "\n")
        out.write('], "kind": "identitytoolkit#DownloadAccountResponse"}\n')
    return os.path.getsize(path)


def run_import(binary, export, data, log, deadline_seconds=900):
    """Runs the import on a fresh database; returns (seconds, peak KiB, exit status, summary)."""
    os.makedirs(data, exist_ok=True)
    subprocess.run([binary, "migrate", "--data-dir", data], check=True, capture_output=True, timeout=60)
    summary_path = os.path.join(data, "summary.json")
    with open(summary_path, "w") as out, open(log, "w") as err:
        started = time.monotonic()
        process = subprocess.Popen([binary, "import", "firebase", "--users", export, *PARAMETERS, "--json", "--data-dir", data],
                                   stdout=out, stderr=err)
        # Reaped here rather than by Popen, for its resource usage; polled, so it is bounded.
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > deadline_seconds:
                process.kill()
                raise SystemExit(f"the import of {export} took longer than {deadline_seconds} s")
            time.sleep(0.02)
        seconds = time.monotonic() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    with open(summary_path) as summary:
        text = summary.read()
    return seconds, usage.ru_maxrss, process.returncode, text


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post(port, path, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    return response.status, response.read()


def timed(work, runs):
    """The median of `runs` timings of `work`, in milliseconds."""
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--accounts", type=int, default=100_000)
    parser.add_argument("--small-accounts", type=int, default=20_000)
    parser.add_argument("--iterations", type=int, default=600_000, help="the server's passwordIterations")
    parser.add_argument("--logins", type=int, default=7)
    arguments = parser.parse_args()

    figures = {}
    for label, accounts in (("large", arguments.accounts), ("small", arguments.small_accounts)):
        export = os.path.join(arguments.work, f"firebase-{accounts}.json")
        size = write_export(export, accounts)
        data = os.path.join(arguments.work, f"import-{label}")
        seconds, peak_kib, status, summary = run_import(arguments.binary, export, data, os.path.join(arguments.work, f"import-{label}.log"))
        if status != 0:
            raise SystemExit(f"latchkey import firebase exited {status}; see {data}")
        imported = json.loads(summary)["imported"]
        print(f"{label}_accounts={accounts}")
        print(f"{label}_file_mb={size / 1e6:.1f}")
        print(f"{label}_imported={imported}")
        print(f"{label}_seconds={seconds:.2f}")
        print(f"{label}_peak_mb={peak_kib * 1024 / 1e6:.1f}", flush=True)
        figures[label] = (peak_kib, data)
        os.remove(export)
    large_peak, small_peak = figures["large"][0], figures["small"][0]
    print(f"peak_growth_mb={(large_peak - small_peak) * 1024 / 1e6:.1f}")
    print(f"peak_growth_ratio={large_peak / small_peak:.3f}")

    # The references, alone: what a first login cannot do in less.
    salt = base64.b64decode(SALT) + base64.b64decode(SALT_SEPARATOR)
    scrypt_ms = timed(lambda: hashlib.scrypt(PASSWORD.encode(), salt=salt, n=2 ** 14, r=8, p=1, dklen=64, maxmem=64 * 2 ** 20), 9)
    pbkdf2_ms = timed(lambda: hashlib.pbkdf2_hmac("sha256", PASSWORD.encode(), os.urandom(16), arguments.iterations, 32), 5)
    print(f"scrypt_ms={scrypt_ms:.1f}")
    print(f"pbkdf2_ms={pbkdf2_ms:.1f}")
    print(f"pbkdf2_iterations={arguments.iterations}")
    print(f"reference_ms={scrypt_ms + pbkdf2_ms:.1f}", flush=True)

    port = free_port()
    data = figures["large"][1]
    log = open(os.path.join(arguments.work, "import-server.log"), "w")
    server = subprocess.Popen([arguments.binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", data,
                               "--password-iterations", str(arguments.iterations), "--rate-limits-enabled", "false"],
                              stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                connection.request("GET", "/readyz")
                if connection.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the import bench server did not start")
            time.sleep(0.1)
        # One unmeasured login first: the server's first request pays for its caches.
        status, body = post(port, "/v1/auth/login", {"email": "user99999@example.com", "password": PASSWORD})
        if status != 200:
            raise SystemExit(f"login of an imported account answered {status}: {body[:200]!r}")
        first, again = [], []
        for i in range(arguments.logins):
            email = f"user{i * 1000}@example.com"
            for samples in (first, again):
                started = time.perf_counter()
                status, body = post(port, "/v1/auth/login", {"email": email, "password": PASSWORD})
                samples.append((time.perf_counter() - started) * 1000)
                if status != 200:
                    raise SystemExit(f"login of {email} answered {status}: {body[:200]!r}")
        first_ms = statistics.median(first)
        print(f"logins={arguments.logins}")
        print(f"first_login_ms={first_ms:.1f}")
        print(f"first_login_max_ms={max(first):.1f}")
        print(f"later_login_ms={statistics.median(again):.1f}")
        print(f"login_ratio={first_ms / (scrypt_ms + pbkdf2_ms):.3f}")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    sys.exit(main())
