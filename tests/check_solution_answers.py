"""Issue 39: a worked solution's own answer, typed back into `check`, is correct. For every shipped problem and
every part, the text of the solution's "**Answer: ...**" line (a count with its noun, bytes, a shape, a word, or a
value stated to four figures as "about 25.36 days"; for a part that asks for a formula, the formula as typed) is typed as the student would copy it, and `check` must say
correct. The answers are read from the solution's Markdown, not from any JSON the grader shares. The same is done
for three students' variants of every problem (`generate --roster` with three students; each answer typed back with
`check --seed --student`), so a variant's numbers are held to the same rule.

Usage: check_solution_answers.py HEADCOUNT_BINARY SOURCE_DIR"""
import glob
import json
import os
import re
import subprocess
import sys

binary, source = sys.argv[1], sys.argv[2]


def typed_answers(solution):
    """Each part's answer as the solution gives it: its "**Answer: ...**" line, or for a part that asks for a formula
    (answer: formula) the formula as typed, the code block after "**As a formula in the givens"."""
    out = []
    for section in re.split(r"^## Part \([^)]+\)", solution, flags=re.M)[1:]:
        formula = re.search(r"\*\*As a formula in the givens.*?```text\n(.*?)\n```", section, re.S)
        answer = re.search(r"\*\*Answer: (.*?)\.\*\*", section)
        if formula:
            out.append(formula.group(1))
        elif answer:
            out.append(answer.group(1))
    return out


failures = []
checked = 0
for spec in sorted(glob.glob(os.path.join(source, "problems", "*.yaml"))):
    solution = subprocess.run([binary, "solve", spec], capture_output=True, text=True, cwd=source)
    if solution.returncode != 0:
        failures.append(f"{spec}: solve failed: {solution.stderr.strip()}")
        continue
    parts = re.findall(r"^## Part \(([^)]+)\)", solution.stdout, re.M)
    answers = typed_answers(solution.stdout)
    if len(parts) != len(answers):
        failures.append(f"{spec}: {len(parts)} parts but {len(answers)} answer lines")
        continue
    for part, answer in zip(parts, answers):
        run = subprocess.run([binary, "check", spec, "--part", part, "--answer", answer, "--format", "json"],
                             capture_output=True, text=True, cwd=source)
        checked += 1
        status = json.loads(run.stdout)["status"] if run.stdout else f"no output ({run.stderr.strip()})"
        if status != "correct":
            failures.append(f"{os.path.basename(spec)} ({part}): the solution's answer {answer!r} is {status}")

# Three variants of each problem: every worked solution `generate` writes for three students.
import shutil
import tempfile

# A problem's id is its spec's `id:`, which need not be its file's name.
spec_of = {}
for spec in glob.glob(os.path.join(source, "problems", "*.yaml")):
    named = re.search(r"^id:\s*(\S+)", open(spec).read(), re.M)
    if named:
        spec_of[named.group(1)] = spec
out = tempfile.mkdtemp(prefix="typed-back-")
try:
    roster = os.path.join(out, "roster.csv")
    with open(roster, "w") as f:
        f.write("student\nava\nben\ncy\n")
    seed = "typed-back"
    made = subprocess.run([binary, "generate", os.path.join(source, "problems"), "--roster", roster, "--seed", seed,
                           "--out", os.path.join(out, "class")], capture_output=True, text=True, cwd=source)
    if made.returncode != 0:
        failures.append(f"generate failed: {made.stderr.strip()}")
    for student in ("ava", "ben", "cy"):
        path = os.path.join(out, "class", student, "solutions.md")
        text = open(path).read() if os.path.exists(path) else ""
        if not text:
            failures.append(f"{student}: no solutions.md")
        # Each problem's solution starts at its title; its id is on the line after.
        for block in re.split(r"^# ", text, flags=re.M)[1:]:
            found = re.search(r"problem `([^`]+)`", block)
            if not found:
                continue
            spec = spec_of.get(found.group(1), found.group(1))
            parts = re.findall(r"^## Part \(([^)]+)\)", block, re.M)
            answers = typed_answers(block)
            if len(parts) != len(answers):
                failures.append(f"{student} {found.group(1)}: {len(parts)} parts but {len(answers)} answer lines")
                continue
            for part, answer in zip(parts, answers):
                run = subprocess.run([binary, "check", spec, "--seed", seed, "--student", student, "--part", part,
                                      "--answer", answer, "--format", "json"],
                                     capture_output=True, text=True, cwd=source)
                checked += 1
                status = json.loads(run.stdout)["status"] if run.stdout else f"no output ({run.stderr.strip()})"
                if status != "correct":
                    failures.append(f"{student}'s {found.group(1)} ({part}): the solution's answer {answer!r} is "
                                    f"{status}")
finally:
    shutil.rmtree(out, ignore_errors=True)

for failure in failures:
    print("FAIL:", failure)
print(f"{checked} answers typed back: {'wrong' if failures else 'all correct'}")
sys.exit(1 if failures or checked == 0 else 0)
