#!/usr/bin/env python3
"""Checks headcount's Moodle XML question bank against the structure Moodle's XML import expects.

Usage: check_moodle_xml.py HEADCOUNT_BINARY SOURCE_DIR. Generates shipped problems (counts, shapes and a word
answer) for the sample roster in both formats and checks: the file is well-formed UTF-8 XML with a <quiz> root;
every question is a category or a numerical, shortanswer or multichoice question with name, questiontext,
generalfeedback, defaultgrade and answers; each answer has text and feedback and a fraction Moodle accepts, and a
numerical answer a tolerance; the 100% answers agree with key.csv for that student and part (numerical and
multichoice: exactly one, equal to it; shortanswer: the key's form is among them, and every one is the same shape
written another way); numerical and shortanswer questions end with a catch-all '*' answer; multichoice offers
each word once.
"""
import csv
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

# Moodle's answer grade options (question/type/edit_question_form.php), in percent.
ALLOWED = {"100", "90", "83.33333", "80", "75", "70", "66.66667", "60", "50", "40", "33.33333", "30", "25", "20",
           "16.66667", "14.28571", "12.5", "11.11111", "10", "5", "0"}


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def main():
    binary, source = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as out:
        common = ["problems/week3-mha-params.yaml", "problems/mha-shapes-memory.yaml",
                  "problems/mha-flops-long-context.yaml", "--roster", "tests/class/roster.csv", "--seed", "fall-2026"]
        for fmt, folder in (("moodle-xml", "xml"), ("markdown", "md")):
            run = subprocess.run([binary, "generate", *common, "--out", os.path.join(out, folder), "--format", fmt],
                                 cwd=source, capture_output=True, text=True)
            if run.returncode != 0:
                fail(f"generate --format {fmt} exited {run.returncode}: {run.stderr}")
        with open(os.path.join(out, "md", "key.csv"), newline="", encoding="utf-8") as f:
            key = {(r["student"], r["problem"], r["part"]): r["answer"] for r in csv.DictReader(f)}
        root = ET.parse(os.path.join(out, "xml", "questions.xml")).getroot()

    if root.tag != "quiz":
        fail(f"root element is <{root.tag}>, not <quiz>")
    category = None
    questions = {"numerical": 0, "shortanswer": 0, "multichoice": 0}
    for question in root:
        if question.tag != "question":
            fail(f"unexpected <{question.tag}> under <quiz>")
        kind = question.get("type")
        if kind == "category":
            category = question.findtext("category/text")
            if not category or not category.startswith("$course$/"):
                fail(f"category text {category!r}")
            continue
        if kind not in questions:
            fail(f"question type {kind!r}")
        if category is None:
            fail("a question before any category")
        questions[kind] += 1
        name = question.findtext("name/text")
        for path in ("questiontext/text", "generalfeedback/text", "defaultgrade"):
            if not (question.findtext(path) or "").strip():
                fail(f"{name}: missing {path}")
        problem_part, student = name.split(" — ")
        problem, part = problem_part[:-4], problem_part[-2]
        answers = question.findall("answer")
        if len(answers) < 2:
            fail(f"{name}: {len(answers)} answers")
        for answer in answers:
            if answer.get("fraction") not in ALLOWED:
                fail(f"{name}: fraction {answer.get('fraction')} is not one Moodle accepts")
            for path in ("text", "feedback/text") + (("tolerance",) if kind == "numerical" else ()):
                if answer.find(path) is None:
                    fail(f"{name}: an answer has no {path}")
        expected = key[(student, problem, part)]
        right = [a.findtext("text") for a in answers if a.get("fraction") == "100"]
        if kind == "shortanswer":
            if expected not in right or len({axes(r) for r in right}) != 1:
                fail(f"{name}: 100% answers {right} are not all key.csv's shape {expected}")
        elif right != [expected]:
            fail(f"{name}: 100% answer {right} but key.csv says {expected}")
        texts = [a.findtext("text") for a in answers]
        if kind == "multichoice":
            if len(texts) != len(set(texts)):
                fail(f"{name}: a word offered twice: {texts}")
        elif texts[-1] != "*":
            fail(f"{name}: the catch-all answer is not last")
    if sum(questions.values()) != len(key) or 0 in questions.values():
        fail(f"questions {questions} for {len(key)} key rows (every type expected)")
    print(f"moodle xml: {questions} checked")


def axes(text):
    """The numbers of a shape however it is written: (32, 8) -> (32, 8); torch.Size([32, 8]) -> (32, 8)."""
    return tuple(int(t) for t in re.findall(r"[0-9]+", text.replace("torch.Size", "")))


if __name__ == "__main__":
    main()
