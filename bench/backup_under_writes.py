"""latchkey backup of a database of 100,000 users while the server takes about 1,000
durable writes per second (PUT /v1/presence from 20 paced clients): how long the copy
takes, whether every write succeeded while it ran, and whether the copy is whole.

Prints key=value lines for bench/run. Loopback only; every loop is bounded by a count or a
deadline."""
import argparse
import http.client
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time


def free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def populate(binary, data, users):
    subprocess.run([binary, "migrate", "--data-dir", data], check=True, capture_output=True, timeout=60)
    db = sqlite3.connect(os.path.join(data, "latchkey.sqlite"))
    now = int(time.time())
    # Stored as signup stores them; the hash is a placeholder nobody logs in with.
    rows = [(f"{i:032x}", f"user{i}@example.com", f"user{i}@example.com", "pbkdf2-sha256$i=600000$placeholder", f"user_{i}", now, now)
            for i in range(users)]
    with db:
        db.executemany("INSERT INTO users (id, email, email_key, password_hash, display_name, created_at, updated_at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        db.executemany("INSERT INTO display_names (name_key, user_id, claimed_at) VALUES (?, ?, ?)",
                       [(row[4], row[0], now) for row in rows])
        db.executemany("INSERT INTO presence (user_id, status, last_seen) VALUES (?, 'offline', ?)", [(row[0], now) for row in rows])
    db.close()


def request(port, method, path, body=None, token=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    return response.status, response.read()


def writer(port, token, per_second, stop, counts, lock):
    """One keep-alive client sending PUT /v1/presence at a steady pace until `stop`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    interval = 1.0 / per_second
    next_at = time.monotonic()
    statuses = ("online", "away")
    sent = 0
    while not stop.is_set():
        try:
            connection.request("PUT", "/v1/presence", json.dumps({"status": statuses[sent % 2]}), headers)
            response = connection.getresponse()
            response.read()
            ok = response.status == 200
        except (OSError, http.client.HTTPException):
            ok = False
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        sent += 1
        with lock:
            counts["ok" if ok else "errors"] += 1
        next_at += interval
        time.sleep(max(0.0, next_at - time.monotonic()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--writes-per-second", type=int, default=1000)
    arguments = parser.parse_args()

    data = os.path.join(arguments.work, "backup-data")
    os.makedirs(data, exist_ok=True)
    started = time.monotonic()
    populate(arguments.binary, data, arguments.users)
    print(f"populate_seconds={time.monotonic() - started:.1f}", flush=True)

    port = free_port()
    log = open(os.path.join(arguments.work, "backup-server.log"), "w")
    server = subprocess.Popen([arguments.binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", data,
                               "--password-iterations", "1000", "--rate-limits-enabled", "false"], stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if request(port, "GET", "/readyz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the backup bench server did not start")
            time.sleep(0.1)
        clients = 20
        tokens = []
        for index in range(clients):
            status, body = request(port, "POST", "/v1/auth/signup",
                                   {"email": f"writer{index}@example.com", "password": "backup-bench-passphrase", "displayName": f"writer_{index}"})
            if status != 201:
                raise SystemExit(f"signup answered {status}: {body[:200]!r}")
            tokens.append(json.loads(body)["accessToken"])

        stop = threading.Event()
        counts = {"ok": 0, "errors": 0}
        lock = threading.Lock()
        threads = [threading.Thread(target=writer, args=(port, token, arguments.writes_per_second / clients, stop, counts, lock))
                   for token in tokens]
        for thread in threads:
            thread.start()
        time.sleep(2)  # the writes are steady before the backup starts
        with lock:
            before = dict(counts)
        copy = os.path.join(arguments.work, "backup-copy.sqlite")
        began = time.monotonic()
        result = subprocess.run([arguments.binary, "backup", copy, "--data-dir", data], capture_output=True, text=True, timeout=300)
        backup_seconds = time.monotonic() - began
        time.sleep(1)
        with lock:
            during = {key: counts[key] - before[key] for key in counts}
        stop.set()
        for thread in threads:
            thread.join(timeout=35)
        window = backup_seconds + 1

        print(f"backup_status={result.returncode}")
        if result.returncode != 0:
            print(f"backup_error={result.stderr.strip()[:300]}")
        print(f"backup_seconds={backup_seconds:.2f}")
        print(f"writes_per_second={during['ok'] / window:.0f}")
        print(f"write_errors={counts['errors']}")
        print(f"writes_total={counts['ok'] + counts['errors']}")
        copied = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        integrity = copied.execute("PRAGMA integrity_check").fetchone()[0]
        foreign = len(copied.execute("PRAGMA foreign_key_check").fetchall())
        users = copied.execute("SELECT count(*) FROM users").fetchone()[0]
        names = copied.execute("SELECT count(*) FROM display_names").fetchone()[0]
        copied.close()
        print(f"backup_integrity={integrity}")
        print(f"backup_foreign_key_problems={foreign}")
        print(f"backup_users={users}")
        print(f"backup_display_names={names}")
        print(f"backup_mb={os.path.getsize(copy) / 1e6:.1f}")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    sys.exit(main())
