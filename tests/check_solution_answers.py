"""Issue 39: a worked solution's own answer, typed back into `check`, is correct. For every shipped problem and
every part, the text of the solution's "**Answer: ...**" line (a count with its noun, bytes, a shape, a word, or a
value stated to four figures as "about 25.36 days") is typed as the student would copy it, and `check` must say
correct. The answers are read from the solution's Markdown, not from any JSON the grader shares.

Usage: check_solution_answers.py HEADCOUNT_BINARY SOURCE_DIR"""
import glob
import json
import os
import re
import subprocess
import sys

binary, source = sys.argv[1], sys.argv[2]
failures = []
checked = 0
for spec in sorted(glob.glob(os.path.join(source, "problems", "*.yaml"))):
    solution = subprocess.run([binary, "solve", spec], capture_output=True, text=True, cwd=source)
    if solution.returncode != 0:
        failures.append(f"{spec}: solve failed: {solution.stderr.strip()}")
        continue
    parts = re.findall(r"^## Part \(([^)]+)\)", solution.stdout, re.M)
    answers = re.findall(r"\*\*Answer: (.*?)\.\*\*", solution.stdout)
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

for failure in failures:
    print("FAIL:", failure)
print(f"{checked} answers typed back: {'wrong' if failures else 'all correct'}")
sys.exit(1 if failures or checked == 0 else 0)
