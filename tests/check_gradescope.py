#!/usr/bin/env python3
"""Runs headcount's Gradescope autograder end to end in a folder standing in for /autograder, with nothing built.

Usage: check_gradescope.py HEADCOUNT_BINARY SOURCE_DIR WORK_DIR.

Gradescope is not available here. This does what its harness does, as its autograder specification describes:
unpacks autograder.zip into WORK_DIR/autograder/source, runs its setup.sh (which must install and build nothing: the
zip carries headcount itself, a static program), then for each submission fills submission/ and
submission_metadata.json, runs run_autograder with HEADCOUNT_AUTOGRADER_ROOT pointing at the folder, and validates
results/results.json against the specification's documented fields. The program in the zip must be static (ldd) and
must grade with nothing outside the autograder folder: one submission is graded again inside a chroot of that folder
alone (no /usr, no /lib, no build tree), and must give the same results.json. Expected scores come from key.csv
(generate's markdown format) and the spec's points; the wrong answers are derived from the mistakes of docs/grading.md (the
heads and sequence axes swapped; every bias left out: 4 d_model^2). A dynamically linked HEADCOUNT_BINARY (the
sanitizer build) must be refused with the reason; the rest is then skipped (exit 77).
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

TOP = {"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format",
       "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
TEST = {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format", "tags",
        "visibility", "extra_data"}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
# The specs' points: week 3's parts a and b; mha-shapes-memory's a to e.
POINTS = {("week3-mha-params", "a"): 2, ("week3-mha-params", "b"): 3, ("mha-shapes-memory", "a"): 1,
          ("mha-shapes-memory", "b"): 1, ("mha-shapes-memory", "c"): 1, ("mha-shapes-memory", "d"): 2,
          ("mha-shapes-memory", "e"): 1}


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def validate(results):
    """results.json as Gradescope's autograder specification documents it."""
    if not isinstance(results, dict) or set(results) - TOP:
        fail(f"results.json has undocumented fields {set(results) - TOP}")
    if "score" not in results and not all("score" in t for t in results.get("tests", [])):
        fail("no top-level score and a test without one")
    for field in ("output_format", "test_output_format", "test_name_format"):
        if field in results and results[field] not in FORMATS:
            fail(f"{field} {results[field]!r}")
    for field in ("visibility", "stdout_visibility"):
        if field in results and results[field] not in VISIBILITY:
            fail(f"{field} {results[field]!r}")
    if not isinstance(results.get("tests", []), list):
        fail("tests is not a list")
    for test in results.get("tests", []):
        if set(test) - TEST:
            fail(f"a test has undocumented fields {set(test) - TEST}")
        for field in ("score", "max_score"):
            if field in test and not isinstance(test[field], (int, float)):
                fail(f"test {field} {test[field]!r} is not a number")
        if test.get("status", "passed") not in {"passed", "failed"}:
            fail(f"test status {test['status']!r}")
        if test.get("output_format", "text") not in FORMATS or test.get("visibility", "visible") not in VISIBILITY:
            fail("a test's output_format or visibility is not a documented value")
        if not isinstance(test.get("name", ""), str) or not isinstance(test.get("output", ""), str):
            fail("a test's name or output is not text")
    if "score" in results and results.get("tests"):
        total = sum(t.get("score", 0) for t in results["tests"])
        if abs(total - results["score"]) > 1e-9:
            fail(f"top-level score {results['score']} but the tests add to {total}")


def autograde(root, files, email):
    """One submission: submission/ holds `files`, the metadata names `email`; returns results.json."""
    for folder in ("submission", "results", "work"):
        shutil.rmtree(os.path.join(root, folder), ignore_errors=True)
    os.makedirs(os.path.join(root, "submission"))
    for name, text in files.items():
        with open(os.path.join(root, "submission", name), "w", encoding="utf-8") as f:
            f.write(text)
    metadata = {"id": 123456, "created_at": "2026-09-01T14:22:32.365935-07:00",
                "assignment": {"id": 25828, "title": "Week 3", "total_points": "11.0"},
                "submission_method": "upload",
                "users": [{"email": email, "id": 1234, "name": "Student User"}], "previous_submissions": []}
    with open(os.path.join(root, "submission_metadata.json"), "w") as f:
        json.dump(metadata, f)
    env = dict(os.environ, HEADCOUNT_AUTOGRADER_ROOT=root)
    run = subprocess.run([os.path.join(root, "source", "run_autograder")], cwd=root, env=env, capture_output=True,
                         text=True)
    if run.returncode != 0:
        fail(f"run_autograder exited {run.returncode}: {run.stderr}")
    with open(os.path.join(root, "results", "results.json")) as f:
        results = json.load(f)
    validate(results)
    return results


