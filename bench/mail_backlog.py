"""Mail backlog for bench/run: N accounts each ask for a password reset as fast as one
keep-alive connection allows, and the time until a real SMTP server (the sink folder of
Tests/Tools/mail_sink.py) holds every message is measured. Then it waits a few seconds
more and counts again: every message must arrive exactly once.

  mail_backlog.py --port LATCHKEY_PORT --sink-dir DIR [--count 1000] [--timeout 300]

Prints key=value lines: accounts, requested_s, delivered, distinct, seconds, per_second,
duplicates, missing.
"""
import argparse
import http.client
import json
import os
import time


def post(connection, path, body):
    connection.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    return response.status


def recipients(folder):
    names = sorted(n for n in os.listdir(folder) if n.endswith(".envelope")) if os.path.isdir(folder) else []
    found = []
    for name in names:
        with open(os.path.join(folder, name)) as f:
            found.extend(line for line in f.read().split("\n")[1:] if line)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--sink-dir", required=True)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--timeout", type=float, default=300)
    options = parser.parse_args()
    connection = http.client.HTTPConnection("127.0.0.1", options.port, timeout=30)
    emails = ["backlog%04d@example.com" % number for number in range(options.count)]
    for number, email in enumerate(emails):
        status = post(connection, "/v1/auth/signup",
                      {"email": email, "password": "correct horse battery staple", "displayName": "backlog%04d" % number})
        assert status == 201, (email, status)

    start = time.perf_counter()
    for email in emails:
        assert post(connection, "/v1/auth/password-reset", {"email": email}) == 202
    requested = time.perf_counter() - start
    deadline = start + options.timeout
    while len(recipients(options.sink_dir)) < options.count and time.perf_counter() < deadline:
        time.sleep(0.05)
    seconds = time.perf_counter() - start
    delivered_then = len(recipients(options.sink_dir))
    time.sleep(3)  # a few more sender passes: nothing may be sent twice
    final = recipients(options.sink_dir)
    print(f"accounts={options.count}")
    print(f"requested_s={requested:.2f}")
    print(f"delivered={delivered_then}")
    print(f"distinct={len(set(final))}")
    print(f"seconds={seconds:.2f}")
    print(f"per_second={delivered_then / seconds:.0f}")
    print(f"duplicates={len(final) - len(set(final))}")
    print(f"missing={len(set(emails) - set(final))}")


if __name__ == "__main__":
    main()
