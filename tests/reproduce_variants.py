#!/usr/bin/env python3
"""Reproduces headcount's per-student variants from the derivation documented in docs/variants.md, independently of
its C++ code, and checks `headcount generate`'s key.csv against it.

Usage: reproduce_variants.py HEADCOUNT_BINARY SOURCE_DIR. For each shipped problem below and the sample roster,
each student's combination is drawn here and the answers follow from closed forms:

- week3-mha-params (vary: d_model in [256, 384, 512, 768, 1024], h in [4, 8, 16], bias in [true, false]; every
  combination valid, since each h divides each d_model): qkv = 3 d (d + 1) or 3 d^2, total = 4 d (d + 1) or 4 d^2.
- model-bert-sizes (BERT-base with vary: layers in [4, 6, 8, 12, 24], d_ff in [2048, 3072, 4096]; every
  combination valid): with d = 768, ffn = 2 d f + f + d, layer = 4 (d^2 + d) + ffn + 2 (2 d), model = (30522 + 512
  + 2) d + 2 d + L layer + (d^2 + d), anchored on Hugging Face's published BERT-base count at L = 12, f = 3072.
"""
import csv
import os
import subprocess
import sys
import tempfile

MASK = (1 << 64) - 1


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & MASK
    return h


class SplitMix64:
    def __init__(self, seed: int):
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = MASK - MASK % n
        x = self.next()
        while x >= limit:
            x = self.next()
        return x % n


def variant(seed: str, problem: str, student: str, combinations):
    key = b"\0".join([b"headcount-variant-v1", seed.encode(), problem.encode(), student.encode()])
    return combinations[SplitMix64(fnv1a64(key)).below(len(combinations))]


def week3_answers(combination):
    d, _h, bias = combination
    per_matrix = d * (d + 1) if bias else d * d
    return {"a": 3 * per_matrix, "b": 4 * per_matrix}


BERT_D = 768


def bert_answers(combination):
    layers, d_ff = combination
    d = BERT_D
    ffn = 2 * d * d_ff + d_ff + d  # up and down matrices, their biases
    layer = 4 * (d * d + d) + ffn + 2 * (2 * d)  # Q, K, V, O with biases; the FFN; two LayerNorms
    embeddings = (30522 + 512 + 2) * d + 2 * d  # token, position, token type tables; the embedding LayerNorm
    model = embeddings + layers * layer + (d * d + d)  # the pooler
    return {"a": ffn, "b": layer, "c": model}


# Hugging Face's BertModel (bert-base-uncased) has 109,482,240 parameters: the closed form must agree at its sizes.
assert bert_answers((12, 3072))["c"] == 109_482_240

# (spec, the product of its vary lists in spec order with the last key fastest, the answers of a combination)
PROBLEMS = [
    ("problems/week3-mha-params.yaml",
     [(d, h, bias) for d in (256, 384, 512, 768, 1024) for h in (4, 8, 16) for bias in (True, False)],
     week3_answers),
    ("problems/model-bert-sizes.yaml",
     [(layers, d_ff) for layers in (4, 6, 8, 12, 24) for d_ff in (2048, 3072, 4096)],
     bert_answers),
]


def main():
    binary, source = sys.argv[1], sys.argv[2]
    checked = 0
    for spec, combinations, answers in PROBLEMS:
        with tempfile.TemporaryDirectory() as out:
            run = subprocess.run([binary, "generate", spec, "--roster", "tests/class/roster.csv", "--seed",
                                  "fall-2026", "--out", out], cwd=source, capture_output=True, text=True)
            if run.returncode != 0:
                print(f"FAILED: generate {spec} exited {run.returncode}: {run.stderr}")
                sys.exit(1)
            with open(os.path.join(out, "key.csv"), newline="", encoding="utf-8") as f:
                rows = list(csv.DictReader(f))
        if not rows:
            print(f"FAILED: generate {spec} wrote an empty key")
            sys.exit(1)
        for row in rows:
            combination = variant("fall-2026", row["problem"], row["student"], combinations)
            expected = answers(combination)[row["part"]]
            if int(row["answer"]) != expected:
                print(f"FAILED: {spec}: {row['student']} part {row['part']}: key says {row['answer']}, the "
                      f"documented derivation gives {combination} -> {expected}")
                sys.exit(1)
            checked += 1
    print(f"reproduced {checked} key answers from the documented derivation")
    print(f"{checked} passed, 0 failed")


if __name__ == "__main__":
    main()
