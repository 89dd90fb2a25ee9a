#!/usr/bin/env python3
"""A disk that fills while `headcount serve` logs attempts leaves the log ending in a whole line (issue 24, item 3).

The log is on a real file system that really fills: a 64 KiB tmpfs, mounted here (we run as root in a container),
the rest of it taken by a filler file. Checks are made until one gets 503 (its line could not be logged, so it was
not checked): the log must still end in a whole line. Then the filler goes, a check succeeds, and `grade` reads
the log: every line whole, no row rejected, exactly the answers the server confirmed.

Usage: serve_full_disk.py HEADCOUNT_BINARY SOURCE_DIR. Exits 77 (ctest's skip) when tmpfs cannot be mounted; the
unit test "a write cut short by a full disk is taken back" covers the same code with RLIMIT_FSIZE everywhere.
"""
import hashlib
import hmac
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

binary, source = sys.argv[1], sys.argv[2]
spec = os.path.join(source, "problems", "week3-mha-params.yaml")
seed = "full-disk"
# The instructor's token secret, and the token of alice's link as docs/operations.md defines it, computed here independently.
secret = os.urandom(32).hex()
token = hmac.new(secret.encode(), b"headcount-token-v2\0" + seed.encode() + b"\0alice", hashlib.sha256).hexdigest()[:32]


def check(base, answer):
    body = json.dumps({"problem": "week3-mha-params", "part": "b", "answer": answer, "student": "alice",
                       "token": token}).encode()
    request = urllib.request.Request(base + "/api/check", data=body,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def main(work, disk):
    roster = os.path.join(work, "roster.csv")
    with open(roster, "w") as f:
        f.write("student\nalice\n")
    secret_path = os.path.join(work, "secret")
    with open(os.open(secret_path, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(secret + "\n")
    log = os.path.join(disk, "attempts.jsonl")
    server = subprocess.Popen([binary, "serve", spec, "--seed", seed, "--roster", roster, "--secret", secret_path,
                               "--log", log, "--port",
                               "0", "--student-rate", "0", "--address-rate", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    failures = []
    try:
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
        if not match:
            return ["serve did not start"]
        base = f"http://127.0.0.1:{match.group(1)}"
        confirmed = []
        answer = 1_000_000
        if check(base, str(answer)) != 200:
            return ["the first check, with room on the disk, was not answered"]
        confirmed.append(str(answer))
        filler = os.path.join(disk, "filler")
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while os.write(fd, b"x" * 512) > 0:
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        # The log's last page still has room for a few lines; the line that crosses into the next page is
        # written in part (a short write), then ENOSPC.
        status = None
        for _ in range(200):
            answer += 1
            status = check(base, str(answer))
            if status != 200:
                break
            confirmed.append(str(answer))
        if status != 503:
            return [f"a full disk gave status {status}, not 503"]
        with open(log, "rb") as f:
            text = f.read()
        if not text.endswith(b"\n"):
            failures.append(f"after the 503 the log ends in a cut-off line: ...{text[-60:]!r}")
        if check(base, str(answer + 1)) != 503:
            failures.append("a second check on the full disk was not refused")
        os.remove(filler)
        if check(base, "2000000") != 200:
            return failures + ["a check after space came back was not answered"]
        confirmed.append("2000000")
    finally:
        server.terminate()
        server.wait(timeout=30)
    out = os.path.join(work, "graded")
    subprocess.run([binary, "grade", spec, "--seed", seed, "--roster", roster, "--submissions", log, "--out", out],
                   check=True, capture_output=True)
    with open(os.path.join(out, "results.jsonl")) as f:
        rows = [json.loads(line) for line in f]
    rejected = [row for row in rows if row.get("outcome") == "rejected"]
    if rejected:
        failures.append(f"grade rejected lines of the log: {rejected}")
    answers = [row.get("answer") for row in rows]
    if answers != confirmed:
        failures.append(f"grade read {answers}, the server confirmed {confirmed}")
    return failures


with tempfile.TemporaryDirectory() as work:
    disk = os.path.join(work, "disk")
    os.mkdir(disk)
    mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", disk],
                           capture_output=True, text=True)
    if mount.returncode != 0:
        print(f"skipped: cannot mount a tmpfs here ({mount.stderr.strip()})")
        sys.exit(77)
    try:
        failures = main(work, disk)
    finally:
        subprocess.run(["umount", disk], check=True)
for failure in failures:
    print(failure)
print(f"full disk: {len(failures)} failures")
sys.exit(1 if failures else 0)
