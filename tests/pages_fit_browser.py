#!/usr/bin/env python3
"""Every page headcount writes fits the screen: loaded in a real browser (Debian's headless chromium, driven by
python3-selenium through chromedriver) whose viewport is 1366 CSS pixels wide (a laptop), then 390 (a phone).

The pages, each loaded once per width:
- the worked solutions of every shipped problem, as `solve problems --format html` prints them (one page, an
  <article> per problem), and one with a display formula ($$...$$) wider than any screen, which no shipped
  template has (solution.mustache with the formula added, through --templates);
- the problem sheets of every shipped problem, as written and with a student's numbers (`generate --format html`:
  OUT/problems.html and OUT/alice/problems.html);
- the class report and a student's feedback (`grade --html` on tests/class/);
- `headcount serve`'s index, the page of every shipped problem, and two feedback pages as a browser without
  JavaScript gets them back from the form: a wrong answer that names a mistake, and a long answer that cannot be
  read, which the feedback quotes whole.

On each page, once its math is typeset and its fonts loaded:
- the page does not scroll sideways: document.documentElement.scrollWidth <= window.innerWidth;
- nothing reaches past the right edge of the viewport (document.documentElement.clientWidth, the viewport without
  a scroll bar) unless it is inside a box of its own that scrolls sideways (overflow-x auto or scroll) and that
  box fits, as a wide table of numbers or a wide display formula may. The tables that scroll in a box are listed,
  not failed;
- every cell of a givens table's Value column (a table headed "Value") is on the screen, its right edge within
  the viewport, without scrolling any box: these are the student's own numbers.

Every failure is listed (page, width, per problem what reaches how far) before the test fails. Screenshots of a
few pages at both widths (the whole width, up to 3000 px down) are left in ARTIFACT_DIR for a person to look at.

Usage: pages_fit_browser.py HEADCOUNT_BINARY SOURCE_DIR ARTIFACT_DIR
"""
import base64
import hashlib
import hmac
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

WIDTHS = (1366, 390)
HEIGHT = 800
SEED, STUDENT = "pages-fit", "alice"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars"]
SCREENSHOT_HEIGHT = 3000
SCREENSHOTS = {"generate/alice/problems", "grade/report", "serve/index", "serve/p/gpt2-xl-training",
               "serve/p/model-gpt3-175b", "serve/feedback-unreadable"}
# Solutions: the page is long, so the screenshot is of one problem's article (its top SCREENSHOT_HEIGHT px).
ARTICLE_SCREENSHOTS = {"solve/problems": ("Training GPT-2 XL on 8 GPUs", "GPT-3 175B")}

