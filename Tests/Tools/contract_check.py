"""The contract tested from outside: schemathesis against a running Latchkey.

Usage: contract_check.py PORT [SEED]

Runs `schemathesis run` (the version scripts/test-requirements.txt pins) against
http://127.0.0.1:PORT with the repository's openapi/openapi.yaml: every operation, every
check (`--checks all`), every phase (examples, coverage, fuzzing, stateful), a fixed seed,
at most MAX_EXAMPLES examples per operation and a budget of MAX_TIME seconds; another
seed, to look further, is the second argument. Settings that cannot go on the command
line are in contract_check.toml beside this file.

Authentication goes through the document's security scheme (`bearer`) with
schemathesis's auth extension: the operations that declare it get the access token of
an account this file signs up through POST /v1/auth/signup. The token is cached; when an
answer is 401 schemathesis asks again, and the session is renewed with its refresh
token, or, when the session has ended (logout, logout everywhere, session revocation,
password change, account deletion all end it), a new account is signed up. Positive
cases of the operations that want the account's password get it, so they can succeed.

A few refusals of schema-valid requests are for rules no JSON Schema can state; a
`filter_failure` hook drops exactly those, each after checking the reason in the answer
(see `_why_refused`), and they are counted in the summary. Nothing else is dropped.

Served pictures are checked to be of their type (a deserializer for image/*), so their
responses are validated too.

Prints one JSON object: schemathesis's exit status, how long it ran, the operations of
the document and those schemathesis tested, how often each check ran and failed, the
scenarios that failed, the dropped refusals by reason, and schemathesis's report (every
failure with a curl command that reproduces it). Exits 0 when the run could be judged.

This same file is the hooks module schemathesis loads (SCHEMATHESIS_HOOKS): imported
rather than run, it registers the auth provider and the hooks and does nothing else.
"""

import html
import json
import os
import re
import secrets
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOCUMENT = os.path.join(ROOT, "openapi", "openapi.yaml")
CONFIG = os.path.join(HERE, "contract_check.toml")
PASSWORD = "lighthouse-Quokka-42"

SEED = 20261125
MAX_EXAMPLES = 25  # per operation and phase
MAX_TIME = 75  # seconds for the whole run; fuzzing and stateful testing repeat until it is spent
WALL_CLOCK_LIMIT = 150  # seconds; schemathesis is killed after this

# Shared with the hooks, which schemathesis runs in its own process.
URL_VARIABLE = "LATCHKEY_CONTRACT_URL"
DROPS_VARIABLE = "LATCHKEY_CONTRACT_DROPS"
PICTURE_USER_VARIABLE = "LATCHKEY_CONTRACT_PICTURE_USER"
PICTURE_NAME_VARIABLE = "LATCHKEY_CONTRACT_PICTURE_NAME"

# The longest request line the server reads (HeadLimits.maxRequestLineBytes); 414 beyond.
MAX_REQUEST_LINE = 8 * 1024


def _call(base, method, path, payload=None, data=None, headers=None):
    headers = dict(headers or {}, **{"User-Agent": "contract_check"})
    if payload is not None:
        data = json.dumps(payload).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, None


def _sign_up(base, tag):
    """A new account's token pair; bounded: three refusals in a row are a broken server."""
    for attempt in range(3):
        name = "%s%d%s" % (tag, attempt, secrets.token_hex(4))
        status, pair = _call(base, "POST", "/v1/auth/signup", {
            "email": "%s@example.com" % name, "password": PASSWORD, "displayName": name})
        if status == 201:
            return pair
    raise RuntimeError("POST /v1/auth/signup answered %s" % status)


# --- Hooks (run inside schemathesis) ----------------------------------------------------

# Operations whose body carries the signed-in account's password, and its field.
PASSWORD_FIELDS = {
    "changePassword": "currentPassword", "deleteMe": "password", "requestEmailChange": "password",
    "enrolTOTP": "password", "removeTOTP": "password", "renewRecoveryCodes": "password", "deletePasskey": "password",
}

