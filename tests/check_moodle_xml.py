#!/usr/bin/env python3
"""Checks headcount's Moodle XML question bank against the structure Moodle's XML import expects.

Usage: check_moodle_xml.py HEADCOUNT_BINARY SOURCE_DIR. Generates the shipped week-3 problem for the sample
roster in both formats and checks: the file is well-formed UTF-8 XML with a <quiz> root; every question is a
category or a numerical question with name, questiontext, generalfeedback, defaultgrade and answers; each
answer has text, tolerance and feedback and a fraction Moodle accepts; exactly one 100% answer, and it equals
key.csv's answer for that student and part (the two formats agree); a catch-all '*' answer comes last.
"""
import csv
import os
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
        common = ["problems/week3-mha-params.yaml", "--roster", "tests/class/roster.csv", "--seed", "fall-2026"]
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
    numerical = 0
    for question in root:
        if question.tag != "question":
            fail(f"unexpected <{question.tag}> under <quiz>")
        kind = question.get("type")
        if kind == "category":
            category = question.findtext("category/text")
            if not category or not category.startswith("$course$/"):
                fail(f"category text {category!r}")
            continue
        if kind != "numerical":
            fail(f"question type {kind!r}")
        if category is None:
            fail("a question before any category")
        numerical += 1
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
            for path in ("text", "tolerance", "feedback/text"):
                if answer.find(path) is None:
                    fail(f"{name}: an answer has no {path}")
        right = [a.findtext("text") for a in answers if a.get("fraction") == "100"]
        if right != [key[(student, problem, part)]]:
            fail(f"{name}: 100% answer {right} but key.csv says {key[(student, problem, part)]}")
        if answers[-1].findtext("text") != "*":
            fail(f"{name}: the catch-all answer is not last")
    if numerical != len(key):
        fail(f"{numerical} numerical questions for {len(key)} key rows")
    print(f"moodle xml: {numerical} numerical questions checked")


if __name__ == "__main__":
    main()
