#!/usr/bin/env python3
"""Runs the corpus of student answers (tests/corpus/answers.csv) through `headcount check` and holds it to it.

Usage: check_answer_corpus.py HEADCOUNT_BINARY SOURCE_DIR [--only PROBLEM]

Every row is an answer as a student types it, with the verdict derived by hand from the formulas (the derivation
column; tests/corpus/build_corpus.py checks each against tests/corpus/derive.py, which computes every problem's
answers and every catalogued mistake's value from the definitions in docs/grading.md and docs/spec.md, independently of headcount). For each
row this checks:

1. `check --format json`: the status and the set of mistake ids; the exit status (0 correct, 1 otherwise); no
   `expected` key under the default reveal policy; a rounded answer's feedback says how many figures it needs.
2. The leak test, for every row that is not correct: neither the default text output nor the JSON's feedback,
   titles and reason contain the expected value in any typed form (digits, grouped by , space _ {,} or \\, or as a
   decimal mantissa; for bytes also in KB/MB/GB and KiB/MiB/GiB as headcount writes them and to 3 or 4 figures; for
   a shape its tuple or x form; for a word answer the two compute counts that decide it), nor the gap between the
   student's value and it. Numbers the student typed, the value their answer denotes, the spec's stated givens, the
   part's points and numbers below 10 are not evidence and are skipped. An unreadable answer's help must not quote
   the answer of any part of the problem.
3. The reveal check: `check --reveal` does show the expected value in a form the leak test looks for, once per
   part, so that the leak test can fail.

Every mismatch is printed with its line in answers.csv and its derivation; the exit status is 1 when any failed.
"""
from __future__ import annotations

import concurrent.futures
import csv
import json
import os
import re
import subprocess
import sys
from fractions import Fraction

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "corpus"))

import build_corpus  # noqa: E402  (the rows as written; answers.csv must be what it writes)
import derive as D  # noqa: E402

ROUNDED_FEEDBACK = re.compile(r"figure|digit", re.IGNORECASE)

# ----------------------------------------------------------------------------------------------------------------
# Typed forms of a number, and finding them as whole numbers in text.

GROUP_SEPARATORS = [",", " ", "\u00a0", "\u2009", "\u202f", "_", "{,}", "\\,"]


def number_forms(n: int) -> set[str]:
    """1050624, 1,050,624, 1 050 624 (and other spaces), 1_050_624, 1{,}050{,}624, 1\\,050\\,624, and for four or
    more significant digits the digits with a decimal point anywhere (1.050624 in 1.050624e6 or 1.050624M)."""
    grouped = f"{n:,}"
    forms = {str(n)} | {grouped.replace(",", sep) for sep in GROUP_SEPARATORS}
    digits = str(n).rstrip("0")
    if len(digits) >= 4:
        forms |= {digits[:k] + "." + digits[k:] for k in range(1, len(digits))}
    return forms


