#!/usr/bin/env python3
"""No page or API response of `headcount serve` holds a shipped problem's expected value, in any form a student
could type it, nor (under the default `hints` policy) the gap between a wrong answer and it, nor the spec file;
and no page's typing example (a count in a <code> element: 3003000, 3,003,000, 3*1000*1001, 3 \times 1000 \times
1001) is within a factor of 2 of any count answer the server serves, as the unreadable verdict's examples are not.

The expected values come from `headcount solve --format json` (the problems as written) and from the answer key
`headcount generate --seed --roster` writes (each student's variant), not from the server. For every problem the
test reads the page, then sends wrong answers to every part through the JSON API and the page's form (with and
without JavaScript's fragment=1), and searches every response, headers included.

Usage: check_serve_leaks.py HEADCOUNT_BINARY SOURCE_DIR
"""
import csv
import html
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

binary, source = sys.argv[1], sys.argv[2]
os.chdir(source)
failures = []


def count_forms(n):
    """A count as students type it and as headcount prints it: digits, separators, TeX, units for bytes."""
    digits = str(n)
    grouped = f"{n:,}"
    forms = {digits, grouped, grouped.replace(",", " "), grouped.replace(",", "\u2009"),
             grouped.replace(",", "\u202f"), grouped.replace(",", "_"), grouped.replace(",", "{,}"),
             grouped.replace(",", "\\,")}
    if n >= 1000:
        mantissa = digits[0] + "." + digits[1:].rstrip("0") if digits[1:].rstrip("0") else digits[0]
        forms |= {f"{mantissa}e{len(digits) - 1}", f"{mantissa} \\times 10^{{{len(digits) - 1}}}",
                  f"{mantissa}×10^{len(digits) - 1}"}
    return forms


def bytes_forms(n):
    forms = set()
    for power, unit in ((10, "KiB"), (20, "MiB"), (30, "GiB"), (40, "TiB")):
        if n % (1 << power) == 0 and n >= (1 << power):
            forms.add(f"{n >> power} {unit}")
    for power, unit in ((3, "kB"), (6, "MB"), (9, "GB"), (12, "TB")):
        if n >= 10 ** power:
            forms.add(f"{n / 10 ** power:.2f} {unit}")
    return forms


def shape_forms(axes):
    inner = ", ".join(map(str, axes))
    return {f"({inner})", f"[{inner}]", "(" + ",".join(map(str, axes)) + ")", "x".join(map(str, axes)),
            " × ".join(map(str, axes)), "×".join(map(str, axes)), f"torch.Size([{inner}])"}


def forms_of(answer, unit):
    if isinstance(answer, list):
        return shape_forms(answer)
    if isinstance(answer, str):
        return set()  # a word answer is one of the words the question itself offers
    if answer < 10:
        return set()  # a single digit is on every page (points, part counts); no key is one digit long enough to tell
    return count_forms(answer) | (bytes_forms(answer) if unit == "bytes" else set())


def occurs(form, text):
    """`form` standing alone: not a piece of a longer number (64 in 640 or 1,064, or 0.64)."""
    return re.search(r"(?<![\w.,{])" + re.escape(form) + r"(?![\w]|[.,]\d|\{,\})", text) is not None


