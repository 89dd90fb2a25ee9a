#!/usr/bin/env python3
"""Checks headcount's Moodle question bank the way Moodle's XML import and Cloze (multianswer) parser read it.

Usage: check_moodle_xml.py HEADCOUNT_BINARY SOURCE_DIR.

Moodle itself is not available here, so the bank is read by a real XML parser (xml.etree) and every Cloze
subquestion by the small parser below, written from Moodle's documented grammar for embedded answers:
{weight:TYPE:alternative~alternative~...}, an alternative being [=|%percent%]answer[#feedback], a NUMERICAL answer
being value[:tolerance], '\\' escaping the next character, and the answer and feedback text HTML-decoded when
Moodle stores it. Expected values come from formulas written here (week 3's block: 3d^2 + 3d and 4d^2 + 4d with
biases), from key.csv (generate's markdown format, checked elsewhere against solve), and from the README's rounding
rule, never from the bank under test.
"""
import csv
import html
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

TYPES = {"NUMERICAL": "numerical", "NM": "numerical", "SHORTANSWER": "shortanswer", "SA": "shortanswer",
         "MW": "shortanswer", "SHORTANSWER_C": "shortanswer", "SAC": "shortanswer", "MWC": "shortanswer",
         "MULTICHOICE": "multichoice", "MC": "multichoice", "MULTICHOICE_V": "multichoice", "MCV": "multichoice",
         "MULTICHOICE_H": "multichoice", "MCH": "multichoice"}
NUMBER = r"-?(?:[0-9]+[.,]?[0-9]*|[.,][0-9]+)(?:[eE][-+]?[0-9]+)?"


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def parse_cloze(text):
    """The subquestions of a Cloze question text: [(weight, type, [(percent, answer, feedback)])], left to right,
    and the text with each replaced by {#n}. Raises ValueError on text the grammar does not allow."""
    subquestions, rest, i = [], [], 0
    start = re.compile(r"\{([0-9]*):([A-Z_]+):")
    while True:
        m = start.search(text, i)
        if not m or m.group(2) not in TYPES:
            if m:  # a brace that is not a subquestion, e.g. TeX's d_{model}
                rest.append(text[i:m.end()])
                i = m.end()
                continue
            rest.append(text[i:])
            break
        rest.append(text[i:m.start()])
        j = m.end()
        alternatives, field, parts, escaped = [], [], [], False
        while True:
            if j >= len(text):
                raise ValueError(f"subquestion at {m.start()} never closes")
            c = text[j]
            j += 1
            if escaped:
                field.append(c)
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == "#" and not parts and not "".join(field).endswith("&"):
                parts.append("".join(field))
                field = []
            elif c in "~}":
                parts.append("".join(field))
                field = []
                alternatives.append(parts)
                parts = []
                if c == "}":
                    break
            else:
                field.append(c)
        parsed = []
        for alt in alternatives:
            answer, feedback = alt[0], (alt[1] if len(alt) > 1 else "")
            pm = re.match(r"(=|%(-?[0-9]+(?:[.,][0-9]*)?)%)?(.*)$", answer, re.S)
            percent = 100.0 if pm.group(1) == "=" else float(pm.group(2).replace(",", ".")) if pm.group(2) else 0.0
            body = pm.group(3)
            if not body:
                raise ValueError(f"an empty answer in subquestion at {m.start()}")
            parsed.append((percent, html.unescape(body), html.unescape(feedback)))
        subquestions.append((int(m.group(1) or 1), TYPES[m.group(2)], parsed))
        rest.append("{#%d}" % len(subquestions))
        i = j
    return subquestions, "".join(rest)


def sig_roundings(value):
    """Every k-figure rounding of value that the README calls a rounding (2 <= k < digits), as integers."""
    digits = len(str(value))
    out = {}
    for k in range(2, digits):
        place = 10 ** (digits - k)
        low = value // place * place
        for candidate in (low, low + place):
            if candidate != value and 2 * abs(candidate - value) <= place:
                out.setdefault(candidate, k)
    return out


