#!/usr/bin/env python3
"""Concurrent picture uploads for bench/run: N clients PUT the same large picture at once,
each sending it in 64 KiB pieces with a short pause between them (a phone on a fast link),
while the server's VmRSS is sampled every 10 ms. Prints key=value lines: the RSS before,
the peak while the uploads ran, the growth, and how many uploads were answered 200.

  uploads.py --port P --pid PID --token T --picture FILE [--clients 16] [--pause-ms 5]
"""
import argparse
import http.client
import threading
import time

from proc_status import rss_kib


def upload(port, token, data, pause, statuses):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.putrequest("PUT", "/v1/users/me/photo")
        connection.putheader("Authorization", f"Bearer {token}")
        connection.putheader("Content-Type", "image/png")
        connection.putheader("Content-Length", str(len(data)))
        connection.endheaders()
        for start in range(0, len(data), 65536):
            connection.send(data[start:start + 65536])
            time.sleep(pause)
        response = connection.getresponse()
        response.read()
        statuses.append(response.status)
    except OSError as error:
        statuses.append(str(error))
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--picture", required=True)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--pause-ms", type=float, default=5)
    args = parser.parse_args()
    data = open(args.picture, "rb").read()
    before = rss_kib(args.pid)
    peak = before
    statuses = []
    threads = [threading.Thread(target=upload, args=(args.port, args.token, data, args.pause_ms / 1000, statuses))
               for _ in range(args.clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads) and time.monotonic() - started < 120:
        peak = max(peak, rss_kib(args.pid))
        time.sleep(0.01)
    for thread in threads:
        thread.join(timeout=1)
    print(f"bytes={len(data)}")
    print(f"clients={args.clients}")
    print(f"seconds={time.monotonic() - started:.2f}")
    print(f"rss_before_mb={before * 1024 / 1e6:.1f}")
    print(f"rss_peak_mb={peak * 1024 / 1e6:.1f}")
    print(f"growth_mb={(peak - before) * 1024 / 1e6:.1f}")
    print(f"ok={sum(1 for status in statuses if status == 200)}")
    print(f"failures={[status for status in statuses if status != 200]}")


if __name__ == "__main__":
    main()
