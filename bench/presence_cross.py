#!/usr/bin/env python3
"""Cross-instance presence for bench/run's PostgreSQL part: two latchkeys over one
database. Signs up TARGETS users and one watcher through instance A, opens one presence
stream of the watcher per target on instance B (the measured path: A's commit, PostgreSQL
NOTIFY, B's listener, B's stream) and one per target on A itself (for reference: the same
change delivered by the instance that made it), then changes the targets' status through
A, one change at a time (round robin over the targets, each change flipping its target
between away and online), and times each change from just before its PUT is sent until
its event's bytes are read from each stream (and, for reference, until the PUT's own
answer arrives: the commit). The first WARMUP changes are not counted. One thread, one epoll loop over every stream; every wait is bounded (5 s per change).
Prints key=value lines.

  presence_cross.py --port-a A --port-b B [--changes 500] [--targets 10] [--warmup 10]
"""
import argparse
import http.client
import json
import os
import select
import socket
import time


def post_json(port, path, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    if response.status not in (200, 201):
        raise SystemExit(f"{path}: {response.status} {answer}")
    return answer


def signup(port, name):
    answer = post_json(port, "/v1/auth/signup", {
        "email": f"{name}@example.com", "password": "correct horse battery staple", "displayName": name})
    return answer["user"]["id"], answer["accessToken"]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def complete_reply(data):
    """The status line of one HTTP/1.1 answer with a Content-Length body once all of it is
    in data, else None."""
    if b"\r\n\r\n" not in data:
        return None
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    return head.split(b"\r\n", 1)[0] if len(body) >= length else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-a", type=int, required=True)
    parser.add_argument("--port-b", type=int, required=True)
    parser.add_argument("--changes", type=int, default=500)
    parser.add_argument("--targets", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=10)
    args = parser.parse_args()
    tag = os.urandom(3).hex()

    targets = [signup(args.port_a, f"cross_{tag}_{index}") for index in range(args.targets)]
    signup(args.port_a, f"crosswatch_{tag}")
    # A session of its own for every stream: the server keeps at most 8 streams a session
    # and closes the oldest for a ninth (20 streams of one session left 12 closed).
    login = {"email": f"crosswatch_{tag}@example.com", "password": "correct horse battery staple"}
    watcher_tokens = [post_json(args.port_a, "/v1/auth/login", login)["accessToken"] for _ in range(2 * args.targets)]

    poller = select.epoll()
    streams = {}  # fd -> (socket, target index, "remote" or "local")
    for where, port in (("remote", args.port_b), ("local", args.port_a)):
        for target in range(args.targets):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(f"GET /v1/presence/stream?userIds={targets[target][0]} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         f"Authorization: Bearer {watcher_tokens[len(streams)]}\r\n\r\n".encode())
            sock.setblocking(False)
            streams[sock.fileno()] = (sock, target, where)
            poller.register(sock.fileno(), select.EPOLLIN)

    # Every stream answered with its head and snapshot before anything is timed.
    answered = set()
    deadline = time.monotonic() + 30
    while len(answered) < len(streams) and time.monotonic() < deadline:
        for fd, _ in poller.poll(0.1):
            try:
                data = streams[fd][0].recv(65536)
            except OSError:
                continue
            if not data:
                raise SystemExit(f"a {streams[fd][2]} presence stream was closed: is the watcher's token accepted there?")
            if data.startswith(b"HTTP/1.1 ") and not data.startswith(b"HTTP/1.1 200"):
                raise SystemExit(f"a {streams[fd][2]} presence stream answered {data[:200]!r}")
            answered.add(fd)
    if len(answered) < len(streams):
        raise SystemExit(f"only {len(answered)} of {len(streams)} presence streams answered within 30 s")
    time.sleep(0.5)
    for fd, _ in poller.poll(0):
        try:
            streams[fd][0].recv(65536)
        except OSError:
            pass

    putter = socket.create_connection(("127.0.0.1", args.port_a), timeout=10)
    putter.setblocking(False)
    poller.register(putter.fileno(), select.EPOLLIN)
    watchers_of = {}
    for fd, (_, target, _) in streams.items():
        watchers_of.setdefault(target, []).append(fd)
    latencies = {"remote": [], "local": []}
    missed = {"remote": 0, "local": 0}
    put_ms = []
    total = args.warmup + args.changes
    for change in range(total):
        counted = change >= args.warmup
        target = change % args.targets
        status = "away" if (change // args.targets) % 2 == 0 else "online"
        marker = f'"status":"{status}"'.encode()
        body = json.dumps({"status": status})
        request = (f"PUT /v1/presence HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {targets[target][1]}\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}").encode()
        waiting = set(watchers_of[target])
        reply, status_line = b"", None
        sent = time.monotonic()
        putter.sendall(request)
        deadline = sent + 5
        while (waiting or status_line is None) and time.monotonic() < deadline:
            for fd, _ in poller.poll(0.05):
                if fd == putter.fileno():
                    try:
                        chunk = putter.recv(65536)
                    except OSError:
                        continue
                    if not chunk:
                        raise SystemExit("PUT /v1/presence: connection closed")
                    reply += chunk
                    status_line = complete_reply(reply)
                    if status_line is not None and counted:
                        put_ms.append((time.monotonic() - sent) * 1000)
                    continue
                try:
                    data = streams[fd][0].recv(65536)
                except OSError:
                    continue
                if fd in waiting and marker in data:
                    if counted:
                        latencies[streams[fd][2]].append((time.monotonic() - sent) * 1000)
                    waiting.discard(fd)
        if counted:
            for fd in waiting:
                missed[streams[fd][2]] += 1
        if status_line is None:
            raise SystemExit(f"PUT /v1/presence: no answer within 5 s ({reply[:200]!r})")
        if not status_line.startswith(b"HTTP/1.1 200"):
            raise SystemExit(f"PUT /v1/presence: {status_line!r}")

    print(f"targets={args.targets}")
    print(f"changes={args.changes}")
    print(f"warmup={args.warmup}")
    for where in ("remote", "local"):
        values = latencies[where]
        print(f"{where}_deliveries={len(values)}")
        print(f"{where}_missed={missed[where]}")
        if values:
            print(f"{where}_p50_ms={percentile(values, 0.50):.2f}")
            print(f"{where}_p99_ms={percentile(values, 0.99):.2f}")
            print(f"{where}_max_ms={max(values):.2f}")
    if put_ms:
        print(f"put_p50_ms={percentile(put_ms, 0.50):.2f}")
        print(f"put_p99_ms={percentile(put_ms, 0.99):.2f}")
    putter.close()
    for sock, _, _ in streams.values():
        sock.close()


if __name__ == "__main__":
    main()
