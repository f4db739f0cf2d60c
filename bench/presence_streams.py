#!/usr/bin/env python3
"""Presence streams for bench/run: signs up TARGETS users and one watcher, opens STREAMS
presence streams of the watcher (each watching one target, round robin; the server keeps at
most STREAMS_PER_SESSION streams a session, so the watcher logs in a session for every
that many), reads latchkey's
VmRSS with all of them open, then changes the targets' status CHANGES times, one change
at a time, and times how long each event takes to reach every stream watching that
target (from just before the PUT is sent to the moment its bytes are read). One thread,
one epoll loop over every socket, so no event waits behind a blocked read. Prints
key=value lines.

  presence_streams.py --port P --pid PID [--streams 10000] [--targets 20] [--changes 100]
"""
import argparse
import concurrent.futures
import http.client
import json
import os
import select
import socket
import time

from proc_status import rss_kib


def post_json(port, path, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    if response.status not in (200, 201):
        raise SystemExit(f"{path}: {response.status} {answer}")
    return answer


PASSWORD = "correct horse battery staple"
# A session holds at most this many presence streams; a further one closes its oldest.
STREAMS_PER_SESSION = 8


def signup(port, name):
    answer = post_json(port, "/v1/auth/signup", {
        "email": f"{name}@example.com", "password": PASSWORD, "displayName": name})
    return answer["user"]["id"], answer["accessToken"]


def sessions(port, name, count):
    """COUNT access tokens of NAME's account, each of a session of its own (logins in
    parallel: each costs a password hash on the server's hashing threads)."""
    body = {"email": f"{name}@example.com", "password": PASSWORD}
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        return list(pool.map(lambda _: post_json(port, "/v1/auth/login", body)["accessToken"], range(count)))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--streams", type=int, default=10000)
    parser.add_argument("--targets", type=int, default=20)
    parser.add_argument("--changes", type=int, default=100)
    args = parser.parse_args()
    tag = os.urandom(3).hex()

    targets = [signup(args.port, f"target_{tag}_{index}") for index in range(args.targets)]
    signup(args.port, f"watcher_{tag}")
    watcher_tokens = sessions(args.port, f"watcher_{tag}", -(-args.streams // STREAMS_PER_SESSION))
    before = rss_kib(args.pid)

    poller = select.epoll()
    streams = {}  # fd -> (socket, target index)
    failures = 0
    started = time.monotonic()
    for index in range(args.streams):
        target = index % args.targets
        try:
            sock = socket.create_connection(("127.0.0.1", args.port), timeout=10)
            sock.sendall(f"GET /v1/presence/stream?userIds={targets[target][0]} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         f"Authorization: Bearer {watcher_tokens[index // STREAMS_PER_SESSION]}\r\n\r\n".encode())
        except OSError:
            failures += 1
            continue
        sock.setblocking(False)
        streams[sock.fileno()] = (sock, target)
        poller.register(sock.fileno(), select.EPOLLIN)
        if index % 500 == 499:  # drain heads and snapshots as we go
            for fd, _ in poller.poll(0):
                try:
                    streams[fd][0].recv(65536)
                except OSError:
                    pass
    opened_seconds = time.monotonic() - started

    # Every stream answered with its head and snapshot before anything is timed.
    answered = set()
    deadline = time.monotonic() + 60
    while len(answered) < len(streams) and time.monotonic() < deadline:
        for fd, _ in poller.poll(0.1):
            try:
                if streams[fd][0].recv(65536):
                    answered.add(fd)
            except OSError:
                pass
    time.sleep(1)
    for fd, _ in poller.poll(0):
        try:
            streams[fd][0].recv(65536)
        except OSError:
            pass
    with_streams = rss_kib(args.pid)

    putter = socket.create_connection(("127.0.0.1", args.port), timeout=10)
    watchers_of = {}
    for fd, (_, target) in streams.items():
        watchers_of.setdefault(target, []).append(fd)
    latencies = []
    missed = 0
    for change in range(args.changes):
        target = change % args.targets
        status = "away" if (change // args.targets) % 2 == 0 else "online"
        marker = f'"status":"{status}"'.encode()
        body = json.dumps({"status": status})
        request = (f"PUT /v1/presence HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {targets[target][1]}\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}").encode()
        waiting = set(watchers_of.get(target, []))
        sent = time.monotonic()
        putter.sendall(request)
        deadline = sent + 5
        while waiting and time.monotonic() < deadline:
            for fd, _ in poller.poll(0.05):
                try:
                    data = streams[fd][0].recv(65536)
                except OSError:
                    continue
                if fd in waiting and marker in data:
                    latencies.append((time.monotonic() - sent) * 1000)
                    waiting.discard(fd)
        missed += len(waiting)
        putter.settimeout(10)
        reply = putter.recv(65536)  # the PUT's own answer (small, one read)
        if not reply.startswith(b"HTTP/1.1 200"):
            raise SystemExit(f"PUT /v1/presence: {reply[:200]!r}")

    print(f"streams={len(streams)}")
    print(f"answered={len(answered)}")
    print(f"open_failures={failures}")
    print(f"open_seconds={opened_seconds:.1f}")
    print(f"rss_before_mb={before * 1024 / 1e6:.1f}")
    print(f"rss_streams_mb={with_streams * 1024 / 1e6:.1f}")
    print(f"changes={args.changes}")
    print(f"deliveries={len(latencies)}")
    print(f"missed={missed}")
    if latencies:
        print(f"p50_ms={percentile(latencies, 0.50):.2f}")
        print(f"p99_ms={percentile(latencies, 0.99):.2f}")
        print(f"max_ms={max(latencies):.2f}")
    for sock, _ in streams.values():
        sock.close()


if __name__ == "__main__":
    main()