def whole_at(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a whole number, not digits inside a longer one (2,048 in 12,048 or 2,048,512)."""
    before, after = text[:start], text[end:]
    if before[-1:].isdigit() or after[:1].isdigit():
        return False
    for joiner in (",", ".", "_", "{,}", "\\,"):
        if before.endswith(joiner) and before[:-len(joiner)][-1:].isdigit():
            return False
        if after.startswith(joiner) and after[len(joiner):][:1].isdigit():
            return False
    return True


def find_number(text: str, n: int) -> str | None:
    for form in sorted(number_forms(n), key=len, reverse=True):
        for m in re.finditer(re.escape(form), text):
            if whole_at(text, m.start(), m.end()):
                return form
    return None


def significant(x: float, figures: int) -> str:
    return f"{x:.{figures}g}"


def byte_forms(n: int) -> set[tuple[str, str]]:
    """The value in its natural decimal and binary unit: exact when whole (16 MiB), else with two decimals as
    headcount writes it (16.78 MB) and to 3 and 4 significant figures (16.8 MB, 16.78 MB)."""
    out = set()
    for base, names in ((1000, ("KB", "MB", "GB", "TB")), (1024, ("KiB", "MiB", "GiB", "TiB"))):
        level, unit = 0, 1
        while level < len(names) and n >= unit * base:
            unit *= base
            level += 1
        if level == 0:
            continue
        value = Fraction(n, unit)
        if value.denominator == 1:
            numbers = {str(value.numerator)}
        else:
            x = float(value)
            numbers = {f"{x:.2f}", significant(x, 3), significant(x, 4)}
        out |= {(number, names[level - 1]) for number in numbers}
    return out


def find_bytes(text: str, n: int) -> str | None:
    for number, unit in byte_forms(n):
        pattern = r"(?<![\d.,])" + re.escape(number) + r"[ \u00a0\u202f]?" + unit + r"(?![A-Za-z])"
        if m := re.search(pattern, text):
            return m.group(0)
    return None


TUPLE = re.compile(r"[\(\[]\s*(\d+(?:\s*,\s*\d+)+)\s*,?\s*[\)\]]")
TIMES = re.compile(r"\d+(?:\s*[x×]\s*\d+)+")


def find_shape(text: str, shape: tuple) -> str | None:
    for m in TUPLE.finditer(text):
        if tuple(int(a) for a in re.split(r"\s*,\s*", m.group(1))) == shape:
            return m.group(0)
    for m in TIMES.finditer(text):
        if tuple(int(a) for a in re.split(r"\s*[x×]\s*", m.group(0))) == shape:
            return m.group(0)
    return None


def typed_numbers(answer: str) -> set[int]:
    """Every number the student typed: digit runs, and grouped numbers read whole (1,050,624 and 1 050 624)."""
    plain = answer.replace("{,}", ",").replace("\\,", ",")
    for space in ("\u00a0", "\u2009", "\u202f"):
        plain = plain.replace(space, " ")
    found = {int(m) for m in re.findall(r"\d+", plain)}
    found |= {int(re.sub(r"[, _]", "", m)) for m in re.findall(r"\d{1,3}(?:[, _]\d{3})+", plain)}
    return found


def stated_givens(g: dict) -> set[int]:
    return {v for v in g.values() if isinstance(v, int) and not isinstance(v, bool)}


# ----------------------------------------------------------------------------------------------------------------


class Corpus:
    def __init__(self, binary: str, source: str):
        self.binary, self.source = binary, source
        self.failures: dict[str, list[str]] = {}

    def fail(self, kind: str, line: int, row: dict, message: str) -> None:
        where = f"answers.csv:{line}: {row['problem']} ({row['part']})"
        if row["student"]:
            where += f" [student {row['student']}]"
        self.failures.setdefault(kind, []).append(
            f"{where} answer {row['answer']!r}: {message}\n    derivation: {row['derivation']}")

    def run(self, row: dict, *extra: str) -> subprocess.CompletedProcess:
        command = [self.binary, "check", f"problems/{row['problem']}.yaml", "--part", row["part"], "--answer",
                   row["answer"], *extra]
        if row["student"]:
            command += ["--seed", row["seed"], "--student", row["student"]]
        return subprocess.run(command, cwd=self.source, capture_output=True, text=True, timeout=60)


def givens_of(row: dict) -> dict:
    return D.givens(row["problem"], build_corpus.variant(row["problem"], row["student"] or None))


def value_of(row: dict):
    text = row["value"]
    if not text:
        return None
    if text.startswith("("):
        return tuple(int(a) for a in text.strip("()").split(","))
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return Fraction(text)
    return text


def forbidden(row: dict, g: dict, ask: str, expected) -> list[tuple[str, object]]:
    """What the default feedback must not show: ("number", n), ("bytes", n) or ("shape", tuple)."""
    if row["status"] == "unreadable":
        # The help's example must not be the answer to any part of this problem.
        out = []
        for other in D.PROBLEMS[row["problem"]]["parts"].values():
            out += forbidden({**row, "status": "incorrect", "value": ""}, g, other, D.right_answer(g, other))
        return out
    unit = D.all_asks(g)[ask][0]
    if unit == "shape":
        return [("shape", expected)]
    if unit == "term":
        f = D.flops(g)  # a word answer follows from the two counts it compares
        return [("number", f["linear"]), ("number", f["attention"])]
    out = [("number", expected)]
    if unit == "bytes":
        out.append(("bytes", expected))
    value = value_of(row)
    if isinstance(value, (int, Fraction)):
        gap = round(abs(value - expected))
        out.append(("number", gap))
        if unit == "bytes":
            out.append(("bytes", gap))
    return out


def leaks(texts: list[str], row: dict, g: dict, points: list[int], items) -> list[str]:
    answer = row["answer"]
    exempt = typed_numbers(answer) | stated_givens(g) | set(points)
    value = value_of(row)
    if isinstance(value, (int, Fraction)):
        exempt.add(round(value))
    found = []
    for text in texts:
        if answer.strip():
            text = text.replace(answer, " ")  # the answer echoed back is the student's own
        for kind, item in items:
            if kind == "shape":
                hit = find_shape(text, item)
            elif item < 10 or item in exempt:
                continue
            elif kind == "number":
                hit = find_number(text, item)
            else:
                hit = find_bytes(text, item)
                if hit and hit.replace(" ", "").lower() in answer.replace(" ", "").lower():
                    hit = None
            if hit:
                found.append(f"{hit!r} ({kind} {item if kind != 'number' else f'{item:,}'})")
    return sorted(set(found))


def shows(text: str, row: dict, ask_unit: str, expected) -> bool:
    if row["answer"].strip():
        text = text.replace(row["answer"], " ")
    if ask_unit == "shape":
        return find_shape(text, expected) is not None
    if ask_unit == "term":
        return re.search(r"\b" + re.escape(expected) + r"\b", text, re.IGNORECASE) is not None
    return find_number(text, expected) is not None or (ask_unit == "bytes" and find_bytes(text, expected) is not None)


def check_row(corpus: Corpus, line: int, row: dict) -> None:
    g = givens_of(row)
    ask = D.PROBLEMS[row["problem"]]["parts"][row["part"].lower()]
    expected = D.right_answer(g, ask)
    want_status, want_ids = row["status"], set(row["mistakes"].split())

    result = corpus.run(row, "--format", "json")
    try:
        verdict = json.loads(result.stdout)
    except json.JSONDecodeError:
        corpus.fail("no JSON verdict", line, row, f"exit {result.returncode}, stderr: {result.stderr.strip()[:200]}")
        return
    got_status = verdict.get("status")
    got_ids = {m.get("id") for m in verdict.get("mistakes", [])}
    if got_status != want_status or got_ids != want_ids:
        corpus.fail("verdict", line, row, f"expected {want_status} {sorted(want_ids)}, got {got_status} "
                    f"{sorted(got_ids)}" + (f" (reason: {verdict['reason']})" if verdict.get("reason") else ""))
    want_code = 0 if got_status == "correct" else 1
    if result.returncode != want_code:
        corpus.fail("exit status", line, row, f"status {got_status} but exit {result.returncode}")
    if "expected" in verdict:
        corpus.fail("leak", line, row, "the default JSON has an 'expected' key")
    if want_status == "rounded" and got_status == "rounded":
        notes = [m.get("feedback", "") for m in verdict.get("mistakes", []) if m.get("id") == "rounded"]
        if not any(ROUNDED_FEEDBACK.search(n) for n in notes):
            corpus.fail("rounded feedback", line, row, "the feedback does not say how many figures are needed")

    if want_status == "correct":
        return
    text = corpus.run(row)
    texts = [text.stdout, text.stderr, verdict.get("reason", "") or ""]
    for m in verdict.get("mistakes", []):
        texts += [m.get("feedback", ""), m.get("title", "")]
    points = [int(p) for p in (verdict.get("points"),) if isinstance(p, (int, float)) and float(p).is_integer()]
    found = leaks(texts, row, g, points, forbidden(row, g, ask, expected))
    if found:
        corpus.fail("leak", line, row, "the default feedback shows " + ", ".join(found))


def check_reveal(corpus: Corpus, line: int, row: dict) -> None:
    g = givens_of(row)
    ask = D.PROBLEMS[row["problem"]]["parts"][row["part"].lower()]
    expected = D.right_answer(g, ask)
    unit = D.all_asks(g)[ask][0]
    if isinstance(expected, int) and expected < 10:
        return
    result = corpus.run(row, "--reveal")
    if not shows(result.stdout, row, unit, expected):
        corpus.fail("reveal", line, row, f"--reveal does not show the expected value {expected!r} in a form the "
                    "leak test recognises")


def main() -> int:
    args = sys.argv[1:]
    only = None
    if "--only" in args:
        i = args.index("--only")
        only = args[i + 1]
        del args[i:i + 2]
    binary, source = os.path.abspath(args[0]), os.path.abspath(args[1])
    corpus = Corpus(binary, source)

    path = os.path.join(HERE, "corpus", "answers.csv")
    with open(path, encoding="utf-8", newline="") as f:
        data = f.read()
    try:
        written = build_corpus.csv_text()
    except AssertionError as e:
        print(f"FAILED: build_corpus.py: {e}")
        return 1
    if data != written:
        print("FAILED: tests/corpus/answers.csv is not what tests/corpus/build_corpus.py writes: run "
              "`python3 tests/corpus/build_corpus.py` and commit both")
        return 1
    rows = list(csv.DictReader(data.splitlines()))
    numbered = [(i + 2, r) for i, r in enumerate(rows) if only is None or r["problem"] == only]

    reveal_rows, seen = [], set()
    for line, r in numbered:
        key = (r["problem"], r["part"].lower(), r["student"])
        if r["status"] != "correct" and key not in seen:
            seen.add(key)
            reveal_rows.append((line, r))
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        jobs = [pool.submit(check_row, corpus, line, r) for line, r in numbered]
        jobs += [pool.submit(check_reveal, corpus, line, r) for line, r in reveal_rows]
        for job in jobs:
            job.result()

    failed_rows = set()
    for kind in sorted(corpus.failures):
        messages = sorted(corpus.failures[kind], key=lambda m: int(m.split(":")[1]))
        print(f"=== {kind}: {len(messages)}")
        for message in messages:
            print(message)
            failed_rows.add(message.split(":")[1])
    passed = len(numbered) - len(failed_rows)
    print(f"{len(numbered)} answers and {len(reveal_rows)} reveal checks: "
          + ", ".join(f"{len(v)} {k}" for k, v in sorted(corpus.failures.items())) if corpus.failures else
          f"{len(numbered)} answers and {len(reveal_rows)} reveal checks")
    print(f"{passed} passed, {len(failed_rows)} failed")
    return 1 if corpus.failures else 0


if __name__ == "__main__":
    sys.exit(main())
