"""A real SMTP server for Latchkey's end-to-end tests (aiosmtpd).

Accepts every message and writes it to DIR as NNNN.eml (the DATA bytes as received) with
NNNN.envelope beside it (MAIL FROM, then each RCPT TO, one per line). Once it listens it
writes its port to PORT_FILE, then serves until killed.

  mail_sink.py --dir DIR --port-file PORT_FILE [--port N] [--cert CERT --key KEY]
               [--user NAME --password SECRET] [--refuse ADDRESS ...]

With --cert and --key it offers STARTTLS and requires it before MAIL; with --user it
offers AUTH PLAIN and LOGIN (only after STARTTLS when TLS is on) and requires it. Each
--refuse address is answered 550 at RCPT TO, for good, as for a mailbox that does not exist.
"""
import argparse
import os
import socket
import ssl
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Sink:
    def __init__(self, directory, refused):
        self.directory = directory
        self.refused = set(refused)
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, options):
        if address in self.refused:
            return "550 5.1.1 mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            number = len([n for n in os.listdir(self.directory) if n.endswith(".eml")]) + 1
            base = os.path.join(self.directory, "%04d" % number)
            with open(base + ".envelope.tmp", "w") as f:
                f.write("\n".join([envelope.mail_from] + envelope.rcpt_tos) + "\n")
            with open(base + ".eml.tmp", "wb") as f:
                f.write(envelope.original_content)
            os.rename(base + ".envelope.tmp", base + ".envelope")
            os.rename(base + ".eml.tmp", base + ".eml")
        return "250 Message accepted for delivery"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--refuse", action="append", default=[])
    options = parser.parse_args()
    os.makedirs(options.dir, exist_ok=True)

    parameters = {"decode_data": False, "enable_SMTPUTF8": True}
    if options.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(options.cert, options.key)
        parameters.update(tls_context=context, require_starttls=True)
    if options.user:
        expected = (options.user.encode(), options.password.encode())

        def authenticator(server, session, envelope, mechanism, data):
            ok = isinstance(data, LoginPassword) and (data.login, data.password) == expected
            return AuthResult(success=ok)

        parameters.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(options.cert))

    port = options.port or free_port()
    controller = Controller(Sink(options.dir, options.refuse), hostname="127.0.0.1", port=port, server_hostname="localhost", **parameters)
    controller.start()
    with open(options.port_file + ".tmp", "w") as f:
        f.write(str(port))
    os.rename(options.port_file + ".tmp", options.port_file)
    threading.Event().wait()


if __name__ == "__main__":
    sys.exit(main())
