#!/usr/bin/env python3
"""The README shows what the program prints: its quick start gives a working `headcount` and `man headcount` with the
build folder on PATH, its problem solves as the shipped problems/week3-mha-params.yaml does, its excerpt of the worked
solution is in `headcount solve`'s output, and each `$ headcount ...` of a console block prints what the block shows
(the grade example runs on the shipped examples/).

The README wraps long lines and leaves text out with "[…]", so shown and printed text are compared with their runs of
white space made one space, and "[…]" stands for any text.

Usage: check_readme.py HEADCOUNT_BINARY SOURCE_DIR"""
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

binary, source = os.path.abspath(sys.argv[1]), pathlib.Path(sys.argv[2])
readme = (source / "README.md").read_text(encoding="utf-8")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def flat(text):
    return " ".join(text.split())


def shown_in(shown, printed, whole=False):
    """Whether `shown` is in `printed` (with `whole`, is all of it), where "[…]" in `shown` may stand for any text;
    with white space made one space."""
    pattern = re.escape(flat(shown)).replace(re.escape("[…]"), ".*?")
    match = (re.fullmatch if whole else re.search)(pattern, flat(printed), re.S)
    return match is not None


def headcount(*args):
    return subprocess.run([binary, *args], capture_output=True, text=True, cwd=source)


# Quick start: with the build folder first on PATH (and no MANPATH of one's own), `headcount` is the program and
# `man headcount` finds the page the build wrote beside it.
check('export PATH="$PWD/build:$PATH"' in readme, "the quick start no longer puts build/ on PATH")
environment = {key: value for key, value in os.environ.items() if key != "MANPATH"}
environment["PATH"] = os.path.dirname(binary) + os.pathsep + environment.get("PATH", "")
on_path = subprocess.run(["bash", "-c", "command -v headcount"], capture_output=True, text=True, env=environment)
check(on_path.stdout.strip() == binary, f"headcount on PATH is {on_path.stdout.strip()!r}, not {binary}")
if shutil.which("man") is None:
    failures.append("man (man-db) is not installed; scripts/setup installs it")
else:
    page = subprocess.run(["man", "-w", "headcount"], capture_output=True, text=True, env=environment)
    expected = os.path.join(os.path.dirname(binary), "man", "man1", "headcount.1.gz")
    check(page.returncode == 0 and page.stdout.strip() == expected,
          f"man -w headcount with build/ on PATH: {page.stdout.strip() or page.stderr.strip()!r}, not {expected}")

# The problem the README shows is the shipped one without its vary: the same id, title and answers.
problem = re.search(r"## A problem\n\n```yaml\n(.*?)```", readme, re.S)
check(problem is not None, "the README shows no problem")
if problem:
    with tempfile.TemporaryDirectory() as folder:
        spec = pathlib.Path(folder) / "readme.yaml"
        spec.write_text(problem.group(1), encoding="utf-8")
        shown, shipped = headcount("solve", str(spec), "--format", "json"), headcount(
            "solve", "problems/week3-mha-params.yaml", "--format", "json")
    check(shown.returncode == 0, f"the README's problem does not solve: {shown.stderr.strip()}")
    if shown.returncode == 0 and shipped.returncode == 0:
        check(json.loads(shown.stdout) == json.loads(shipped.stdout),
              "the README's problem and problems/week3-mha-params.yaml solve differently")

# The excerpt of the worked solution: a quote (one level of '>' taken off each line) in `solve`'s output.
excerpt = re.search(r"An excerpt of part \(a\):\n\n((?:>.*\n)+)", readme)
check(excerpt is not None, "the README shows no excerpt of the worked solution")
command = re.search(r"`headcount (solve [^`]*)` prints", readme)
check(command is not None, "the README names no solve command for its excerpt")
if excerpt and command:
    text = "\n".join(re.sub(r"^> ?", "", line) for line in excerpt.group(1).splitlines())
    solved = headcount(*shlex.split(command.group(1)))
    check(solved.returncode == 0, f"headcount {command.group(1)}: {solved.stderr.strip()}")
    check(shown_in(text, solved.stdout), f"the excerpt is not what headcount {command.group(1)} prints")

# Each `$ headcount ...` in a console block, and the lines under it: what the command prints (on stdout, then
# stderr, as a terminal shows both), run in a scratch folder that has the checkout's problems/ and examples/, so that
# what a command writes (grade's --out) lands there.
runs = 0
with tempfile.TemporaryDirectory() as scratch:
    for folder in ("problems", "examples"):
        os.symlink(source / folder, os.path.join(scratch, folder))
    for block in re.findall(r"```console\n(.*?)```", readme, re.S):
        for run in re.split(r"^(?=\$ )", block, flags=re.M):
            if not run.startswith("$ headcount "):
                continue
            line, _, shown = run.partition("\n")
            printed = subprocess.run([binary, *shlex.split(line[len("$ headcount "):])], capture_output=True,
                                     text=True, cwd=scratch)
            check(shown_in(shown, printed.stdout + printed.stderr, whole=True),
                  f"{line}: prints\n{printed.stdout}{printed.stderr}")
            runs += 1
check(runs >= 1, "the README has no console example")

for failure in failures:
    print("FAIL:", failure)
print("README:", "stale" if failures else f"quick start, problem, excerpt and {runs} console example(s) match")
sys.exit(1 if failures else 0)