def grade_in_chroot(root):
    """Grades the submission in `root` again with the zip's headcount in a chroot of `root` alone, as
    run_autograder does, and compares results.json; says how it went (skipped where chroot is not allowed)."""
    jail = [] if os.geteuid() == 0 else ["unshare", "--user", "--map-root-user"]
    if jail and subprocess.run([*jail, "true"], capture_output=True).returncode != 0:
        return "the chroot run was skipped (neither root nor user namespaces here)"
    headcount = [*jail, "chroot", root, "/source/headcount"]
    steps = [["answers", "/source/problems", "--submission", "/submission", "--out", "/work/alone.csv",
              "--gradescope-metadata", "/submission_metadata.json", "--roster", "/source/roster.csv"],
             ["grade", "/source/problems", "--submissions", "/work/alone.csv", "--format", "gradescope", "--out",
              "/alone", "--seed", "fall-2026", "--roster", "/source/roster.csv"]]
    for step in steps:
        run = subprocess.run([*headcount, *step], capture_output=True, text=True,
                             env={"PATH": os.environ.get("PATH", "")})
        if run.returncode != 0:
            fail(f"the zip's headcount {step[0]} in a chroot of the autograder folder exited {run.returncode}: "
                 f"{run.stderr}")
    with open(os.path.join(root, "alone", "results.json"), "rb") as a, \
            open(os.path.join(root, "results", "results.json"), "rb") as b:
        if a.read() != b.read():
            fail("in a chroot of the autograder folder, headcount graded bob differently")
    shutil.rmtree(os.path.join(root, "alone"))
    return "in a chroot of the autograder folder alone (no /usr, /lib or build tree) it graded the same"