def wrong_answers(answer, unit):
    if isinstance(answer, list):
        return [", ".join(map(str, reversed(answer))), ", ".join(map(str, answer[:-1] + [answer[-1] + 1]))]
    if isinstance(answer, str):
        return ["projections" if answer != "projections" else "attention", "banana"]
    # A gap of 7,919 (a prime no given is) must not show under hints; twice and half are mistake-like numbers.
    return [str(w) for w in (answer + 7919, answer * 2, answer // 2 + 1) if w != answer] + ["banana"]


never_served = []  # texts no response may hold: the instructor's token secret


def example_counts(page):
    """The counts the page's examples denote: each <code> element that reads as digits (with or without
    separators) or a product of them, written with *, × or TeX's \\times."""
    counts = []
    for code in re.findall(r"<code>([^<]*)</code>", page):
        text = html.unescape(code).replace("\\times", "*").replace("×", "*").replace("·", "*")
        text = re.sub(r"(?<=\d)[,_\u2009\u202f ](?=\d{3}(?!\d))", "", text).replace(" ", "")
        if re.fullmatch(r"\d+(\*\d+)*", text):
            counts.append(math.prod(int(factor) for factor in text.split("*")))
    return counts


def check_examples(what, page, answers):
    """`answers`: every count the server can lead a visitor to (the part's tolerance is at most 100%)."""
    for example in example_counts(page):
        near = [a for a in answers if a and a / 2 <= example <= 2 * a]
        if near:
            closest = min(near, key=lambda a: abs(math.log(example / a)))
            failures.append(f"{what}: the example {example:,} is within a factor of 2 of the answer {closest:,}")


class Server:
    def __init__(self, args):
        self.process = subprocess.Popen([binary, "serve", *args, "--port", "0", "--student-rate", "0",
                                         "--address-rate", "0"], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            sys.exit(f"serve did not start: {line!r}")
        self.base = f"http://127.0.0.1:{match.group(1)}"

    def request(self, path, data=None, content_type=None):
        request = urllib.request.Request(self.base + path, data=data)
        if content_type:
            request.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                reply = response.status, self.headers(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            reply = error.code, self.headers(error.headers), error.read().decode()
        for text in never_served:
            if text in reply[1] or text in reply[2]:
                failures.append(f"{path}: the response holds the token secret")
        return reply

    @staticmethod
    def headers(headers):
        """Every header but the body's length, which is a number of its own."""
        return "".join(f"{k}: {v}\n" for k, v in headers.items() if k.lower() != "content-length")

    def stop(self):
        self.process.terminate()
        if self.process.wait(timeout=30) != 0:
            failures.append(f"serve exited {self.process.returncode} on SIGTERM")


def check(what, text, secrets, gap=None):
    for form in secrets:
        if occurs(form, text):
            failures.append(f"{what}: shows the expected value as {form!r}")
    if gap is not None:
        for form in count_forms(gap):
            if occurs(form, text):
                failures.append(f"{what}: shows the gap {form!r} under the hints policy")


def audit(server, problems, identity, who, served):
    """`problems`: id -> part id -> (answer, unit) as the visitor should have them; `served`: every count answer
    of every problem and variant the server serves, which no page's example may be near."""
    query = "?" + urllib.parse.urlencode(identity) if identity else ""
    checks = 0
    status, headers, home = server.request("/" + query)
    if status != 200:
        failures.append(f"{who} home page: status {status}")
    check_examples(f"{who} home page", home, served)
    for pid, parts in problems.items():
        status, headers, page = server.request(f"/p/{pid}{query}")
        if status != 200:
            failures.append(f"{who} {pid}: page status {status}")
            continue
        check_examples(f"{who} {pid} page", page, served)
        stated = set(re.findall(r'<td class="num">([^<]*)</td>', page))
        for part, (answer, unit) in parts.items():
            secrets = {f for f in forms_of(answer, unit) if f not in stated}
            check(f"{who} {pid} page", headers + page, secrets)
            for wrong in wrong_answers(answer, unit):
                # The gap of answer + 7,919 is 7,919 (unless the answer is 0, when the gap is the answer typed).
                gap = 7919 if isinstance(answer, int) and answer > 0 and wrong == str(answer + 7919) else None
                body = {"problem": pid, "part": part, "answer": wrong, **identity}
                status, headers, text = server.request("/api/check", json.dumps(body).encode(), "application/json")
                checks += 1
                if status != 200:
                    failures.append(f"{who} {pid}({part}) {wrong!r}: API status {status}: {text}")
                    continue
                reply = json.loads(text)
                if "expected" in reply or reply["feedback_policy"] != "hints":
                    failures.append(f"{who} {pid}({part}): the reply has an expected value or another policy")
                if reply["status"] == "correct":
                    failures.append(f"{who} {pid}({part}) {wrong!r}: a wrong answer was taken as right")
                check(f"{who} {pid}({part}) API for {wrong!r}", headers + text, secrets, gap)
                form = urllib.parse.urlencode({"part": part, "answer": wrong, **identity})
                for extra in ("", "&fragment=1"):
                    status, headers, html = server.request(f"/p/{pid}/check", (form + extra).encode(),
                                                           "application/x-www-form-urlencoded")
                    check(f"{who} {pid}({part}) form{extra} for {wrong!r}", headers + html, secrets, gap)
            for spec_text in ("ask:", "parts:", "vary:", "given:"):
                if spec_text in page:
                    failures.append(f"{who} {pid}: the page holds spec text {spec_text!r}")
    return checks


solved = json.loads(subprocess.run([binary, "solve", "problems", "--format", "json"], check=True,
                                   capture_output=True, text=True).stdout)
as_written = {p["id"]: {part["id"]: (part["answer"], part["unit"]) for part in p["parts"]} for p in solved}


def counts_of(problems):
    return {answer for parts in problems.values() for answer, _ in parts.values() if isinstance(answer, int)}


server = Server(["problems"])
checks = audit(server, as_written, {}, "no roster", counts_of(as_written))
server.stop()

with tempfile.TemporaryDirectory() as work:
    roster = os.path.join(work, "roster.csv")
    with open(roster, "w") as f:
        f.write("student\nalice\nbob\nzoë\n")
    seed = "leak-test"
    # The instructor's token secret, as `openssl rand -hex 32` would make it; mode 0600, as serve requires.
    secret_path = os.path.join(work, "secret")
    secret = os.urandom(32).hex()
    with open(os.open(secret_path, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(secret + "\n")
    subprocess.run([binary, "generate", "problems", "--roster", roster, "--seed", seed, "--out",
                    os.path.join(work, "sheets"), "--serve-url", "http://hc.example.edu", "--secret", secret_path],
                   check=True, capture_output=True)
    units = {p["id"]: {part["id"]: part["unit"] for part in p["parts"]} for p in solved}
    keys = {}
    with open(os.path.join(work, "sheets", "key.csv"), newline="") as f:
        for row in csv.DictReader(f):
            text = row["answer"]
            answer = (json.loads(text.replace("(", "[").replace(")", "]")) if text.startswith("(")
                      else int(text) if text.isdigit() else text)
            keys.setdefault(row["student"], {}).setdefault(row["problem"], {})[row["part"]] = (
                answer, units[row["problem"]][row["part"]])
    tokens = {}
    # The token of the link printed on each student's sheet.
    for student in keys:
        with open(os.path.join(work, "sheets", student, "problems.md"), encoding="utf-8") as f:
            tokens[student] = re.search(r"&token=([0-9a-f]{32})>", f.read()).group(1)
    never_served.append(secret)
    server = Server(["problems", "--seed", seed, "--roster", roster, "--secret", secret_path])
    served = set().union(*(counts_of(problems) for problems in keys.values()))
    status, headers, welcome = server.request("/")
    check_examples("the welcome page (a roster, no link)", welcome, served)
    for student, problems in keys.items():
        checks += audit(server, problems, {"student": student, "token": tokens[student]}, student, served)
    server.stop()

# The test must be able to fail: the same problem under `feedback: full` shows its expected value, and the audit
# has to say so.
with tempfile.TemporaryDirectory() as work:
    spec = os.path.join(work, "week3-full.yaml")
    with open("problems/week3-mha-params.yaml") as f:
        text = f.read()
    with open(spec, "w") as f:
        f.write(text.replace("id: week3-mha-params", "id: week3-full\nfeedback: full"))
    found = len(failures)
    server = Server([spec])
    audit(server, {"week3-full": as_written["week3-mha-params"]}, {}, "canary",
          counts_of({"week3-full": as_written["week3-mha-params"]}))
    server.stop()
    canary = failures[found:]
    del failures[found:]
    if not any("shows the expected value as '1,050,624'" in f for f in canary):
        failures.append("the audit did not notice a server that shows expected values (feedback: full)")
    # And a home page whose examples are week 3's answer, as the built-in one had (issue 24): 4*512*513 and
    # 4 \times 512 \times 513 are 1,050,624; 3*512*513 is 787,968, part (a); 2,000,000 is within 2x of both.
    os.makedirs(os.path.join(work, "templates", "serve"))
    with open(os.path.join(work, "templates", "serve", "index.mustache"), "w") as f:
        f.write("<p><code>1050624</code>, <code>1,050,624</code>, <code>4*512*513</code>, "
                "<code>4 \\times 512 \\times 513</code>, <code>3*512*513</code>, <code>2 000 000</code></p>\n")
    found = len(failures)
    server = Server(["problems/week3-mha-params.yaml", "--templates", os.path.join(work, "templates")])
    check_examples("canary home page", server.request("/")[2], counts_of({"w": as_written["week3-mha-params"]}))
    server.stop()
    example_canary = failures[found:]
    del failures[found:]
    if len(example_canary) != 6:
        failures.append(f"the example audit found {len(example_canary)} of the 6 examples near week 3's answers: "
                        f"{example_canary}")

for failure in failures[:50]:
    print(failure)
print(f"{checks} wrong answers checked on {len(solved)} problems, as written and for 3 students: "
      f"{len(failures)} failures (the canary under feedback: full showed {len(canary)})")
sys.exit(1 if failures else 0)
