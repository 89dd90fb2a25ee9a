#!/usr/bin/env python3
"""A grade run killed at any moment leaves either the previous results or the complete new ones (issue 10).

Usage: grade_interrupted.py HEADCOUNT_BINARY SOURCE_DIR. Grades class A into OUT, then grades class B into OUT and
kills it (SIGKILL, no chance to clean up) after a different delay each time; OUT must then hold exactly A's files
or exactly B's (B's are made once, undisturbed, in another folder to compare with). The next run must remove the
killed run's staging folder.
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

binary, source = sys.argv[1], sys.argv[2]
spec = os.path.join(source, "problems", "week3-mha-params.yaml")


def make_class(path, students, answer):
    with open(path, "w") as out:
        out.write("student,problem,part,answer\n")
        for i in range(students):
            out.write(f"s{i:05d},week3-mha-params,a,{answer}\ns{i:05d},week3-mha-params,b,1050624\n")


def tree(folder):
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, folder)] = f.read()
    return files


def grade(csv, out):
    subprocess.run([binary, "grade", spec, "--submissions", csv, "--out", out], check=True,
                   stderr=subprocess.DEVNULL)


work = tempfile.mkdtemp()
try:
    a, b = os.path.join(work, "a.csv"), os.path.join(work, "b.csv")
    make_class(a, 3000, "787968")  # everyone right on (a)
    make_class(b, 4000, "1050624")  # a different class: more students, (a) wrong
    grade(a, os.path.join(work, "expected-a"))
    grade(b, os.path.join(work, "expected-b"))
    old, new = tree(os.path.join(work, "expected-a")), tree(os.path.join(work, "expected-b"))
    # How long an undisturbed run takes, so the kills land before, during and after each phase.
    started = time.monotonic()
    grade(b, os.path.join(work, "timing"))
    full = time.monotonic() - started
    random.seed(10)
    out = os.path.join(work, "out")
    seen = {"old": 0, "new": 0}
    for attempt in range(12):
        shutil.rmtree(out, ignore_errors=True)
        grade(a, out)
        child = subprocess.Popen([binary, "grade", spec, "--submissions", b, "--out", out], stderr=subprocess.DEVNULL)
        time.sleep(random.uniform(0, full * 1.6))
        child.send_signal(signal.SIGKILL)
        child.wait()
        left = {k: v for k, v in tree(out).items() if not k.startswith(".headcount-staging-")}
        if left == old:
            seen["old"] += 1
        elif left == new:
            seen["new"] += 1
        else:
            print(f"FAILED: attempt {attempt}: the results are a mix of both runs")
            sys.exit(1)
    # A later run removes what the killed one left behind.
    grade(a, out)
    stale = [n for n in os.listdir(out) if n.startswith(".headcount-staging-")]
    if stale:
        print(f"FAILED: stale staging folders left: {stale}")
        sys.exit(1)
    if tree(out) != old:
        print("FAILED: the last run's results are not class A's")
        sys.exit(1)
    print(f"ok: 12 kills, {seen['old']} left the previous results, {seen['new']} the complete new ones")
finally:
    shutil.rmtree(work, ignore_errors=True)