def main():
    binary, source, work = sys.argv[1], sys.argv[2], sys.argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    specs = ["problems/week3-mha-params.yaml", "problems/mha-shapes-memory.yaml"]
    seed = ["--seed", "fall-2026", "--roster", "tests/class/roster.csv"]
    ldd = subprocess.run(["ldd", binary], capture_output=True, text=True)
    if ldd.returncode == 0 and "=>" in ldd.stdout:
        # A dynamic headcount (the sanitizer build) would not run on Gradescope's image: refused, saying why.
        run = subprocess.run([binary, "export", "gradescope", *specs, *seed, "--out", f"{work}/export"], cwd=source,
                             capture_output=True, text=True)
        if run.returncode != 2 or "is linked dynamically" not in run.stderr or "--binary" not in run.stderr:
            fail(f"a dynamic headcount was not refused: exit {run.returncode}, {run.stderr!r}")
        print("gradescope: a dynamically linked headcount is refused; the end-to-end run needs the static build")
        sys.exit(77)
    for folder in ("export", "again"):
        run = subprocess.run([binary, "export", "gradescope", *specs, *seed, "--out", f"{work}/{folder}"], cwd=source,
                             capture_output=True, text=True)
        if run.returncode != 0:
            fail(f"export gradescope exited {run.returncode}: {run.stderr}")
    subprocess.run([binary, "generate", *specs, *seed, "--out", f"{work}/md"], cwd=source, check=True,
                   capture_output=True)
    with open(f"{work}/export/autograder.zip", "rb") as a, open(f"{work}/again/autograder.zip", "rb") as b:
        if a.read() != b.read():
            fail("the same export gave different zips")

    archive = zipfile.ZipFile(f"{work}/export/autograder.zip")
    names = archive.namelist()
    for required in ("setup.sh", "run_autograder", "headcount", "roster.csv", "problems/week3-mha-params.yaml",
                     "problems/mha-shapes-memory.yaml"):
        if required not in names:
            fail(f"the zip has no {required} (Gradescope needs setup.sh and run_autograder at its root)")
    if any(name.endswith((".cpp", ".hpp", "CMakeLists.txt")) for name in names):
        fail(f"the zip carries source code: {names}")
    for name in ("setup.sh", "run_autograder", "headcount"):
        if archive.getinfo(name).external_attr >> 16 & 0o111 == 0:
            fail(f"{name} is not executable in the zip")
    # setup.sh installs and builds nothing: every command in it (comments aside) is one of these.
    setup_sh = archive.read("setup.sh").decode()
    for line in setup_sh.splitlines():
        command = line.split("#")[0].strip()
        if command and not re.match(r'(set -euo pipefail|root=|chmod 755 "\$root/source/headcount"|'
                                    r'"\$root/source/headcount" --version)', command):
            fail(f"setup.sh does more than check the program runs: {line!r}")
    # The program is the binary's loaded part: the same bytes up to the end of its segments, the section header
    # table's position and count (ELF header bytes 40-47 and 60-63) zeroed, debugging information dropped.
    program = archive.read("headcount")
    with open(binary, "rb") as f:
        original = f.read()
    if program[:40] != original[:40] or program[48:60] != original[48:60] or program[64:] != \
            original[64:len(program)] or program[40:48] != bytes(8) or program[60:64] != bytes(4):
        fail("the zip's headcount is not the binary cut after its segments")

    root = os.path.join(work, "autograder")
    archive.extractall(os.path.join(root, "source"))
    for info in archive.infolist():
        os.chmod(os.path.join(root, "source", info.filename), info.external_attr >> 16 & 0o777)
    shipped = os.path.join(root, "source", "headcount")
    ldd = subprocess.run(["ldd", shipped], capture_output=True, text=True)
    if "not a dynamic executable" not in ldd.stdout + ldd.stderr and "statically linked" not in ldd.stdout:
        fail(f"ldd says the zip's headcount is dynamic: {ldd.stdout}")
    env = dict(os.environ, HEADCOUNT_AUTOGRADER_ROOT=root)
    setup = subprocess.run(["bash", os.path.join(root, "source", "setup.sh")], cwd=os.path.join(root, "source"),
                           env=env, capture_output=True, text=True)
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    if setup.returncode != 0 or setup.stdout != version:
        fail(f"setup.sh exited {setup.returncode}, printing {setup.stdout!r} {setup.stderr[-2000:]!r}, not {version!r}")

    with open(f"{work}/md/key.csv", newline="") as f:
        key = list(csv.DictReader(f))
    mine = {(r["problem"], r["part"]): r for r in key if r["student"] == "bob"}

    # bob (his email in another case), answers.yaml: all right but shape (b), whose heads and sequence axes he swapped.
    swapped = [int(x) for x in re.findall(r"\d+", mine[("mha-shapes-memory", "b")]["answer"])]
    swapped[1], swapped[2] = swapped[2], swapped[1]
    d_bytes = int(mine[("mha-shapes-memory", "d")]["answer"])
    lines = ["week3-mha-params:", f"  a: {mine[('week3-mha-params', 'a')]['answer']}",
             f"  b: \"{int(mine[('week3-mha-params', 'b')]['answer']):,}\"", "mha-shapes-memory:",
             f"  a: {mine[('mha-shapes-memory', 'a')]['answer']}", f"  b: [{', '.join(map(str, swapped))}]",
             f"  c: {mine[('mha-shapes-memory', 'c')]['answer']}",
             f"  d: {d_bytes // 2 ** 20} MiB" if d_bytes % 2 ** 20 == 0 else f"  d: {d_bytes}",
             f"  e: {mine[('mha-shapes-memory', 'e')]['answer']}"]
    results = autograde(root, {"answers.yaml": "\n".join(lines) + "\n"}, "BOB@uni.example")
    expected = sum(POINTS.values()) - POINTS[("mha-shapes-memory", "b")]
    if results.get("score") != expected:
        fail(f"bob scored {results.get('score')}, expected {expected}: {json.dumps(results)[:600]}")
    alone = grade_in_chroot(root)
    failed = [t for t in results["tests"] if t["status"] == "failed"]
    if len(failed) != 1 or "heads_seq_axes_swapped" not in failed[0]["output"]:
        fail(f"bob's swapped axes are not the one failed test, named: {[t['name'] for t in failed]}")

    # alice, answers.csv: week 3's total with every bias left out, when her variant has biases (else all right).
    alice = {(r["problem"], r["part"]): r for r in key if r["student"] == "alice"}
    week3 = alice[("week3-mha-params", "b")]
    d, bias = int(week3["d_model"]), week3["bias"] == "true"
    right_b = 4 * d * d + (4 * d if bias else 0)
    if right_b != int(week3["answer"]):
        fail(f"key.csv's week-3 total for alice is {week3['answer']}, the formula gives {right_b}")
    rows = ["problem,part,answer"] + [f"{p},{q},\"{r['answer']}\"" for (p, q), r in alice.items()
                                      if (p, q) != ("week3-mha-params", "b")]
    rows.append(f"week3-mha-params,b,{4 * d * d if bias else right_b}")
    results = autograde(root, {"answers.csv": "\n".join(rows) + "\n"}, "alice@uni.example")
    test_b = next(t for t in results["tests"] if t["name"].endswith("(b)") and "multi-head attention block" in
                  t["name"] and t["max_score"] == 3)
    if bias:
        if test_b["score"] != 0 or "missing_biases" not in test_b["output"]:
            fail(f"alice's biases left out: {test_b}")
        for shown in (str(right_b), f"{right_b:,}"):
            if shown in json.dumps(results):
                fail(f"results.json shows the expected value {shown} under the default hints policy")
    if results["score"] != sum(POINTS.values()) - (POINTS[("week3-mha-params", "b")] if bias else 0):
        fail(f"alice scored {results['score']}")

    # A submission without an answers file, and a submitter the roster does not know: no points, a reason.
    results = autograde(root, {"notes.txt": "hello\n"}, "bob@uni.example")
    if results["score"] != 0 or "answers.csv" not in results["output"] or results.get("visibility") != "visible":
        fail(f"a submission without answers: {results}")
    results = autograde(root, {"answers.yaml": "week3-mha-params: {a: 1}\n"}, "mallory@elsewhere.example")
    if results["score"] != 0 or "roster" not in results["output"]:
        fail(f"an unknown submitter: {results}")
    print("gradescope: autograder.zip byte-identical across exports, holding headcount itself (static) and a setup.sh "
          "that builds nothing; run_autograder graded answers.yaml, answers.csv, a missing file and an unknown "
          f"submitter into results.json files that follow Gradescope's documented fields; {alone}")


if __name__ == "__main__":
    main()
