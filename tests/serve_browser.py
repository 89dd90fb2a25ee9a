#!/usr/bin/env python3
"""A student self-checks in a real browser: Debian's chromium, driven through chromedriver by python3-selenium.

With a class seed and roster, the student opens the link on their sheet, goes to the week-3 problem, types a wrong
answer and then a right one into part (b), and reads the feedback under the box without the page reloading; math
is typeset by KaTeX (.katex elements, no .katex-error). A screenshot of the page is saved for a person to look at.
Then the same with JavaScript turned off: the plain form posts and the page comes back with the feedback.

The right and wrong answers come from `headcount check --reveal` for that student (the CLI, not the server).

Usage: serve_browser.py HEADCOUNT_BINARY SOURCE_DIR SCREENSHOT.png
"""
import hashlib
import hmac
import json
import os
import re
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

binary, source, screenshot = sys.argv[1], sys.argv[2], sys.argv[3]
os.chdir(source)
seed, student, spec = "browser-test", "alice", "problems/week3-mha-params.yaml"


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def cli_check(part, answer):
    out = subprocess.run([binary, "check", spec, "--seed", seed, "--student", student, "--part", part, "--answer",
                          answer, "--format", "json", "--reveal"], capture_output=True, text=True).stdout
    return json.loads(out)


# Alice's numbers and her right answers, from the CLI. A wrong answer that names a mistake: the biases left out
# (or, where her variant has none, biases added): 4·d_model either way.
reply = cli_check("b", "1")
givens, right_b = reply["variant"]["givens"], reply["expected"]
d_model = givens.get("d_model", 512)
has_bias = givens.get("bias", True)
wrong_b = right_b - 4 * d_model if has_bias else right_b + 4 * d_model
right_a = cli_check("a", "1")["expected"]
wrong_a = right_a - 3 * d_model if has_bias else right_a + 3 * d_model

work = tempfile.mkdtemp(prefix="headcount-browser-")
with open(os.path.join(work, "roster.csv"), "w") as f:
    f.write("student\nalice\nbob\n")
# The instructor's token secret, mode 0600 as serve requires.
secret = os.urandom(32).hex()
with open(os.open(os.path.join(work, "secret"), os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
    f.write(secret + "\n")
server = subprocess.Popen([binary, "serve", "problems", "--port", "0", "--seed", seed, "--roster",
                           os.path.join(work, "roster.csv"), "--secret", os.path.join(work, "secret")],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
match = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
if not match:
    server.kill()
    fail("serve did not start")
base = f"http://127.0.0.1:{match.group(1)}"
# The link printed on the sheet: {base}/?student={id}&token={token}, the token as docs/operations.md defines it (keyed by the
# secret, over "headcount-token-v2" NUL seed NUL id).
token = hmac.new(secret.encode(), b"headcount-token-v2\0" + seed.encode() + b"\0" + student.encode(),
                 hashlib.sha256).hexdigest()[:32]
link = f"{base}/?student={student}&token={token}"


def browser(javascript):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1000,1500",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='profile-', dir=work)}"):
        options.add_argument(flag)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def answer(driver, part, text):
    box = driver.find_element(By.ID, f"answer-{part}")
    box.clear()
    box.send_keys(text)
    driver.find_element(By.CSS_SELECTOR, f"#part-{part} button").click()


def feedback_after(driver, part, status):
    WebDriverWait(driver, 20).until(expected_conditions.presence_of_element_located(
        (By.CSS_SELECTOR, f"#feedback-{part} .verdict.{status}")))
    return driver.find_element(By.ID, f"feedback-{part}")


def no_katex_errors(driver, where):
    errors = driver.find_elements(By.CSS_SELECTOR, ".katex-error")
    if errors:
        fail(f"{where}: KaTeX could not typeset {errors[0].get_attribute('title')!r}")


try:
    driver = browser(javascript=True)
    try:
        driver.get(link)
        driver.find_element(By.CSS_SELECTOR, "a[href^='/p/week3-mha-params?']").click()
        WebDriverWait(driver, 20).until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, ".katex")))
        page_url = driver.current_url
        if "with the numbers for alice" not in driver.page_source:
            fail("the problem page does not say whose numbers these are")
        if f"{d_model:,}" not in driver.find_element(By.CSS_SELECTOR, "table.givens").text:
            fail(f"the givens table does not show alice's d_model {d_model:,}")

        answer(driver, "b", str(wrong_b))
        box = feedback_after(driver, "b", "incorrect")
        mistake = "The bias vectors were left out" if has_bias else "Biases counted"
        if "not right yet" not in box.text or mistake.split()[0] not in box.text:
            fail(f"the feedback for a wrong answer reads: {box.text!r}")
        if str(right_b) in box.text or f"{right_b:,}" in box.text:
            fail("the feedback shows the expected value")
        if has_bias and not box.find_elements(By.CSS_SELECTOR, ".katex"):
            fail("the feedback's math ($b_Q$ ...) was not typeset")
        print("wrong answer:", " / ".join(box.text.splitlines()))

        answer(driver, "b", f"{right_b:,}")
        box = feedback_after(driver, "b", "correct")
        if "correct —" not in box.text:
            fail(f"the feedback for a right answer reads: {box.text!r}")
        print("right answer:", " / ".join(box.text.splitlines()))

        answer(driver, "a", str(wrong_a))
        feedback_after(driver, "a", "incorrect")
        if driver.current_url != page_url:
            fail("the page reloaded: the script did not send the answer itself")
        no_katex_errors(driver, "problem page")
        typeset = len(driver.find_elements(By.CSS_SELECTOR, ".katex"))
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(screenshot)
        print(f"KaTeX typeset {typeset} formulas; screenshot: {screenshot}")
    finally:
        driver.quit()

    # Without JavaScript the form posts and the page comes back with the feedback under the box.
    driver = browser(javascript=False)
    try:
        driver.get(link)
        driver.find_element(By.CSS_SELECTOR, "a[href^='/p/week3-mha-params?']").click()
        answer(driver, "b", str(wrong_b))
        box = feedback_after(driver, "b", "incorrect")
        if "not right yet" not in box.text:
            fail(f"without JavaScript the feedback reads: {box.text!r}")
        if driver.find_element(By.ID, "answer-b").get_attribute("value") != str(wrong_b):
            fail("without JavaScript the answer is not put back in its box")
        print("without JavaScript:", " / ".join(box.text.splitlines()[:1]))
    finally:
        driver.quit()
finally:
    server.terminate()
    server.wait(timeout=30)
print("1 passed, 0 failed")