# Problem codes for rules no JSON Schema can state: which secret tokens exist and are
# live (an mfaToken too), which code an authenticator shows now, that two fields are
# equal, a password's blocklist (30,000 leaked passwords), repetition and sequence rules,
# which apply after Unicode NFKC normalisation; and which passkey challenges are live and
# whether a WebAuthn response's CBOR and signatures hold.
UNSTATABLE_CODES = {
    "WEAK_PASSWORD", "PASSWORDS_DO_NOT_MATCH", "RESET_TOKEN_INVALID", "VERIFY_TOKEN_INVALID", "MFA_TOKEN_INVALID", "MFA_CODE_INVALID",
    "CHALLENGE_INVALID", "WEBAUTHN_INVALID",
}
PAGE_OPERATIONS = {"resetPasswordPage", "verifyEmailPage", "submitResetPasswordPage", "submitVerifyEmailPage"}
PICTURE_UPLOADS = {"putPhoto", "uploadPhoto"}
PICTURE_SIGNATURES = {
    "image/jpeg": lambda data: data.startswith(b"\xff\xd8\xff"),
    "image/png": lambda data: data.startswith(b"\x89PNG\r\n\x1a\n"),
    "image/webp": lambda data: data[:4] == b"RIFF" and data[8:12] == b"WEBP",
}


def _operation_id(operation):
    return operation.definition.raw.get("operationId") if operation is not None else None


def _nfkc_length(value):
    import unicodedata2  # Unicode 16, the version of the server's NFKC tables

    return len(unicodedata2.normalize("NFKC", value))


def _weak_password_explained(detail, password):
    """A WEAK_PASSWORD whose rule the schema cannot state. Length is in the schema (8 to
    128 characters) but counted after NFKC, so a length refusal is believed only when the
    normalised password really is out of bounds."""
    if "too short" in detail or "too long" in detail:
        return isinstance(password, str) and not 8 <= _nfkc_length(password) <= 128
    return any(rule in detail for rule in ("too common", "repeats the same characters", "simple sequence"))


def _why_refused(failure, case, response):
    """The rule a schema cannot state that explains this failure, or None."""
    if failure.code != "ST202":  # Schema-valid request rejected: the only kind ever explained
        return None
    operation = _operation_id(case.operation)
    status = response.status_code
    body = case.body if isinstance(case.body, dict) else {}
    if status == 414:
        # The request line is over the server's limit: the schema bounds the number of ids
        # (at most 100), not the bytes they take once percent-encoded.
        request_line = "%s %s HTTP/1.1" % (response.request.method, response.request.path_url)
        return "request line over 8 KiB" if len(request_line.encode()) > MAX_REQUEST_LINE else None
    if status == 415 and operation in PICTURE_UPLOADS:
        # `format: binary` cannot say that the bytes must be a picture of the declared type.
        problem = _json(response)
        if problem.get("code") == "UNSUPPORTED_MEDIA_TYPE" and "not a picture of the type" in problem.get("detail", ""):
            return "picture bytes are not of the declared type"
        return None
    if status != 400:
        return None
    if operation in PAGE_OPERATIONS and _media_type(response) == "text/html":
        # The pages say in words what the API says in codes.
        page = response.text
        title = re.search(r"<title>(.*?)</title>", page, re.S)
        if title is not None and html.unescape(title.group(1)) == "This link no longer works":
            return "token unknown, used or expired"
        problem = re.search(r'<p class="error" role="alert" id="problem">(.*?)</p>', page, re.S)
        if problem is None or operation != "submitResetPasswordPage":
            return None
        text = html.unescape(problem.group(1))
        if text.startswith("The two passwords differ"):
            return "PASSWORDS_DO_NOT_MATCH" if body.get("password") != body.get("confirmPassword") else None
        return "WEAK_PASSWORD" if _weak_password_explained(text, body.get("password")) else None
    problem = _json(response)
    errors = problem.get("errors") or [problem]
    codes = [error.get("code") for error in errors]
    if not codes or not all(code in UNSTATABLE_CODES for code in codes):
        return None
    for error in errors:
        if error.get("code") == "WEAK_PASSWORD" and not _weak_password_explained(error.get("detail", ""), body.get(error.get("field"))):
            return None
        if error.get("code") == "PASSWORDS_DO_NOT_MATCH" and body.get("password") == body.get("confirmPassword"):
            return None
    return " + ".join(sorted(set(codes)))