# Runs in the page once its fonts are loaded. `where` names the problem (its article's or main's h1).
MEASURE = r"""
const done = arguments[arguments.length - 1];
document.fonts.ready.then(() => {
  const view = document.documentElement.clientWidth;
  const slack = 0.5;
  const scrollingBox = (element) => {
    for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
      const overflow = getComputedStyle(box).overflowX;
      if (overflow === "auto" || overflow === "scroll") return box;
    }
    return null;
  };
  const where = (element) => {
    const article = element.closest("article, main");
    const heading = article && article.querySelector("h1");
    return heading ? heading.textContent.trim() : "(page)";
  };
  const what = (element) => {
    const name = element.tagName.toLowerCase() + (typeof element.className === "string" && element.className.trim()
        ? "." + element.className.trim().split(/\s+/).join(".") : "");
    return name + " \"" + (element.textContent || "").replace(/\s+/g, " ").trim().slice(0, 50) + "\"";
  };
  const past = [];
  const scrolling = new Set();
  for (const element of document.body.querySelectorAll("*")) {
    // What is drawn is the svg element, which clips its shapes; KaTeX's MathML copy is for screen readers, hidden.
    if (element.ownerSVGElement || element.closest(".katex-mathml")) continue;
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 || rect.right <= view + slack) continue;
    const box = scrollingBox(element);
    if (box && box.getBoundingClientRect().right <= view + slack) {
      if (element.tagName === "TABLE") scrolling.add(element);
      continue;
    }
    past.push(element);
  }
  // The outermost of them: a table that is too wide, not each of its cells.
  const outermost = past.filter((element) => !past.some((other) => other !== element && other.contains(element)));
  const values = [];
  let cells = 0;
  for (const table of document.querySelectorAll("table")) {
    const column = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim()).indexOf("Value");
    if (column < 0) continue;
    for (const row of table.querySelectorAll("tbody tr")) {
      const cell = row.children[column];
      if (!cell) continue;
      cells += 1;
      const right = cell.getBoundingClientRect().right;
      if (right > view + slack)
        values.push({where: where(cell), right: Math.round(right), scrolls: scrollingBox(cell) !== null});
    }
  }
  done({
    inner: window.innerWidth,
    view: view,
    scroll: document.documentElement.scrollWidth,
    past: outermost.map((e) => ({where: where(e), what: what(e), right: Math.round(e.getBoundingClientRect().right)})),
    scrolling: [...scrolling].map((e) => ({where: where(e),
        givens: [...e.querySelectorAll("thead th")].some((th) => th.textContent.trim() === "Value")})),
    values: values,
    value_cells: cells,
    wide_display_math: [...document.querySelectorAll("span.math.display")]
        .filter((m) => m.scrollWidth > m.clientWidth).length,
    untypeset: [...document.querySelectorAll("span.math")].filter((m) => !m.querySelector(".katex")).length,
    katex_errors: document.querySelectorAll(".katex-error").length,
  });
});
"""


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def run_headcount(binary, *args, accept=(0,)):
    run = subprocess.run([binary, *args], capture_output=True, text=True)
    if run.returncode not in accept:
        fail(f"headcount {' '.join(args)} exited {run.returncode}: {run.stderr}")
    return run.stdout


def start_browser(profile):
    """Debian's chromium and chromedriver, by path: Selenium must not look for (or download) a driver."""
    options = webdriver.ChromeOptions()
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def set_inner_width(driver, width):
    """A window whose viewport (window.innerWidth) is `width` CSS pixels: the window's frame is measured and added."""
    driver.set_window_size(width, HEIGHT)
    driver.get("about:blank")
    inner = driver.execute_script("return window.innerWidth")
    if inner != width:
        driver.set_window_size(width + (width - inner), HEIGHT)
        inner = driver.execute_script("return window.innerWidth")
    if inner != width:
        fail(f"could not make a window {width} px wide inside (got {inner})")


def written_pages(binary, source, work):
    """(label, url) of the pages solve, generate and grade write."""
    problems = os.path.join(source, "problems")
    roster = os.path.join(source, "tests", "class", "roster.csv")
    solutions = os.path.join(work, "solutions.html")
    with open(solutions, "w", encoding="utf-8") as f:
        f.write(run_headcount(binary, "solve", problems, "--format", "html"))
    generated = os.path.join(work, "generate")
    run_headcount(binary, "generate", problems, "--seed", SEED, "--roster", roster, "--out", generated, "--format",
                  "html")
    graded = os.path.join(work, "graded")
    run_headcount(binary, "grade", problems, "--submissions", os.path.join(source, "tests", "class", "submissions.csv"),
                  "--out", graded, "--html")
    # No shipped template has display math: a worked solution with a sum wider than any screen, through --templates.
    templates = os.path.join(work, "templates")
    os.makedirs(templates)
    with open(os.path.join(source, "templates", "solution.mustache"), encoding="utf-8") as f:
        solution = f.read()
    wide_sum = " + ".join(f"{n}{{,}}000{{,}}000" for n in range(101, 141))
    with open(os.path.join(templates, "solution.mustache"), "w", encoding="utf-8") as f:
        f.write(solution + f"\nA sum wider than any screen:\n\n$$\\mathrm{{total}} = {wide_sum}$$\n")
    display_math = os.path.join(work, "display-math.html")
    with open(display_math, "w", encoding="utf-8") as f:
        f.write(run_headcount(binary, "solve", os.path.join(problems, "week3-mha-params.yaml"), "--templates",
                              templates, "--format", "html"))
    return [("solve/problems", solutions),
            ("solve/display-math", display_math),
            ("generate/problems", os.path.join(generated, "problems.html")),
            (f"generate/{STUDENT}/problems", os.path.join(generated, STUDENT, "problems.html")),
            ("grade/report", os.path.join(graded, "report.html")),
            (f"grade/feedback/{STUDENT}", os.path.join(graded, "feedback", STUDENT + ".html"))]


