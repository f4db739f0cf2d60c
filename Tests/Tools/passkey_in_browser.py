"""A passkey in a real browser: Debian's Chromium (selenium, headless) with WebDriver's
virtual authenticator (CTAP2, internal transport, resident keys, user verification).
Serves a small web app from 127.0.0.1:PAGE_PORT (origin http://localhost:PAGE_PORT, the
relying party `localhost`) which, against the Latchkey server on SERVER_PORT:

  1. signs up with a password, registers a passkey (`navigator.credentials.create` with the
     server's creation options, `toJSON()` posted back), and signs out;
  2. signs in with the passkey alone (`navigator.credentials.get` with the server's request
     options: no email typed) and reads GET /v1/users/me with the new access token.

A screenshot of each step is saved into OUT_DIR. Prints JSON: what each step saw (HTTP
statuses, the passkey's name, the user signed in, the amr claim) or the browser's error.

  passkey_in_browser.py SERVER_PORT PAGE_PORT OUT_DIR
"""
import json
import os
import sys

from page_server import serve_page
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions
from selenium.webdriver.support.ui import WebDriverWait

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Passkey demo</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font: 16px system-ui, sans-serif; margin: 2rem auto; max-width: 34rem; padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.4rem; } .step { border: 1px solid #d2d2d7; border-radius: 12px; padding: 1rem 1.25rem; margin: 1rem 0; }
.ok { color: #1a7f37; } .bad { color: #c62828; } code { background: #f5f5f7; padding: 0 .3rem; border-radius: 4px; }
</style></head><body>
<h1>Passkey demo app</h1>
<div class="step" id="register"><strong>Step 1.</strong> Sign up and register a passkey: <span id="registered">…</span></div>
<div class="step" id="signin"><strong>Step 2.</strong> Sign in with the passkey alone: <span id="signedin">waiting</span></div>
<script>
const base = "http://127.0.0.1:%(server)s";
async function call(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = "Bearer " + token;
  const answer = await fetch(base + path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const text = await answer.text();
  return {status: answer.status, body: text ? JSON.parse(text) : null};
}
function claims(token) {
  const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(part + "=".repeat((4 - part.length %% 4) %% 4)));
}
async function register() {
  const signup = await call("POST", "/v1/auth/signup", {email: "browser@example.com", password: "lighthouse-Quokka-42", displayName: "browser"});
  const token = signup.body.accessToken;
  const options = await call("POST", "/v1/auth/passkeys/register/options", undefined, token);
  const credential = await navigator.credentials.create({publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options.body)});
  const stored = await call("POST", "/v1/auth/passkeys/register", {credential: credential.toJSON(), name: "Chromium"}, token);
  const logout = await call("POST", "/v1/auth/logout", undefined, token);
  document.getElementById("registered").innerHTML = stored.status === 201
    ? `<span class="ok">passkey <code>${stored.body.name}</code> registered</span>, then signed out`
    : `<span class="bad">refused: ${JSON.stringify(stored.body)}</span>`;
  return {signup: signup.status, options: options.status, register: stored.status, passkey: stored.body, logout: logout.status};
}
async function signIn() {
  const options = await call("POST", "/v1/auth/passkeys/login/options");
  const assertion = await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options.body)});
  const login = await call("POST", "/v1/auth/passkeys/login", {credential: assertion.toJSON()});
  if (login.status !== 200) {
    document.getElementById("signedin").innerHTML = `<span class="bad">refused: ${JSON.stringify(login.body)}</span>`;
    return {options: options.status, login: login.status, problem: login.body};
  }
  const me = await call("GET", "/v1/users/me", undefined, login.body.accessToken);
  const amr = claims(login.body.accessToken).amr;
  document.getElementById("signedin").innerHTML =
    `<span class="ok">signed in as <code>${me.body.displayName}</code> (${me.body.email})</span>, amr <code>${JSON.stringify(amr)}</code>`;
  return {options: options.status, login: login.status, me: me.status, email: me.body.email, amr};
}
function report(step, promise) {
  promise.then(result => { document.body.dataset[step] = JSON.stringify(result); },
               error => { document.body.dataset[step] = JSON.stringify({error: String(error)}); });
}
window.runStep = (step) => report(step, step === "register" ? register() : signIn());
</script></body></html>"""


def run_step(driver, step, out_dir):
    driver.execute_script(f"window.runStep('{step}')")
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(f"return document.body.dataset.{step}"))
    driver.save_screenshot(os.path.join(out_dir, f"passkey-{step}.png"))
    return json.loads(driver.execute_script(f"return document.body.dataset.{step}"))


def main():
    server_port, page_port, out_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(out_dir, exist_ok=True)
    page = serve_page(page_port, (PAGE % {"server": server_port}).encode())
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=800,600"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    seen = {}
    try:
        driver.get(f"http://localhost:{page_port}/")
        driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
            protocol=Protocol.CTAP2, transport=Transport.INTERNAL,
            has_resident_key=True, has_user_verification=True, is_user_verified=True, is_user_consenting=True,
        ))
        seen["register"] = run_step(driver, "register", out_dir)
        seen["credentials"] = len(driver.get_credentials())
        seen["signIn"] = run_step(driver, "signIn", out_dir)
    finally:
        driver.quit()
        page.shutdown()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
