"""A web app on another origin calling Latchkey from Debian's Chromium (selenium, headless):
serves a page from 127.0.0.1 on each of PAGE_PORTS (http://localhost:PORT is its origin,
not the server's http://127.0.0.1:SERVER_PORT), and on each page `fetch` signs up a user
and reads GET /v1/users/me with the access token, as a single-page app does. Prints JSON:
per page port, what the page saw (statuses, the email, the X-Request-Id it could read, or
the error the browser raised).

  cors_in_browser.py SERVER_PORT PAGE_PORT [PAGE_PORT...]
"""
import json
import sys

from page_server import serve_page
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>app</title></head><body><script>
const base = "http://127.0.0.1:%(server)s";
async function run() {
  try {
    const signup = await fetch(base + "/v1/auth/signup", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({email: "web%(page)s@example.com", password: "lighthouse-Quokka-42", displayName: "web%(page)s"})});
    const pair = await signup.json();
    const me = await fetch(base + "/v1/users/me", {headers: {"Authorization": "Bearer " + pair.accessToken}});
    const user = await me.json();
    return {signup: signup.status, me: me.status, email: user.email, requestId: me.headers.get("X-Request-Id")};
  } catch (error) {
    return {error: String(error)};
  }
}
run().then(result => { document.body.dataset.result = JSON.stringify(result); });
</script></body></html>"""


def main():
    server_port, page_ports = sys.argv[1], [int(port) for port in sys.argv[2:]]
    pages = [serve_page(port, (PAGE % {"server": server_port, "page": port}).encode()) for port in page_ports]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    seen = {}
    try:
        for port in page_ports:
            driver.get(f"http://localhost:{port}/")
            WebDriverWait(driver, 15).until(lambda d: d.execute_script("return document.body.dataset.result"))
            seen[str(port)] = json.loads(driver.execute_script("return document.body.dataset.result"))
    finally:
        driver.quit()
        for page in pages:
            page.shutdown()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