def _media_type(response):
    values = response.headers.get("content-type") or [""]
    return values[0].split(";")[0].strip().lower()


def _json(response):
    try:
        value = response.json()
    except Exception:
        return {}
    return value if isinstance(value, dict) else {}


def _register_hooks():
    import schemathesis

    def protected(ctx):
        return bool(ctx.operation.definition.raw.get("security"))

    @schemathesis.auth(refresh_interval=600, retry_on=[401]).apply_to(protected)
    class FreshAccount:
        """The access token of an account signed up for the purpose: renewed with its
        refresh token, or, once its session has ended, by a new account."""

        def __init__(self):
            self.base = os.environ[URL_VARIABLE]
            self.refresh_token = None

        def get(self, case, context):
            if self.refresh_token is not None:
                status, pair = _call(self.base, "POST", "/v1/auth/refresh", {"refreshToken": self.refresh_token})
                if status == 200:
                    self.refresh_token = pair["refreshToken"]
                    return pair["accessToken"]
            pair = _sign_up(self.base, "contract")
            self.refresh_token = pair["refreshToken"]
            return pair["accessToken"]

        def set(self, case, data, context):
            case.headers = dict(case.headers or {})
            case.headers["Authorization"] = "Bearer %s" % data

    @schemathesis.hook
    def map_case(context, case):
        """Positive cases of password-confirmed operations carry the account's password,
        so they reach their success path (and end the session, where they do). Where the
        schema makes it optional (deleting the account or a passkey: an account without a
        password sends `{}`), a case without it gets it too: this file's accounts have one,
        and for them it is required."""
        field = PASSWORD_FIELDS.get(_operation_id(context.operation))
        meta = case.meta
        if field and meta is not None and meta.generation.mode.is_positive and isinstance(case.body, dict) \
                and isinstance(case.body.get(field, ""), str):
            case.body = dict(case.body, **{field: PASSWORD})
        return case

    @schemathesis.deserializer(*PICTURE_SIGNATURES)
    def picture(context, response):
        """A served picture must be one of the type it is served as; its bytes then go to
        the schema (`ImageBytes`: a string, never empty) one character per byte."""
        media_type = _media_type(response)
        if not PICTURE_SIGNATURES[media_type](response.content):
            raise ValueError("the bytes are not %s: %r" % (media_type, response.content[:16]))
        return response.content.decode("latin-1")

    @schemathesis.hook
    def filter_failure(context, failure, case, response):
        reason = _why_refused(failure, case, response)
        if reason is None:
            return True
        with open(os.environ[DROPS_VARIABLE], "a", encoding="utf-8") as drops:
            drops.write(json.dumps({"operation": case.operation.label, "status": response.status_code, "reason": reason}) + "\n")
        return False


# --- The run ------------------------------------------------------------------------------

