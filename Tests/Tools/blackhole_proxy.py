#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 for a test whose link must go dark: it forwards between each
client and 127.0.0.1:--target-port until a file named --freeze-file appears, then forwards
nothing more, in either direction, on any connection, old or new, while holding every
socket open: no reset and no answer, what a network partition or a stuck middlebox looks
like to both ends. (A file, not a signal: children inherit the test runner's blocked
signals.) Writes its port to --port-file once listening and runs until killed; every wait
is bounded.

  blackhole_proxy.py --port-file FILE --target-port N --freeze-file FILE [--port N]
"""
import argparse
import os
import selectors
import socket
import threading

held = []  # sockets kept open once dark, so neither end sees a close


def dark(freeze_file):
    return os.path.exists(freeze_file)


def forward(client, freeze_file, target_port):
    upstream = socket.create_connection(("127.0.0.1", target_port), timeout=10)
    upstream.settimeout(None)
    selector = selectors.DefaultSelector()
    selector.register(client, selectors.EVENT_READ, upstream)
    selector.register(upstream, selectors.EVENT_READ, client)
    while not dark(freeze_file):
        for key, _ in selector.select(timeout=0.05):
            if dark(freeze_file):
                break
            data = key.fileobj.recv(65536)
            if not data:
                client.close()
                upstream.close()
                return
            key.data.sendall(data)
    held.extend([client, upstream])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--target-port", type=int, required=True)
    parser.add_argument("--freeze-file", required=True)
    arguments = parser.parse_args()
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", arguments.port))
    listener.listen(128)
    with open(arguments.port_file + ".tmp", "w") as file:
        file.write(str(listener.getsockname()[1]))
    os.rename(arguments.port_file + ".tmp", arguments.port_file)
    while True:
        client, _ = listener.accept()
        if dark(arguments.freeze_file):
            held.append(client)
            continue
        threading.Thread(target=forward, args=(client, arguments.freeze_file, arguments.target_port), daemon=True).start()


if __name__ == "__main__":
    main()
