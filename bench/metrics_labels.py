"""What strangers can make /metrics hold (bench/run): COUNT pipelined requests with
distinct method tokens and COUNT with distinct unmatched paths, then the server's growth
in resident memory and the size of the next scrape. Every label must come from a fixed
set, so neither grows with what clients send. Talks to 127.0.0.1 only; bounded."""
import argparse, socket, time, urllib.request


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit("no VmRSS")


def pipeline(port, requests):
    """Sends the requests in batches on one connection and reads every answer (each closes
    nothing: 404 and 405 keep the connection open)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        for start in range(0, len(requests), 500):
            batch = requests[start:start + 500]
            sock.sendall(b"".join(batch))
            answers = 0
            buffer = b""
            deadline = time.monotonic() + 60
            while answers < len(batch) and time.monotonic() < deadline:
                chunk = sock.recv(1 << 16)
                if not chunk:
                    raise SystemExit(f"the server closed after {start + answers} answers")
                buffer += chunk
                answers = buffer.count(b"HTTP/1.1 ")
            if answers < len(batch):
                raise SystemExit(f"only {answers} of {len(batch)} answers within 60 s")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--count", type=int, default=10000)
    args = parser.parse_args()
    url = f"http://127.0.0.1:{args.port}/metrics"
    urllib.request.urlopen(url, timeout=30).read()  # every fixed series exists once
    time.sleep(0.5)
    before = rss_kib(args.pid)
    methods = [f"M{index:05d}X /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode() for index in range(args.count)]
    paths = [f"GET /no/such/path/{index} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode() for index in range(args.count)]
    started = time.monotonic()
    pipeline(args.port, methods)
    pipeline(args.port, paths)
    seconds = time.monotonic() - started
    time.sleep(0.5)
    after = rss_kib(args.pid)
    scrape = urllib.request.urlopen(url, timeout=60).read()
    print(f"requests={2 * args.count}")
    print(f"seconds={seconds:.2f}")
    print(f"growth_mb={(after - before) * 1024 / 1e6:.2f}")
    print(f"scrape_bytes={len(scrape)}")


main()