def run(binary, source, *args):
    result = subprocess.run([binary, *args], cwd=source, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"headcount {' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    return data, ET.fromstring(data)


def check_bank(root, key_rows=None, names=()):
    """Structure shared by every bank; returns {category: [question elements]}."""
    if root.tag != "quiz":
        fail(f"root element is <{root.tag}>, not <quiz>")
    categories, current = {}, None
    for question in root:
        if question.tag != "question":
            fail(f"unexpected <{question.tag}> under <quiz>")
        kind = question.get("type")
        if kind == "category":
            current = question.findtext("category/text")
            if not current or not current.startswith("$course$/top/headcount/"):
                fail(f"category text {current!r}")
            if current in categories:
                fail(f"category {current} twice")
            categories[current] = []
            continue
        if kind != "cloze":
            fail(f"question type {kind!r}: every question should be one Cloze question per variant")
        if current is None:
            fail("a question before any category")
        for path in ("name/text", "questiontext/text", "generalfeedback/text"):
            if not (question.findtext(path) or "").strip():
                fail(f"missing {path}")
        if question.find("questiontext").get("format") != "html":
            fail("question text is not HTML")
        text = question.findtext("questiontext/text")
        if re.search(r"(?<![\\$])\$[^$\s][^$]*\$", text):
            fail(f"{question.findtext('name/text')}: $...$ math left in the question text")
        for name in names:
            if re.search(r"\b" + re.escape(name) + r"\b", text + question.findtext("name/text")):
                fail(f"student name or id {name!r} in a question")
        try:
            subquestions, _ = parse_cloze(text)
        except ValueError as e:
            fail(f"{question.findtext('name/text')}: {e}")
        for weight, kind, answers in subquestions:
            full = [a for a in answers if a[0] == 100]
            if not full:
                fail(f"{question.findtext('name/text')}: a subquestion without a 100% answer")
            if any(not 0 <= a[0] <= 100 for a in answers):
                fail("a grade outside 0..100%")
            if kind == "numerical":
                for percent, answer, _ in answers:
                    if answer != "*" and not re.fullmatch(NUMBER + "(?::" + NUMBER + ")?", answer):
                        fail(f"numerical answer {answer!r} is not value[:tolerance]")
            if kind != "multichoice" and answers[-1][1] != "*":
                fail("the catch-all '*' answer is not last")
        categories[current].append((question, subquestions))
    return categories


def main():
    binary, source = sys.argv[1], sys.argv[2]
    specs = ["problems/week3-mha-params.yaml", "problems/mha-shapes-memory.yaml", "problems/mha-flops-long-context.yaml"]
    roster = ["--roster", "tests/class/roster.csv", "--seed", "fall-2026"]
    with open(os.path.join(source, "tests/class/roster.csv"), newline="") as f:
        people = list(csv.DictReader(f))
    names = [p[c] for p in people for c in ("student", "email")] + [w for p in people for w in p["name"].split()]
    with tempfile.TemporaryDirectory() as out:
        run(binary, source, "generate", *specs, *roster, "--out", f"{out}/md")
        run(binary, source, "generate", *specs, *roster, "--out", f"{out}/class", "--format", "moodle-xml")
        run(binary, source, "generate", "problems/week3-mha-params.yaml", "--variants", "30", "--seed", "s1",
            "--out", f"{out}/all", "--format", "moodle-xml")
        run(binary, source, "generate", "problems/week3-mha-params.yaml", "--variants", "30", "--seed", "s1",
            "--out", f"{out}/again", "--format", "moodle-xml")
        # Partial credit set in the spec: half for forgetting the biases, a quarter for a rounding.
        spec = os.path.join(out, "credit.yaml")
        with open(spec, "w") as f:
            f.write("id: credit\ntitle: Partial credit\ngiven: {d_model: 512, h: 8, bias: true}\nfeedback: hints\n"
                    "parts:\n  - id: b\n    ask: total_params\n    points: 1.5\n"
                    "    credit: {missing_biases: 0.5, rounded: 0.25}\n")
        run(binary, source, "generate", spec, "--variants", "1", "--seed", "s", "--out", f"{out}/credit",
            "--format", "moodle-xml")
        with open(f"{out}/md/key.csv", newline="", encoding="utf-8") as f:
            key = list(csv.DictReader(f))
        class_bytes, class_root = load(f"{out}/class/questions.xml")
        all_bytes, all_root = load(f"{out}/all/questions.xml")
        again_bytes, _ = load(f"{out}/again/questions.xml")
        _, credit_root = load(f"{out}/credit/questions.xml")

    if all_bytes != again_bytes:
        fail("the same seed gave different banks")

    # A class bank: one category per problem, every student's variant present, its right answers key.csv's.
    categories = check_bank(class_root, names=names)
    if sorted(categories) != sorted(f"$course$/top/headcount/{p}" for p in
                                    ("week3-mha-params", "mha-shapes-memory", "mha-flops-long-context")):
        fail(f"categories {sorted(categories)}")
    checked = 0
    for row_problem in ("week3-mha-params", "mha-shapes-memory", "mha-flops-long-context"):
        questions = categories[f"$course$/top/headcount/{row_problem}"]
        students = {r["student"] for r in key if r["problem"] == row_problem}
        for student in students:
            rows = [r for r in key if r["student"] == student and r["problem"] == row_problem]
            givens = {g: rows[0][g] for g in ("d_model", "h", "bias") if rows[0].get(g)}
            wanted = ", ".join(f"{g} = {v}" for g, v in givens.items())
            match = [q for q in questions if (not wanted or q[0].findtext("name/text").endswith(": " + wanted))]
            if len(match) != 1:
                fail(f"{student}'s variant of {row_problem} ({wanted}) is {len(match)} questions")
            subquestions = match[0][1]
            if len(subquestions) != len(rows):
                fail(f"{row_problem}: {len(subquestions)} subquestions for {len(rows)} parts")
            for (weight, kind, answers), row in zip(subquestions, rows):
                right = [a[1] for a in answers if a[0] == 100]
                if kind == "numerical":
                    if [r.split(":")[0] for r in right] != [row["answer"]]:
                        fail(f"{row_problem} ({row['part']}): right answer {right}, key.csv {row['answer']}")
                elif kind == "shortanswer":
                    if row["answer"] not in right:
                        fail(f"{row_problem} ({row['part']}): key.csv's {row['answer']} not among {right}")
                elif right != [row["answer"]]:
                    fail(f"{row_problem} ({row['part']}): right choice {right}, key.csv {row['answer']}")
                checked += 1

    # A drawn bank of week 3: 30 variants (all valid ones), each checked against the formulas and the rounding rule.
    categories = check_bank(all_root)
    questions = categories["$course$/top/headcount/week3-mha-params"]
    if len(questions) != 30:  # 5 widths x 3 head counts x 2 bias settings, all valid
        fail(f"{len(questions)} week-3 variants, expected 30")
    seen = set()
    for question, subquestions in questions:
        name = question.findtext("name/text")
        m = re.search(r"d_model = (\d+), h = (\d+), bias = (true|false)$", name)
        if not m:
            fail(f"question name {name!r} does not say its numbers")
        d, h, bias = int(m.group(1)), int(m.group(2)), m.group(3) == "true"
        seen.add((d, h, bias))
        text = question.findtext("questiontext/text")
        if "\\(d_{model}\\)" not in text or f">{d:,}<" not in text:
            fail(f"{name}: the question does not show d_model = {d} with \\(...\\) math")
        qkv, total = 3 * d * d + (3 * d if bias else 0), 4 * d * d + (4 * d if bias else 0)
        (wa, ka, answers_a), (wb, kb, answers_b) = subquestions
        if (wa, wb) != (2, 3) or (ka, kb) != ("numerical", "numerical"):
            fail(f"{name}: weights {(wa, wb)} types {(ka, kb)}; the spec gives 2 and 3 points")
        for value, answers in ((qkv, answers_a), (total, answers_b)):
            right = [a for a in answers if a[0] == 100]
            if [a[1] for a in right] != [f"{value}:0"]:
                fail(f"{name}: right answer {[a[1] for a in right]}, expected {value} exactly")
            listed = {int(a[1].split(":")[0]): a for a in answers if a[1] != "*"}
            halves = {v for v, a in listed.items() if a[0] == 50}
            roundings = sig_roundings(value)
            # Every rounding the README's rule accepts is half credit, unless a mistake gives that very number.
            for r in roundings:
                if r not in listed:
                    fail(f"{name}: {value} rounded to {r} is not an answer")
            for v in halves:
                if v not in roundings:
                    fail(f"{name}: {v} gets half credit but is not a rounding of {value}")
                if "significant figure" not in listed[v][2]:
                    fail(f"{name}: the rounding {v} is not explained: {listed[v][2][:80]!r}")
            if bias:  # forgetting every bias: 3d^2 / 4d^2, no credit by default, named
                missing = value - (3 * d if value == qkv else 4 * d)
                if missing not in listed or listed[missing][0] != 0 or "bias" not in listed[missing][2].lower():
                    fail(f"{name}: {missing} (biases left out) is not a 0% answer about biases")
            # Feedback follows the default reveal policy (hints): no expected value, with or without separators.
            for percent, answer, feedback in answers:
                if percent < 100 and (str(value) in feedback or f"{value:,}" in feedback):
                    fail(f"{name}: feedback for {answer} shows the expected value {value}")
    if len(seen) != 30:
        fail(f"{len(seen)} different week-3 variants in a bank of 30")

    # Credits set in the spec reach Moodle: 1.5 points become weight 3 (Cloze weights are integers).
    (question, subquestions), = check_bank(credit_root)["$course$/top/headcount/credit"]
    (weight, _, answers), = subquestions
    total = 4 * 512 * 512 + 4 * 512
    listed = {a[1].split(":")[0]: a[0] for a in answers}
    if weight != 3 or listed.get(str(4 * 512 * 512)) != 50 or listed.get("1050000") != 25:
        fail(f"partial credit: weight {weight}, biases {listed.get(str(4 * 512 * 512))}%, "
             f"1050000 {listed.get('1050000')}% (expected 3, 50, 25 for {total})")
    print(f"moodle xml: {checked} class answers against key.csv, 30 week-3 variants against the formulas, "
          f"rounding and credit checked; banks are byte-identical for the same seed")


if __name__ == "__main__":
    main()
