"""Follows an emailed reset link in Debian's Chromium (selenium, headless) as a person
would: first with two passwords that differ, then with a matching pair. Saves a
screenshot of each page at phone (320 px) and desktop (1280 px) widths into OUT_DIR and
prints what it saw as JSON.

  reset_in_browser.py LINK NEW_PASSWORD OUT_DIR
"""
import json
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

# Seconds a submitted form may take to bring the next page: the reset hashes the password
# and commits, which a loaded machine (or PostgreSQL) makes slower than the other pages.
NAVIGATION_TIMEOUT = 30

WIDTHS = {"phone": (320, 640, 2, True), "desktop": (1280, 800, 1, False)}


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def look(driver, size, path):
    width, height, scale, mobile = WIDTHS[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
    driver.save_screenshot(path)
    return {
        "fitsWidth": driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"),
        "fontSize": driver.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)"),
    }


def fill(driver, password, confirmation):
    # Keyboard only, as a person would: the password field has the focus when the page
    # opens (or takes it with the first Tab), the next Tab reaches the confirmation.
    first = driver.switch_to.active_element
    if first.tag_name != "input":
        first.send_keys(Keys.TAB)
        first = driver.switch_to.active_element
    first_id = first.get_attribute("id")
    first.send_keys(password)
    first.send_keys(Keys.TAB)
    second = driver.switch_to.active_element
    second_id = second.get_attribute("id")
    second.send_keys(confirmation)
    page = driver.find_element(By.TAG_NAME, "body")
    second.send_keys(Keys.ENTER)
    # ENTER returns before the answer arrives: wait until the form's page is gone, or the
    # next read would see the form again.
    WebDriverWait(driver, NAVIGATION_TIMEOUT).until(expected_conditions.staleness_of(page))
    return [first_id, second_id]


def main():
    link, password, out = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    seen = {}
    driver = browser()
    try:
        driver.get(link)
        seen["formTitle"] = driver.title
        seen["labels"] = [label.get_attribute("for") for label in driver.find_elements(By.TAG_NAME, "label")]
        for size in WIDTHS:
            seen["form-" + size] = look(driver, size, os.path.join(out, "reset-form-%s.png" % size))

        seen["focusOrder"] = fill(driver, password, password + "!")
        seen["mismatchText"] = driver.find_element(By.TAG_NAME, "body").text
        seen["mismatchURL"] = driver.current_url
        for size in WIDTHS:
            seen["mismatch-" + size] = look(driver, size, os.path.join(out, "reset-mismatch-%s.png" % size))

        fill(driver, password, password)
        seen["doneText"] = driver.find_element(By.TAG_NAME, "body").text
        for size in WIDTHS:
            seen["done-" + size] = look(driver, size, os.path.join(out, "reset-done-%s.png" % size))
    finally:
        driver.quit()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
