"""What the HTTPS fakes among the test tools (https_fixture.py, fake_apple_endpoints.py,
fake_idp.py) do alike: the arguments naming the port file, port, certificate and key; TLS
on a server's socket; and the port written where the test waits for it, whole or not at all
(written aside, then renamed)."""

import os
import ssl


def add_arguments(parser):
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)


def wrap(server, options):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(options.cert, options.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)


def announce(server, port_file):
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
