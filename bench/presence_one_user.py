#!/usr/bin/env python3
"""One user's change fanned out to many watchers, for bench/run: signs up one target and
WATCHERS watcher accounts, opens STREAMS presence streams all watching the target (a
session holds at most STREAMS_PER_SESSION streams, so the watchers log in a session for
every that many, spread over the accounts, logins in parallel), then changes the target's
status CHANGES times, one change at a time, and times each change at SAMPLED streams
chosen at random, from just before the PUT is sent to the moment the event's bytes are
read. The other streams are not read while the changes are timed (their events wait in
their sockets, a few KB each); at the end every stream is read to its end and must hold
every change, in order: a stream short of one counts as missed. One thread, one epoll
loop; every wait is bounded. Prints key=value lines.

  presence_one_user.py --port P [--streams 10000] [--changes 20] [--sampled 200] [--watchers 8]
"""
import argparse
import concurrent.futures
import http.client
import json
import os
import random
import re
import resource
import select
import socket
import time

PASSWORD = "correct horse battery staple"
# A session holds at most this many presence streams; a further one closes its oldest.
STREAMS_PER_SESSION = 8


def call_json(port, method, path, body):
    """One JSON call; a 503 (the password-hash queue is full) is retried after a moment,
    at most 100 times."""
    for _ in range(100):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        connection.request(method, path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        connection.close()
        if response.status in (200, 201):
            return answer
        if response.status != 503:
            raise SystemExit(f"{path}: {response.status} {answer}")
        time.sleep(0.2)
    raise SystemExit(f"{path}: 503 a hundred times")


def signup(port, name):
    answer = call_json(port, "POST", "/v1/auth/signup", {
        "email": f"{name}@example.com", "password": PASSWORD, "displayName": name})
    return answer["user"]["id"], answer["accessToken"]


def login(port, name):
    return call_json(port, "POST", "/v1/auth/login", {"email": f"{name}@example.com", "password": PASSWORD})["accessToken"]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def drain(poller, sockets, received, deadline, done=lambda fd: False):
    """Reads whatever the registered sockets hold into received[fd] until every socket
    is done or deadline passes."""
    while time.monotonic() < deadline:
        events = poller.poll(0.05)
        if not events and all(done(fd) for fd in sockets):
            return
        for fd, _ in events:
            try:
                data = sockets[fd].recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                poller.unregister(fd)
                continue
            received[fd] += data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--streams", type=int, default=10000)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--sampled", type=int, default=200)
    parser.add_argument("--watchers", type=int, default=8)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tag = os.urandom(3).hex()
    started = time.monotonic()

    target_id, target_token = signup(args.port, f"fan_target_{tag}")
    names = [f"fan_watcher_{tag}_{index}" for index in range(args.watchers)]
    for name in names:
        signup(args.port, name)
    sessions = -(-args.streams // STREAMS_PER_SESSION)
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        tokens = list(pool.map(lambda index: login(args.port, names[index % len(names)]), range(sessions)))
    login_seconds = time.monotonic() - started

    poller = select.epoll()
    sockets = {}
    received = {}
    failures = 0
    for index in range(args.streams):
        try:
            sock = socket.create_connection(("127.0.0.1", args.port), timeout=10)
            sock.sendall(f"GET /v1/presence/stream?userIds={target_id} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         f"Authorization: Bearer {tokens[index // STREAMS_PER_SESSION]}\r\n\r\n".encode())
        except OSError:
            failures += 1
            continue
        sock.setblocking(False)
        sockets[sock.fileno()] = sock
        received[sock.fileno()] = b""
        poller.register(sock.fileno(), select.EPOLLIN)
        if index % 500 == 499:  # heads and snapshots read as we go, so no socket fills
            drain(poller, sockets, received, time.monotonic() + 0.01)
    # Every stream answered with its head and the target's snapshot before anything is timed.
    snapshot = f'"userId":"{target_id}"'.encode()
    drain(poller, sockets, received, time.monotonic() + 60, lambda fd: snapshot in received[fd])
    answered = sum(1 for fd in sockets if received[fd].startswith(b"HTTP/1.1 200") and snapshot in received[fd])
    setup_seconds = time.monotonic() - started
    for fd in sockets:
        received[fd] = b""
        poller.unregister(fd)

    sampled = random.Random(24).sample(sorted(sockets), min(args.sampled, len(sockets)))
    timing = select.epoll()
    for fd in sampled:
        timing.register(fd, select.EPOLLIN)
    putter = socket.create_connection(("127.0.0.1", args.port), timeout=10)
    latencies = []
    late = 0
    expected = []
    for change in range(args.changes):
        status = "away" if change % 2 == 0 else "online"
        expected.append(status)
        marker = f'"userId":"{target_id}","status":"{status}"'.encode()
        body = json.dumps({"status": status})
        request = (f"PUT /v1/presence HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {target_token}\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}").encode()
        waiting = set(sampled)
        seen = {fd: len(received[fd]) for fd in sampled}  # where this change's bytes begin
        sent = time.monotonic()
        putter.sendall(request)
        deadline = sent + 5
        while waiting and time.monotonic() < deadline:
            for fd, _ in timing.poll(0.05):
                try:
                    data = sockets[fd].recv(65536)
                except OSError:
                    continue
                received[fd] += data
                if fd in waiting and marker in received[fd][seen[fd]:]:
                    latencies.append((time.monotonic() - sent) * 1000)
                    waiting.discard(fd)
        late += len(waiting)
        reply = putter.recv(65536)  # the PUT's own answer (small, one read)
        if not reply.startswith(b"HTTP/1.1 200"):
            raise SystemExit(f"PUT /v1/presence: {reply[:200]!r}")
        time.sleep(0.1)  # the rest of this change's writes end before the next is timed

    # Every stream, read to the end: each must hold every change, in order.
    putter.close()
    for fd in sockets:
        if fd not in sampled:
            poller.register(fd, select.EPOLLIN)
    for fd in sampled:
        timing.unregister(fd)
        poller.register(fd, select.EPOLLIN)
    event = re.compile(rb'"userId":"' + re.escape(target_id.encode()) + rb'","status":"(\w+)"')
    wanted = [status.encode() for status in expected]
    drain(poller, sockets, received, time.monotonic() + 30,
          lambda fd: len(event.findall(received[fd])) >= len(wanted))
    missed = 0
    disordered = 0
    for fd in sockets:
        statuses = event.findall(received[fd])
        if len(statuses) < len(wanted):
            missed += 1
        elif statuses[:len(wanted)] != wanted:
            disordered += 1

    print(f"streams={len(sockets)}")
    print(f"answered={answered}")
    print(f"open_failures={failures}")
    print(f"login_seconds={login_seconds:.1f}")
    print(f"setup_seconds={setup_seconds:.1f}")
    print(f"changes={args.changes}")
    print(f"sampled={len(sampled)}")
    print(f"deliveries={len(latencies)}")
    print(f"late={late}")
    print(f"missed={missed}")
    print(f"disordered={disordered}")
    if latencies:
        print(f"p50_ms={percentile(latencies, 0.50):.2f}")
        print(f"p99_ms={percentile(latencies, 0.99):.2f}")
        print(f"max_ms={max(latencies):.2f}")
    for sock in sockets.values():
        sock.close()


if __name__ == "__main__":
    main()
