#!/usr/bin/env python3
"""Loads headcount's HTML solutions in a real browser (Debian's headless Chromium, driven by Selenium through
chromedriver) and checks the math rendered.

Usage: browser_check.py HEADCOUNT_BINARY SOURCE_DIR ARTIFACT_DIR. For the week-3 problem (a standalone page, KaTeX
inside it) and the shapes problem (pages in a folder sharing a copied KaTeX), the page is loaded and checked after
its scripts ran: as many typeset formulas (.katex elements) as the Markdown solution has `$...$` spans, counted here
from the Markdown on its own; no KaTeX error node; KaTeX's fonts loaded (not a fallback font); the shapes page has
its diagram. Screenshots and a PDF printed by the browser are left in ARTIFACT_DIR for a person to look at.
"""
import base64
import os
import re
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.print_page_options import PrintOptions

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1000,1600"]


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def start_browser(profile):
    """Debian's chromium and chromedriver, by path: Selenium must not look for (or download) a driver."""
    options = webdriver.ChromeOptions()
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def math_spans(markdown):
    """The `$...$` spans of a Markdown text, counted by pairing dollar signs line by line outside code spans. The
    solutions have no literal dollar sign and no formula across lines, so every pair is one formula."""
    count = 0
    for line in markdown.splitlines():
        outside_code = re.sub(r"`[^`]*`", "", line)
        dollars = outside_code.count("$")
        if dollars % 2:
            fail(f"odd number of $ in line: {line}")
        count += dollars // 2
    return count


def check_page(driver, url, markdown, label, artifacts):
    driver.get(url)
    expected = math_spans(markdown)
    typeset = driver.execute_script("return document.querySelectorAll('.katex').length")
    errors = driver.execute_script("return document.querySelectorAll('.katex-error').length")
    if expected < 10:
        fail(f"{label}: only {expected} formulas in the Markdown; the count is not a test")
    if typeset != expected:
        fail(f"{label}: {typeset} formulas typeset by KaTeX, but the Markdown has {expected}")
    if errors:
        fail(f"{label}: {errors} KaTeX error nodes")
    fonts = driver.execute_async_script(
        "const done = arguments[0]; document.fonts.ready.then(() => done("
        "[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)))")
    if not any("KaTeX_Main" in family for family in fonts):
        fail(f"{label}: KaTeX's fonts did not load (loaded: {fonts})")
    driver.save_screenshot(os.path.join(artifacts, label + ".png"))
    print(f"{label}: {typeset} formulas typeset, no KaTeX error, fonts {sorted(set(fonts))}")
    return driver.page_source


def run_headcount(binary, source, *args):
    run = subprocess.run([binary, *args], cwd=source, capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"headcount {' '.join(args)} exited {run.returncode}: {run.stderr}")
    return run.stdout


def main():
    binary, source, artifacts = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(artifacts, exist_ok=True)
    with tempfile.TemporaryDirectory() as out:
        driver = start_browser(os.path.join(out, "profile"))
        try:
            # A standalone page: KaTeX, its fonts and the styles are inside it.
            week3 = "problems/week3-mha-params.yaml"
            page = os.path.join(out, "week3.html")
            with open(page, "w", encoding="utf-8") as f:
                f.write(run_headcount(binary, source, "solve", week3, "--format", "html"))
            check_page(driver, "file://" + page, run_headcount(binary, source, "solve", week3), "week3-mha-params",
                       artifacts)

            # What docs/solving.md tells instructors to do: print the page to PDF (here through the same browser).
            pdf = base64.b64decode(driver.print_page(PrintOptions()))
            with open(os.path.join(artifacts, "week3-mha-params.pdf"), "wb") as f:
                f.write(pdf)
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            if not pdf.startswith(b"%PDF") or pages < 2:
                fail(f"print to PDF gave {len(pdf)} bytes, {pages} pages")
            print(f"week3-mha-params.pdf: {pages} pages")

            # Pages in a folder, sharing the copy of KaTeX written beside them.
            shapes = "problems/mha-shapes-memory.yaml"
            run_headcount(binary, source, "solve", shapes, "--format", "html", "--out", os.path.join(out, "folder"))
            dom = check_page(driver, "file://" + os.path.join(out, "folder", "mha-shapes-memory.html"),
                             run_headcount(binary, source, "solve", shapes), "mha-shapes-memory", artifacts)
            diagram = re.search(r'<figure class="diagram">.*?</figure>', dom, re.S)
            if not diagram or "(32, 8, 128, 64)" not in diagram.group(0):
                fail("mha-shapes-memory: no diagram of the tensors with their shapes")
        finally:
            driver.quit()
    print(f"browser check passed; screenshots and the PDF are in {artifacts}")


if __name__ == "__main__":
    main()