class Server:
    """`headcount serve` on the shipped problems with a roster and its token secret, as tests/serve_browser.py runs
    it; link(path) is the student's address of a page."""

    def __init__(self, binary, source, work):
        roster = os.path.join(source, "tests", "class", "roster.csv")
        secret = os.urandom(32).hex()
        secret_file = os.path.join(work, "secret")
        with open(os.open(secret_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write(secret + "\n")
        self.process = subprocess.Popen([binary, "serve", os.path.join(source, "problems"), "--port", "0", "--seed",
                                         SEED, "--roster", roster, "--secret", secret_file],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", self.process.stdout.readline())
        if not match:
            self.stop()
            fail("serve did not start")
        self.base = f"http://127.0.0.1:{match.group(1)}"
        # The token as docs/operations.md defines it: keyed by the secret, over "headcount-token-v2" NUL seed NUL id.
        self.token = hmac.new(secret.encode(), b"headcount-token-v2\0" + SEED.encode() + b"\0" + STUDENT.encode(),
                              hashlib.sha256).hexdigest()[:32]

    def link(self, path):
        return f"{self.base}{path}?student={STUDENT}&token={self.token}"

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def post_answer(driver, part, answer):
    """Posts the part's form as a browser without JavaScript does (form.submit() fires no submit event, so the
    page's script does not take it): the server's page comes back with the feedback under the box."""
    driver.execute_script("const form = document.querySelector(arguments[0]); form.answer.value = arguments[1];"
                          "form.submit()", f"#part-{part} form.check", answer)
    deadline = time.time() + 20
    while not driver.find_elements(By.CSS_SELECTOR, f"#feedback-{part} .verdict"):
        if time.time() > deadline:
            fail(f"no feedback for part ({part}) after posting {answer!r}")
        time.sleep(0.05)


def save_screenshot(driver, path, top=0):
    """The page from `top` down, as wide as it is (what scrolls sideways shows) and up to SCREENSHOT_HEIGHT tall."""
    width, height = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": top, "width": width, "height": min(height - top, SCREENSHOT_HEIGHT), "scale": 1}})
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def screenshots(driver, label, width, artifacts):
    name = label.replace("/", "_")
    if label in SCREENSHOTS:
        save_screenshot(driver, os.path.join(artifacts, f"{name}-{width}.png"))
    for title in ARTICLE_SCREENSHOTS.get(label, ()):
        top = driver.execute_script(
            "const h = [...document.querySelectorAll('article h1')].find((h) => h.textContent.trim() === arguments[0]);"
            "return h ? Math.floor(h.closest('article').getBoundingClientRect().top + window.scrollY) : -1", title)
        if top < 0:
            fail(f"{label}: no article titled {title!r}")
        slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
        save_screenshot(driver, os.path.join(artifacts, f"{name}-{slug}-{width}.png"), top)


def by_problem(entries, describe):
    """Lines of `entries` grouped by their problem ("where"), each described by describe(entries of one problem)."""
    groups = defaultdict(list)
    for entry in entries:
        groups[entry["where"]].append(entry)
    return [f"{where}: {describe(group)}" for where, group in groups.items()]


def check(driver, label, width, artifacts, failures, notes):
    """Measures the loaded page: what does not fit goes to `failures`, the tables that scroll in a box to `notes`."""
    result = driver.execute_async_script(MEASURE)
    problems = []
    if result["untypeset"]:
        problems.append(f"{result['untypeset']} formulas not typeset: the page was measured before KaTeX ran")
    if result["katex_errors"]:
        problems.append(f"{result['katex_errors']} KaTeX error nodes")
    if label == "solve/display-math" and not result["wide_display_math"]:
        problems.append("the display formula is not wider than its box: the page does not test what it should")
    if result["inner"] != width:
        problems.append(f"the window is {result['inner']} px wide inside, not {width}")
    if result["scroll"] > result["inner"]:
        problems.append(f"the page is {result['scroll']} px wide: it scrolls sideways")
    if result["past"]:
        problems.append(f"{len(result['past'])} element(s) reach past the viewport's {result['view']} px:")
        problems += by_problem(result["past"], lambda group: "; ".join(
            f"{e['what']} to {e['right']} px" for e in group[:3]) + (f"; {len(group) - 3} more" if len(group) > 3
                                                                       else ""))
    if result["values"]:
        problems.append(f"{len(result['values'])} of {result['value_cells']} Value cells are off the screen:")
        problems += by_problem(result["values"], lambda group: f"{len(group)} cells, to "
                               f"{max(e['right'] for e in group)} px"
                               + (" (the table scrolls in its box)" if any(e["scrolls"] for e in group) else ""))
    if problems:
        failures.append(f"{label} at {width} px: " + "\n    ".join(problems))
    if result["scrolling"]:
        givens = sorted({e["where"] for e in result["scrolling"] if e["givens"]})
        notes.append(f"{label} at {width} px: {len(result['scrolling'])} table(s) scroll in their own box"
                     + (f", {len(givens)} of them givens tables: "
                        + "; ".join(givens) if givens else ""))
    screenshots(driver, label, width, artifacts)
    return result["value_cells"]


def main():
    binary, source, artifacts = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
    os.makedirs(artifacts, exist_ok=True)
    started = time.time()
    failures, notes = [], []
    problem_ids = []
    for name in sorted(os.listdir(os.path.join(source, "problems"))):
        if name.endswith(".yaml"):
            with open(os.path.join(source, "problems", name), encoding="utf-8") as f:
                problem_ids.append(re.search(r"^id:\s*(\S+)", f.read(), re.M).group(1))
    # A wrong answer that names a mistake: the size in bits where bytes are asked (alice's expected value × 8); and
    # an answer too long to read, which the feedback quotes whole in a code span.
    reply = json.loads(run_headcount(binary, "check", os.path.join(source, "problems", "training-gpt2-xl.yaml"),
                                     "--seed", SEED, "--student", STUDENT, "--part", "a", "--answer", "1", "--format",
                                     "json", "--reveal", accept=(0, 1)))
    wrong = str(reply["expected"] * 8)
    unreadable = "memory_optimizer_states_" + "1234567890" * 8
    loads = 0
    value_cells = 0
    with tempfile.TemporaryDirectory(prefix="headcount-pages-fit-") as work:
        pages = written_pages(binary, source, work)
        server = Server(binary, source, work)
        driver = start_browser(os.path.join(work, "profile"))
        try:
            for width in WIDTHS:
                set_inner_width(driver, width)
                for label, path in pages:
                    driver.get("file://" + path)
                    value_cells += check(driver, label, width, artifacts, failures, notes)
                served = [("serve/index", "/")] + [(f"serve/p/{id}", f"/p/{id}") for id in problem_ids]
                for label, path in served:
                    driver.get(server.link(path))
                    value_cells += check(driver, label, width, artifacts, failures, notes)
                for label, part, answer in (("serve/feedback-mistake", "a", wrong),
                                            ("serve/feedback-unreadable", "b", unreadable)):
                    driver.get(server.link("/p/gpt2-xl-training"))
                    post_answer(driver, part, answer)
                    feedback = driver.find_element(By.ID, f"feedback-{part}").text
                    if label.endswith("mistake") and "bits_for_bytes" not in feedback:
                        fail(f"serve: {wrong} (alice's expected value × 8) did not name bits_for_bytes: {feedback}")
                    value_cells += check(driver, label, width, artifacts, failures, notes)
                loads += len(pages) + len(served) + 2
        finally:
            driver.quit()
            server.stop()
    print(f"{loads} page loads at {' and '.join(map(str, WIDTHS))} px ({len(problem_ids)} shipped problems: their "
          f"solutions, sheets and served pages, the report and feedback), {value_cells} Value cells measured, "
          f"{time.time() - started:.0f} s; screenshots in {artifacts}")
    for note in notes:
        print("  " + note)
    if failures:
        print(f"{len(failures)} page(s) do not fit:")
        for failure in failures:
            print("  " + failure)
        fail(f"{len(failures)} page(s) do not fit the screen")
    print(f"every page fits at {' and '.join(map(str, WIDTHS))} px")


if __name__ == "__main__":
    main()