def _png():
    """A 1x1 grey PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\x80")) + chunk(b"IEND", b""))


def _picture(base):
    """The user id and file name of a picture that exists, for GET and HEAD of
    /files/profile_pictures/{userId}/{name}: nothing in the document links an upload to
    its file (the photoURL is a whole URL), so random names would only ever be 404."""
    pair = _sign_up(base, "pictures")
    status, user = _call(base, "PUT", "/v1/users/me/photo", data=_png(),
                         headers={"Content-Type": "image/png", "Authorization": "Bearer " + pair["accessToken"]})
    if status != 200:
        raise RuntimeError("PUT /v1/users/me/photo answered %s" % status)
    user_id, name = user["photoURL"].rsplit("/", 2)[-2:]
    return user_id, name


def _document_operations():
    import yaml

    with open(DOCUMENT, encoding="utf-8") as f:
        document = yaml.safe_load(f)
    methods = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
    return sorted("%s %s" % (method.upper(), path) for path, item in document["paths"].items() for method in methods if method in item)


def _lines(path):
    """The JSON lines of `path`; a line cut short (schemathesis killed) is left out."""
    if not os.path.exists(path):
        return []
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                lines.append(json.loads(line))
            except ValueError:
                pass
    return lines


def main():
    base = "http://127.0.0.1:%d" % int(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else SEED
    user_id, name = _picture(base)
    with tempfile.TemporaryDirectory(prefix="latchkey-contract-") as work:
        drops = os.path.join(work, "drops.ndjson")
        events = os.path.join(work, "events.ndjson")
        environment = dict(os.environ, **{
            "SCHEMATHESIS_HOOKS": os.path.abspath(__file__), URL_VARIABLE: base, DROPS_VARIABLE: drops,
            PICTURE_USER_VARIABLE: user_id, PICTURE_NAME_VARIABLE: name,
            "NO_COLOR": "1", "COLUMNS": "120", "PYTHONDONTWRITEBYTECODE": "1"})
        arguments = [
            sys.executable, "-m", "schemathesis.cli", "--config-file", CONFIG, "--no-color",
            "run", DOCUMENT, "--url", base,
            "--checks", "all",
            "--phases", "examples,coverage,fuzzing,stateful",
            "--seed", str(seed), "--max-examples", str(MAX_EXAMPLES), "--max-time", str(MAX_TIME),
            "--workers", "1",
            "--generation-database", "none",
            # The report's curl commands carry the real headers and bodies: everything here
            # is a throwaway account on a throwaway server, and a failure should reproduce.
            "--output-sanitize", "false",
            "--report", "ndjson", "--report-ndjson-path", events,
        ]
        started = time.monotonic()
        try:
            run = subprocess.run(arguments, cwd=work, env=environment, stdin=subprocess.DEVNULL,
                                 capture_output=True, text=True, timeout=WALL_CLOCK_LIMIT)
            status, report = run.returncode, run.stdout + run.stderr
        except subprocess.TimeoutExpired as expired:
            status = None
            output = expired.stdout.decode(errors="replace") if isinstance(expired.stdout, bytes) else (expired.stdout or "")
            report = output + "\nschemathesis ran over %d s and was killed" % WALL_CLOCK_LIMIT
        seconds = time.monotonic() - started
        dropped = {}
        for drop in _lines(drops):
            key = "%s: %s %s" % (drop["operation"], drop["status"], drop["reason"])
            dropped[key] = dropped.get(key, 0) + 1
        tested, checks, failed = _outcome(_lines(events))
    print(json.dumps({
        "exitCode": status,
        "seconds": round(seconds, 1),
        "seed": seed,
        "operations": _document_operations(),
        "tested": tested,
        "checks": checks,
        "failedScenarios": failed,
        "dropped": dropped,
        "report": report,
    }))


def _outcome(events):
    """From schemathesis's NDJSON events: the operations it tested (a scenario that ran
    checks, in any phase but the stateful one, whose scenarios span operations), how
    often each check ran and how often it failed, and the scenarios that failed or erred."""
    tested = set()
    checks = {}
    failed_scenarios = 0
    for event in events:
        finished = event.get("ScenarioFinished")
        if not isinstance(finished, dict):
            continue
        if finished.get("status") in ("failure", "error"):
            failed_scenarios += 1
        recorder = finished.get("recorder") or {}
        results = [result for results in (recorder.get("checks") or {}).values() for result in results]
        if results and finished.get("phase") != "stateful":
            tested.add(recorder.get("label"))
        for result in results:
            counts = checks.setdefault(result["name"], {"ran": 0, "failed": 0})
            counts["ran"] += 1
            counts["failed"] += result["status"] == "failure"
    return sorted(tested), checks, failed_scenarios


if __name__ == "__main__":
    main()
else:
    _register_hooks()
