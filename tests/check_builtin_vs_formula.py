#!/usr/bin/env python3
"""One grading path: a built-in ask and an instructor's quantity that copies its formula get the same verdict.

For every count part of every shipped problem that asks a built-in (catalogue) ask, a spec is made with the part
twice: as shipped, and as a quantity of the spec's own whose formula is the row's formula as `headcount catalogue
formulas --spec` prints it for that problem, with the same unit and the same part options. Where that formula uses
rows a spec's formulas cannot name yet (q_weights, layers_total: only givens and asks are names a spec may use), the
quantity's formula is the built-in's own name, which a spec may use. Each is checked with
the right value, its roundings to 2-5 significant figures, the value in other units (GB, GiB, MB, MiB for bytes;
TFLOPs for FLOPs) and in bits, and `check --format json` must give both parts the same status and score (issue 38).
The answers are made here from the exact value solve prints, not from the grader's code.

Usage: check_builtin_vs_formula.py HEADCOUNT SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
from decimal import Decimal, ROUND_HALF_EVEN, getcontext

import yaml

getcontext().prec = 80


class PlainDumper(yaml.emitter.Emitter, yaml.serializer.Serializer, yaml.representer.SafeRepresenter,
                  yaml.resolver.BaseResolver):
    """Writes every scalar as it was read (BaseLoader reads them all as strings): plain, so that 512 stays a number
    for headcount, with no resolver that would quote it to keep it a string."""

    def __init__(self, stream, **kwargs):
        yaml.emitter.Emitter.__init__(self, stream, width=kwargs.get("width"))
        yaml.serializer.Serializer.__init__(self)
        yaml.representer.SafeRepresenter.__init__(self, sort_keys=False)
        yaml.resolver.BaseResolver.__init__(self)

headcount, source = sys.argv[1], sys.argv[2]


def run(*args):
    return subprocess.run([headcount, *args], capture_output=True, text=True)


def sig(value, figures):
    """`value` (a Decimal) rounded to `figures` significant figures, written as d.ddde<exponent>."""
    if value == 0:
        return "0"
    exponent = value.adjusted()
    quantum = Decimal(1).scaleb(exponent - figures + 1)
    rounded = value.quantize(quantum, rounding=ROUND_HALF_EVEN)
    mantissa = rounded.scaleb(-rounded.adjusted())
    text = format(mantissa, f".{figures - 1}f")
    return f"{text}e{rounded.adjusted()}"


def answers_for(value, unit):
    """The answers to try for a right value `value` (an int) in `unit`."""
    v = Decimal(value)
    out = [str(value)]
    out += [sig(v, n) for n in range(2, 6)]
    if unit == "bytes":
        for name, size in (("GB", 10**9), ("GiB", 2**30), ("MB", 10**6), ("MiB", 2**20)):
            out.append(f"{sig(v / size, 4)} {name}")
        out.append(f"{value * 8} bits")
    if unit == "FLOPs":
        out.append(f"{sig(v / 10**12, 4)} TFLOPs")
    return out


builtin_asks = {}
for line in run("catalogue", "asks").stdout.splitlines()[2:]:
    cells = [c.strip() for c in line.strip("|").split("|")]
    builtin_asks[cells[0].strip("`")] = cells[2]

compared = 0
failures = []
problems = os.path.join(source, "problems")
with tempfile.TemporaryDirectory() as scratch:
    for name in sorted(os.listdir(problems)):
        if not name.endswith(".yaml"):
            continue
        path = os.path.join(problems, name)
        spec = yaml.load(open(path), Loader=yaml.BaseLoader)  # every scalar as written
        solved = run("solve", path, "--format", "json")
        if solved.returncode != 0:
            failures.append(f"{name}: solve failed: {solved.stderr.strip()}")
            continue
        answers = {p["id"]: p for p in json.loads(solved.stdout)["parts"]}
        formulas = {}
        for line in run("catalogue", "formulas", "--spec", path).stdout.splitlines()[2:]:
            cells = [c.strip() for c in line.strip("|").split("|")]
            if cells[1]:
                formulas[cells[1].strip("`")] = cells[2].split("`")[1]
        for part in spec.get("parts", []):
            ask = part["ask"]
            unit = builtin_asks.get(ask)
            answer = answers[part["id"]]["answer"]
            if unit not in ("parameters", "dimensions", "FLOPs", "bytes") or not isinstance(answer, int):
                continue
            copy = dict(spec)
            options = {k: v for k, v in part.items() if k not in ("id", "ask", "text")}
            # The shipped parts stay (a training ask a formula uses is made only when a part asks it).
            copy["parts"] = list(spec["parts"]) + [dict(options, id="builtin", ask=ask),
                                                   dict(options, id="copy", ask="copy_of_builtin")]
            copy.pop("vary", None)
            quantities = dict(copy.get("quantities") or {})
            written = None
            for formula in (formulas.get(ask), ask.replace(".", "_")):
                if formula is None:
                    continue
                quantities["copy_of_builtin"] = {"title": "the same count", "unit": unit, "formula": formula}
                copy["quantities"] = quantities
                written = os.path.join(scratch, f"{name}-{part['id']}.yaml")
                with open(written, "w") as out:
                    yaml.dump(copy, out, Dumper=PlainDumper, width=1000)
                if run("solve", written, "--format", "json").returncode == 0:
                    break
                written = None
            if written is None:
                failures.append(f"{name} part {part['id']} ({ask}): no copy of its formula solves")
                continue
            for text in answers_for(answer, unit):
                verdicts = []
                for which in ("builtin", "copy"):
                    r = run("check", written, "--part", which, "--answer", text, "--format", "json")
                    verdict = json.loads(r.stdout)
                    verdicts.append((verdict["status"], verdict["score"]))
                compared += 1
                if verdicts[0] != verdicts[1]:
                    failures.append(f"{name} part {part['id']} ({ask}), answer {text!r}: built-in {verdicts[0]}, "
                                    f"copied formula {verdicts[1]}")

print(f"{compared} answers compared")
for failure in failures:
    print("FAIL:", failure)
if compared < 100:
    print(f"FAIL: only {compared} answers compared: the shipped problems' count parts were not found")
    sys.exit(1)
sys.exit(1 if failures else 0)
