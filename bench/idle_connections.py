#!/usr/bin/env python3
"""Holds many idle keep-alive connections open to a server and measures what they cost.

Used by bench/run. Opens COUNT connections to 127.0.0.1:PORT; each sends one complete
keep-alive `GET PATH`, reads the whole response and then stays idle. With all of them
open it reads the server's resident memory (VmRSS of --pid) and times PROBES new
clients, one after another, from connect to the last byte of a `GET PATH` response.
Prints `key=value` lines for bench/run to parse, then closes everything and exits.

Everything is bounded: connecting stops at --deadline seconds, each probe has a timeout,
and only loopback addresses are accepted.
"""

import argparse
import asyncio
import ipaddress
import os
import resource
import socket
import statistics
import sys
import time

from proc_status import rss_kib, status_value

OPEN_CONCURRENCY = 256  # connects in flight at once, so the listen backlog never overflows


def raise_fd_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        sys.exit(f"RLIMIT_NOFILE hard limit {hard} is below the {needed} descriptors needed")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def request_bytes(host, port, path):
    return f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUser-Agent: latchkey-bench\r\n\r\n".encode()


def content_length(head):
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value.strip())
    return 0


async def open_idle(host, port, request, limiter, connections, failures):
    async with limiter:
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(request)
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            await asyncio.wait_for(reader.readexactly(content_length(head)), 10)
            if not head.startswith(b"HTTP/1.1 200"):
                failures.append(head.split(b"\r\n", 1)[0].decode(errors="replace"))
            connections.append((reader, writer))
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError) as error:
            failures.append(type(error).__name__ + (f" {error.errno}" if isinstance(error, OSError) else ""))


def probe_once(host, port, request, timeout):
    """Milliseconds from connect to the end of the response of one new client."""
    start = time.perf_counter()
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed before the response head")
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = content_length(head)
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed before the end of the body")
            body += chunk
    elapsed = (time.perf_counter() - start) * 1000
    if not head.startswith(b"HTTP/1.1 200"):
        raise ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace"))
    return elapsed


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--path", default="/healthz")
    parser.add_argument("--pid", type=int, required=True, help="server process whose VmRSS is read")
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--probes", type=int, default=20)
    parser.add_argument("--deadline", type=float, default=40.0, help="seconds allowed for opening the connections")
    args = parser.parse_args()
    if not ipaddress.ip_address(args.host).is_loopback:
        sys.exit("only loopback addresses are benchmarked")
    raise_fd_limit(args.count + 64)

    request = request_bytes(args.host, args.port, args.path)
    connections, failures = [], []
    limiter = asyncio.Semaphore(OPEN_CONCURRENCY)
    started = time.monotonic()
    tasks = [asyncio.create_task(open_idle(args.host, args.port, request, limiter, connections, failures))
             for _ in range(args.count)]
    done, pending = await asyncio.wait(tasks, timeout=args.deadline)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    print(f"opened={len(connections)}")
    print(f"open_failures={len(failures) + len(pending)}")
    if failures:
        print(f"first_failure={failures[0]}")
    print(f"open_seconds={time.monotonic() - started:.2f}")

    await asyncio.sleep(1.0)  # let the server settle after the burst before reading memory
    print(f"rss_kib={rss_kib(args.pid)}")
    print(f"server_fds={len(os.listdir(f'/proc/{args.pid}/fd'))}")
    print(f"server_threads={status_value(args.pid, 'Threads')}")

    timings, probe_errors = [], []
    for _ in range(args.probes):
        try:
            timings.append(probe_once(args.host, args.port, request, timeout=5.0))
        except (OSError, ConnectionError) as error:
            probe_errors.append(str(error) or type(error).__name__)
    if timings:
        print(f"probe_median_ms={statistics.median(timings):.3f}")
        print(f"probe_max_ms={max(timings):.3f}")
    print(f"probe_ok={len(timings)}")
    print(f"probe_errors={len(probe_errors)}")
    if probe_errors:
        print(f"first_probe_error={probe_errors[0]}")

    await asyncio.sleep(0.2)  # deliver any close the server sent meanwhile
    closed = sum(1 for reader, _ in connections if reader.at_eof() or reader.exception() is not None)
    print(f"closed_by_server={closed}")
    print(f"held_seconds={time.monotonic() - started:.2f}")
    for _, writer in connections:
        writer.close()


if __name__ == "__main__":
    asyncio.run(main())
