#!/usr/bin/env python3
"""How much a server's resident memory grows while one client pipelines GET /healthz
as fast as it can and never reads a response. Bounded: stops after --seconds or --limit
bytes sent, whichever comes first; every send is non-blocking, so a server that stops
reading (as it should) only makes this wait out its time. Prints key=value lines."""
import argparse, errno, socket, time

from proc_status import rss_kib


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--limit", type=int, default=1 << 30)
    args = parser.parse_args()

    before = rss_kib(args.pid)
    peak = before
    request = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n" * 1024
    sock = socket.create_connection(("127.0.0.1", args.port))
    sock.setblocking(False)
    sent = 0
    started = time.monotonic()
    next_sample = started
    while sent < args.limit and time.monotonic() - started < args.seconds:
        try:
            sent += sock.send(request)
        except BlockingIOError:
            time.sleep(0.001)
        except OSError as error:
            if error.errno in (errno.ECONNRESET, errno.EPIPE):
                break
            raise
        now = time.monotonic()
        if now >= next_sample:
            peak = max(peak, rss_kib(args.pid))
            next_sample = now + 0.05
    peak = max(peak, rss_kib(args.pid))
    sock.close()
    print(f"sent_bytes={sent}")
    print(f"rss_before_kib={before}")
    print(f"rss_peak_kib={peak}")
    print(f"growth_mb={(peak - before) * 1024 / 1e6:.1f}")


if __name__ == "__main__":
    main()
