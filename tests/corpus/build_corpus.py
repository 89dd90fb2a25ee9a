#!/usr/bin/env python3
"""The corpus of student answers, written by hand, and the check that writes it to answers.csv.

Each row is an answer to a part of a shipped problem as a student types it, what it denotes, the verdict headcount
must give (status and the set of mistake ids) and how that verdict was derived. The values come from the formulas
(derive.py and the derivation column), never from running headcount.

The rules the verdicts follow (issue 9):
- correct: the exact answer. A bytes answer with a unit (MB, MiB, GB, ...) is also correct when it has at least
  3 significant figures and rounds to the exact count at its last digit (16.8 MB for 16,777,216).
- rounded: the right value correctly rounded at the student's own last digit, written as a rounded number with at
  least 2 significant figures: a decimal mantissa with a scale word/letter, a unit or e-notation (1.1M, 1.05e6,
  17 MB), or behind an approximate marker (about, ~, ≈); a plain integer with trailing zeros only with at least
  3 significant figures (1,050,000). One figure (1M) is never rounded. An answer that is exactly a catalogued
  mistake's value is that mistake. Mistake set: {rounded}.
- incorrect: the catalogued mistakes whose value the answer equals or rounds to at its own precision; else
  other_quantity when it is the answer of another askable quantity in the same unit; else the pairs that give it;
  else none (unexplained). decimal_vs_binary_units when the same digits with the other unit are right.
- unreadable: no mistakes.

`python3 build_corpus.py` checks every row against derive.py's enumeration and rewrites answers.csv; the runner
(tests/check_answer_corpus.py) fails when answers.csv and this file disagree.
"""
from __future__ import annotations

import csv
import io
import os
import sys
from fractions import Fraction

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import derive as D  # noqa: E402
import reproduce_variants as RV  # noqa: E402  (the README's variant derivation, reimplemented)

SEED = "fall-2026"
WEEK3_VARY = [dict(d_model=d, h=h, bias=b) for d in (256, 384, 512, 768, 1024) for h in (4, 8, 16)
              for b in (True, False)]
BERT_VARY = [dict(layers=l, d_ff=f) for l in (4, 6, 8, 12, 24) for f in (2048, 3072, 4096)]
VARY = {"week3-mha-params": WEEK3_VARY, "model-bert-sizes": BERT_VARY}


def variant(problem: str, student: str | None) -> dict | None:
    if student is None:
        return None
    return RV.variant(SEED, problem, student, VARY[problem])


def c(n: int) -> str:
    return f"{n:,}"


MiB, GiB, MB, GB = 2**20, 2**30, 10**6, 10**9

ROWS: list[dict] = []


def row(problem, part, answer, status, mistakes="", value=None, res=0, why="", student=None, other_unit=None):
    """One answer. value: what the typed answer denotes (int, Fraction, shape tuple or word); res: the place
    value of its last written digit when it is a rounded number (0: exact); other_unit: for a bytes answer with
    a unit, its value read with the other unit (MB for MiB); why: the derivation."""
    ROWS.append(dict(problem=problem, part=part, answer=answer, status=status, mistakes=set(mistakes.split()),
                     value=value, res=res, why=why, student=student, other_unit=other_unit))


# =================================================================================================================
# week3-mha-params: d_model 512, h 8, d_k = d_v = 64, all biases. (a) Q+K+V = 3·512·513 = 787,968;
# (b) the block = 4·512·513 = 1,050,624.
P = "week3-mha-params"
QKV, TOT = 3 * 512 * 513, 4 * 512 * 513
for typed, v in [("787968", QKV), ("787,968", QKV), ("787 968", QKV), ("787_968", QKV), ("3*(512*512+512)", QKV),
                 ("3 \\times 512 \\times 513", QKV), ("3(512^2 + 512)", QKV), ("$3 \\cdot 262{,}656$", QKV),
                 ("\\( 3 \\times 262656 \\)", QKV), ("3·512² + 3·512", QKV), ("787,968 parameters", QKV),
                 ("3 \\cdot (512^{2} + 512)", QKV), ("787\\,968", QKV), ("7.87968e5", QKV),
                 ("3 x 512 x 513", QKV), ("787,968 weights and biases", QKV)]:
    row(P, "a", typed, "correct", value=v, why="Q, K, V each 512·512 weights + 512 bias: 3·512·513")
row(P, "a", "7.88e5", "rounded", "rounded", 788_000, 1000, "787,968 to 3 figures is 788,000")
row(P, "a", "≈ 788,000", "rounded", "rounded", 788_000, 1000, "approximate marker, 3 figures of 787,968")
row(P, "a", "about 790,000", "rounded", "rounded", 790_000, 10_000, "marker with 2 figures: 787,968 → 790,000")
row(P, "a", "0.79M", "rounded", "rounded", 790_000, 10_000, "2 figures of 787,968")
row(P, "a", "0.8M", "incorrect", "", 800_000, 0, "one significant figure is never 'rounded'; no mistake is 800,000")
row(P, "a", "786,432", "incorrect", "missing_biases", 3 * 512**2, 0, "Q, K, V weights without biases: 3·512²")
row(P, "a", "3 \\times 512^2", "incorrect", "missing_biases", 3 * 512**2, 0, "3·512², the biases left out")
row(P, "a", "786,944", "incorrect", "bias_counted_once", 3 * 512**2 + 512, 0, "3·512² + one 512 bias vector")
row(P, "a", "788,992", "incorrect", "bias_formula_per_head", 3 * 512**2 + 8 * (3 * 64 + 64) + 512, 0,
    "the article's bias count applied whole: 3·512² + 8(3·64 + 64) + 512")
row(P, "a", "788,480", "incorrect", "bias_formula_per_head", 3 * 512**2 + 8 * (3 * 64 + 64), 0,
    "the article's h(3d_k + d_v) split over Q, K, V: 3·512² + 8·256")
row(P, "a", "525,312", "incorrect", "missing_value_projection", 2 * 512 * 513, 0, "only Q and K: 2·512·513")
row(P, "a", "6,303,744", "incorrect", "heads_times_full_matrices", 8 * 3 * 512 * 513, 0,
    "every head with full 512×512 Q, K, V: 8·3·512·513")
row(P, "a", "98,496", "incorrect", "single_head_only", 3 * (512 * 64 + 64), 0, "one head's slices: 3(512·64 + 64)")
row(P, "a", "1,050,624", "incorrect", "other_quantity", TOT, 0, "the whole block, W_O included: 4·512·513")
row(P, "a", "4 \\cdot 512 \\cdot 513", "incorrect", "other_quantity", TOT, 0, "the whole block: 4·512·513")
row(P, "a", "262,656", "incorrect", "other_quantity", 512 * 513, 0, "one projection: 512·512 + 512")
row(P, "a", "1,048,576", "incorrect", "other_quantity", 4 * 512**2, 0, "weight_params, all four weights: 4·512²")
row(P, "a", "524,288", "incorrect", "missing_biases missing_value_projection", 2 * 512**2, 0,
    "Q and K weights only: 2·512² (V and the biases left out together)")
row(P, "a", "787,456", "incorrect", "", 3 * 512**2 + 2 * 512, 0, "biases on Q and K only: nothing catalogued")
row(P, "a", "787,986", "incorrect", "", 787_986, 0, "digits swapped (…968 → …986): a near miss, unexplained")
row(P, "a", "3 \\times 512 \\times", "unreadable", why="LaTeX product with a missing factor")
row(P, "a", "idk", "unreadable", why="no number")

for typed, v in [("1050624", TOT), ("1,050,624", TOT), ("1 050 624", TOT), ("1_050_624", TOT),
                 ("1.050624e6", TOT), ("4*(512^2+512)", TOT), ("4·512·513", TOT), ("4 * 262,656", TOT),
                 ("4 \\times 512 \\times 513", TOT), ("4\\cdot 512\\cdot 513", TOT), ("$4 \\times 262{,}656$", TOT),
                 ("\\( 4 \\cdot 262656 \\)", TOT), ("4(512^2+512)", TOT), ("4 \\cdot 512^{2} + 4 \\cdot 512", TOT),
                 ("1,050,624 parameters total", TOT), ("1,050,624 params", TOT),
                 ("1,050,624 learnable parameters", TOT), ("1,050,624 in total", TOT), ("1050624 total", TOT),
                 ("1\\,050\\,624", TOT), ("$1{,}050{,}624$", TOT), ("\\frac{4 \\cdot 512 \\cdot 1026}{2}", TOT),
                 ("2^{20} + 2^{11}", TOT), ("4 × 512 × 513", TOT), ("1,050,624 \\text{ parameters}", TOT),
                 ("= 1,050,624", TOT)]:
    row(P, "b", typed, "correct", value=v, why="four projections of 512·512 weights + 512 bias: 4·512·513")
row(P, "B", "1,050,624", "correct", value=TOT, why="part ids are case-insensitive: --part B is part b")
for typed, v, r, why in [("1.05M", 1_050_000, 10_000, "3 figures"), ("1.1M", 1_100_000, 100_000, "2 figures"),
                         ("1.05e6", 1_050_000, 10_000, "3 figures in e-notation"),
                         ("1.1 million", 1_100_000, 100_000, "2 figures with a scale word"),
                         ("1.05 × 10^6", 1_050_000, 10_000, "3 figures, × 10^6"),
                         ("≈1.05×10^6", 1_050_000, 10_000, "marked approximate, 3 figures"),
                         ("1,050,000", 1_050_000, 10_000, "plain integer, 3 significant figures"),
                         ("~1.05M", 1_050_000, 10_000, "marked approximate"),
                         ("about 1.05 million", 1_050_000, 10_000, "marked approximate"),
                         ("1.0506M", 1_050_600, 100, "5 figures: 1,050,600"),
                         ("1.051M", 1_051_000, 1000, "4 figures: 1,051,000"),
                         ("1,051,000", 1_051_000, 1000, "plain integer, 4 significant figures"),
                         ("approx. 1,100,000", 1_100_000, 100_000, "marker with 2 figures"),
                         ("1.05 \\times 10^{6}", 1_050_000, 10_000, "LaTeX, 3 figures")]:
    row(P, "b", typed, "rounded", "rounded", v, r, f"1,050,624 to {why}")
row(P, "b", "1M", "incorrect", "", 1_000_000, 0, "one significant figure is never 'rounded'")
row(P, "b", "1,100,000", "incorrect", "", 1_100_000, 0,
    "a plain integer with 2 significant figures is not read as rounded; no mistake is 1,100,000")
row(P, "b", "1,048,576", "incorrect", "missing_biases", 4 * 512**2, 0, "weights only: 4·512²")
row(P, "b", "4 \\times 512^2", "incorrect", "missing_biases", 4 * 512**2, 0, "4·512², biases left out")
row(P, "b", "2^{20}", "incorrect", "missing_biases", 2**20, 0, "2^20 = 4·512², biases left out")
row(P, "b", "1,050,112", "incorrect", "missing_output_bias", TOT - 512, 0, "total with b_O left out: 4·512·513 − 512")
row(P, "b", "1,049,088", "incorrect", "bias_counted_once", 4 * 512**2 + 512, 0, "4·512² + one bias of 512")
row(P, "b", "1,051,136", "incorrect", "bias_formula_per_head", 4 * 512**2 + 8 * (3 * 64 + 64) + 512, 0,
    "the article: 4·512² + h(3d_k + d_v) + d_model = 1,048,576 + 2,048 + 512")
row(P, "b", "787,968", "incorrect", "missing_output_projection missing_value_projection", 3 * 512 * 513, 0,
    "three projections: W_O left out, or W_V left out, give 3·512·513")
row(P, "b", "8,404,992", "incorrect", "heads_times_full_matrices", 8 * TOT, 0, "8 heads × the block: 8·4·512·513")
row(P, "b", "131,776", "incorrect", "single_head_only", 4 * 512 * 64 + 3 * 64 + 512, 0,
    "one head's slices: 4·512·64 + 3·64 + 512")
row(P, "b", "2,889,216", "incorrect", "output_projection_per_head", 3 * 512 * 513 + 8 * 512 * 513, 0,
    "a W_O per head: 3·512·513 + 8·512·513")
row(P, "b", "262,656", "incorrect", "other_quantity", 512 * 513, 0, "one projection: 512·513")
row(P, "b", "2,048", "incorrect", "other_quantity", 4 * 512, 0, "the biases only: bias_params = 4·512")
row(P, "b", "786,432", "incorrect", "missing_output_projection missing_value_projection missing_biases", 3 * 512**2, 0,
    "3·512²: three weight matrices, no biases (a pair either way)")
row(P, "b", "8,388,608", "incorrect", "missing_biases heads_times_full_matrices", 8 * 4 * 512**2, 0,
    "8 heads × 4·512², no biases: a pair")
row(P, "b", "1.0486M", "incorrect", "missing_biases", 1_048_600, 100,
    "1,048,576 (weights only) to 5 figures; the right value is 1.0506M")
row(P, "b", "1.049M", "incorrect", "missing_biases bias_counted_once", 1_049_000, 1000,
    "to 4 figures both 1,048,576 (no biases) and 1,049,088 (one bias) are 1.049M")
row(P, "b", "1,050,642", "incorrect", "", 1_050_642, 0, "digits swapped: unexplained near miss")
for typed, why in [("4 \\times 512 \\times", "trailing operator"), ("\\frac{4 \\cdot 512 \\cdot 513}{1",
                                                                     "unclosed brace"),
                   ("1,05,0624", "digit groups of 2 and 4"), ("4 \\timess 512", "unknown LaTeX command"),
                   ("1,050,624 MB", "a unit of bytes on a count"), ("", "empty"), ("lots", "no number"),
                   ("4**", "dangling power"), ("(4*512", "unclosed parenthesis"),
                   ("$4 \\times 512^{2$", "unclosed brace in an exponent"), ("10^100", "too large for a count")]:
    row(P, "b", typed, "unreadable", why=why)

# Seeded variants (check --seed fall-2026 --student ID); each student's givens from the README's derivation.
# alice: d_model 512, h 16, bias; bob: 512, 4, no bias; chen: 384, 16, no bias; dana: 1024, 8, bias; zoe (not on
# the sample roster; no --roster is given, so any id draws): 512, 4, bias.
row(P, "a", "49,248", "incorrect", "single_head_only", 3 * (512 * 32 + 32), 0,
    "alice has h = 16: one head's slices 3(512·32 + 32)", student="alice")
row(P, "a", "98,496", "incorrect", "", 3 * (512 * 64 + 64), 0,
    "single head at the sheet's h = 8; alice's h = 16 gives 49,248: nothing catalogued", student="alice")
row(P, "a", "787,968", "correct", value=QKV, why="alice: 3·512·513 whatever h", student="alice")
row(P, "a", "786,432", "correct", value=3 * 512**2, why="bob has no biases: 3·512²", student="bob")
row(P, "a", "787,968", "incorrect", "biases_added", QKV, 0, "bob: biases counted though his bias is false",
    student="bob")
row(P, "b", "1,048,576", "correct", value=4 * 512**2, why="bob: 4·512²", student="bob")
row(P, "b", "4 \\times 512 \\times 513", "incorrect", "biases_added", TOT, 0, "bob: biases on a block without",
    student="bob")
row(P, "b", "589,824", "correct", value=4 * 384**2, why="chen: 4·384², no biases", student="chen")
row(P, "b", "4 \\cdot 384^2", "correct", value=4 * 384**2, why="chen: 4·384²", student="chen")
row(P, "b", "1,050,624", "incorrect", "", TOT, 0, "the sheet's numbers, not chen's own (384, no bias)",
    student="chen")
row(P, "b", "4,198,400", "correct", value=4 * 1024 * 1025, why="dana: 4·1024·1025", student="dana")
row(P, "b", "4 \\times 1024 \\times 1025", "correct", value=4 * 1024 * 1025, why="dana: 4·1024·1025",
    student="dana")
row(P, "b", "4,194,304", "incorrect", "missing_biases", 4 * 1024**2, 0, "dana: 4·1024², biases left out",
    student="dana")
row(P, "a", "3,148,800", "correct", value=3 * 1024 * 1025, why="dana: 3·1024·1025", student="dana")
row(P, "a", "3,150,848", "incorrect", "bias_formula_per_head", 3 * 1024**2 + 8 * (3 * 128 + 128) + 1024, 0,
    "dana, the article's bias count whole: 3·1024² + 8(3·128 + 128) + 1024", student="dana")
row(P, "b", "1,050,624", "correct", value=TOT, why="zoe (h 4): 4·512·513", student="zoe")

# =================================================================================================================
# mha-no-bias: d_model 512, h 8, bias false. (a) weights 4·512² = 1,048,576; (b) biases 0; (c) total 1,048,576.
P = "mha-no-bias"
W = 4 * 512**2
for typed in ["1,048,576", "4 \\cdot 512^{2}", "2^20", "4 × 512²", "1.048576e6"]:
    row(P, "a", typed, "correct", value=W, why="four 512×512 weight matrices: 4·512²")
row(P, "a", "1.05M", "rounded", "rounded", 1_050_000, 10_000, "1,048,576 to 3 figures")
row(P, "a", "1.0M", "rounded", "rounded", 1_000_000, 100_000, "1,048,576 to 2 figures")
row(P, "a", "1,050,624", "incorrect", "", 4 * 512 * 513, 0,
    "biases counted, but the weights part has no bias term for biases_added to change: unexplained")
row(P, "a", "786,432", "incorrect", "missing_output_projection missing_value_projection", 3 * 512**2, 0,
    "three of the four matrices: 3·512²")
row(P, "a", "262,144", "incorrect", "other_quantity", 512**2, 0, "one projection: 512²")
row(P, "b", "0", "correct", value=0, why="bias: false, so no biases")
row(P, "b", "0 parameters", "correct", value=0, why="no biases")
row(P, "b", "2,048", "incorrect", "biases_added", 4 * 512, 0, "a 512 bias on each of 4 projections")
row(P, "b", "512", "incorrect", "bias_counted_once", 512, 0, "one d_model bias vector")
row(P, "b", "2,560", "incorrect", "bias_formula_per_head", 8 * (3 * 64 + 64) + 512, 0, "the article: 8(3·64+64)+512")
for typed in ["1048576", "4 * 512^2", "1,048,576 parameters"]:
    row(P, "c", typed, "correct", value=W, why="weights only: 4·512²")
row(P, "c", "1,050,624", "incorrect", "biases_added", 4 * 512 * 513, 0, "biases added: 4·512·513")
row(P, "c", "4 \\times 512 \\times 513", "incorrect", "biases_added", 4 * 512 * 513, 0, "4·512·513: biases added")
row(P, "c", "1,049,088", "incorrect", "bias_counted_once", W + 512, 0, "4·512² + 512")
row(P, "c", "1,051,136", "incorrect", "bias_formula_per_head", W + 2560, 0, "4·512² + 8(3·64 + 64) + 512")
row(P, "c", "8,388,608", "incorrect", "heads_times_full_matrices", 8 * W, 0, "8·4·512²")
row(P, "c", "2^{20}\\text{ parameters}", "correct", value=W, why="2^20 = 4·512²")

# =================================================================================================================
# mha-dk-dv: d_model 512, h 8, d_k 64, d_v 32, biases. W_V 512×256, W_O 256×512.
# (a) V = 512·256 + 256 = 131,328; (b) O = 256·512 + 512 = 131,584; (c) 2·512·513 + 131,328 + 131,584 = 788,224.
P = "mha-dk-dv"
V_, O_, T_ = 512 * 256 + 256, 256 * 512 + 512, 2 * 512 * 513 + 512 * 256 + 256 + 256 * 512 + 512
for typed in ["131,328", "512 \\cdot 256 + 256", "(512+1) \\times 256", "8 \\cdot 32 \\cdot 513"]:
    row(P, "a", typed, "correct", value=V_, why="W_V is 512 × h·d_v = 512 × 256, bias 256: 513·256")
row(P, "a", "1.31e5", "rounded", "rounded", 131_000, 1000, "131,328 to 3 figures")
row(P, "a", "262,656", "incorrect", "other_quantity", 512 * 513, 0, "d_k used for V: 512·512 + 512, Q's count")
row(P, "a", "131,584", "incorrect", "other_quantity", O_, 0, "W_O's count (256·512 + 512) for W_V")
row(P, "a", "131,072", "incorrect", "missing_biases", 512 * 256, 0, "512·256 without the bias")
row(P, "a", "16,416", "incorrect", "single_head_only", 512 * 32 + 32, 0, "one head: 512·32 + 32")
row(P, "a", "1,050,624", "incorrect", "heads_times_full_matrices", 8 * V_, 0, "8 heads × 513·256")
for typed in ["131,584", "8 \\cdot 32 \\cdot 512 + 512", "256*512+512"]:
    row(P, "b", typed, "correct", value=O_, why="W_O is h·d_v × d_model = 256 × 512, bias 512")
row(P, "b", "262,656", "incorrect", "output_projection_square", 512 * 512 + 512, 0,
    "W_O as d_model × d_model, the article's general formula: 512² + 512")
row(P, "b", "131,072", "incorrect", "missing_biases missing_output_bias", 256 * 512, 0, "256·512 without b_O")
row(P, "b", "16,896", "incorrect", "single_head_only", 32 * 512 + 512, 0, "one head's d_v rows: 32·512 + 512")
row(P, "b", "1,052,672", "incorrect", "heads_times_full_matrices output_projection_per_head", 8 * O_, 0,
    "a W_O per head: 8(256·512 + 512)")
row(P, "b", "131,328", "incorrect", "other_quantity", V_, 0, "W_V's count for W_O")
row(P, "b", "h \\cdot d_v \\cdot d_{model} + d_{model}", "unreadable", why="the formula in symbols, not numbers")
row(P, "b", "262,144", "incorrect", "missing_biases missing_output_bias output_projection_square", 512**2, 0,
    "512²: W_O square and its bias left out (a pair)")
for typed in ["788,224", "2 \\cdot 512 \\cdot 513 + 2 \\cdot (256 \\cdot 512) + 256 + 512", "788224 parameters"]:
    row(P, "c", typed, "correct", value=T_, why="Q, K 512·513 each; V 513·256; O 256·512 + 512")
row(P, "c", "7.88e5", "rounded", "rounded", 788_000, 1000, "788,224 to 3 figures")
row(P, "c", "919,296", "incorrect", "output_projection_square", 3 * 512**2 + 512 * 256 + 1792, 0,
    "the article's weights 8(2·512·64 + 512·32) + 512² = 917,504, with the right biases 1,792")
row(P, "c", "919,808", "incorrect", "output_projection_square bias_formula_per_head", 917_504 + 8 * (3 * 64 + 32) + 512,
    0, "the article as a whole: 917,504 + h(3d_k + d_v) + d_model = 917,504 + 2,304")
row(P, "c", "917,504", "incorrect", "missing_biases output_projection_square", 917_504, 0,
    "the article's weight formula alone: h(2·d·d_k + d·d_v) + d² (a pair: W_O square, no biases)")
row(P, "c", "788,736", "incorrect", "bias_formula_per_head", 786_432 + 2304, 0, "right weights + 8(3·64+32) + 512")
row(P, "c", "786,432", "incorrect", "missing_biases", 786_432, 0, "weights only: 2·512² + 2·256·512")
row(P, "c", "656,640", "incorrect", "missing_output_projection", T_ - O_, 0, "Q, K, V only")
row(P, "c", "1,050,624", "incorrect", "", 4 * 512 * 513, 0, "d_v taken as 64 (a square block): nothing catalogued")

# =================================================================================================================
# mha-cross-attention: d_model 512, h 8, kdim 256, vdim 128, biases. W_K 256×512, W_V 128×512.
# (a) K = 256·512 + 512 = 131,584; (b) V = 128·512 + 512 = 66,048; (c) 2·512·513 + K + V = 722,944.
P = "mha-cross-attention"
K_, V_ = 256 * 512 + 512, 128 * 512 + 512
T_ = 2 * 512 * 513 + K_ + V_
for typed in ["131,584", "256 \\times 512 + 512", "257*512"]:
    row(P, "a", typed, "correct", value=K_, why="W_K is kdim × d_model = 256 × 512, bias 512: 257·512")
row(P, "a", "262,656", "incorrect", "other_quantity", 512 * 513, 0, "d_model rows for W_K: Q's count 512·513")
row(P, "a", "66,048", "incorrect", "other_quantity", V_, 0, "vdim rows (V's count 129·512) for W_K")
row(P, "a", "131,072", "incorrect", "missing_biases", 256 * 512, 0, "256·512 without the bias")
row(P, "a", "16,448", "incorrect", "single_head_only", 256 * 64 + 64, 0, "one head: 256·64 + 64")
for typed in ["66048", "129 \\cdot 512", "128*512 + 512"]:
    row(P, "b", typed, "correct", value=V_, why="W_V is vdim × d_model = 128 × 512, bias 512: 129·512")
row(P, "b", "65,536", "incorrect", "missing_biases", 128 * 512, 0, "128·512 without the bias")
row(P, "b", "262,656", "incorrect", "other_quantity", 512 * 513, 0, "d_model rows: Q's count")
row(P, "b", "131,584", "incorrect", "other_quantity", K_, 0, "kdim rows: K's count")
row(P, "b", "8,256", "incorrect", "single_head_only", 128 * 64 + 64, 0, "one head: 128·64 + 64")
row(P, "b", "66,000", "incorrect", "", 66_000, 0, "2 significant figures as a plain integer: not read as rounded")
for typed in ["722,944", "2 \\cdot 262{,}656 + 131{,}584 + 66{,}048", "722944 params"]:
    row(P, "c", typed, "correct", value=T_, why="Q, O 512·513 each; K 257·512; V 129·512")
row(P, "c", "7.23e5", "rounded", "rounded", 723_000, 1000, "722,944 to 3 figures")
row(P, "c", "≈ 720,000", "rounded", "rounded", 720_000, 10_000, "marked approximate, 2 figures")
row(P, "c", "1,050,624", "incorrect", "", 4 * 512 * 513, 0, "kdim and vdim ignored (self-attention): nothing catalogued")
row(P, "c", "720,896", "incorrect", "missing_biases", T_ - 2048, 0, "722,944 − 4·512 biases")
row(P, "c", "460,288", "incorrect", "missing_output_projection", T_ - 512 * 513, 0, "W_O and b_O left out")
row(P, "c", "723,456", "incorrect", "bias_formula_per_head", T_ - 2048 + 8 * 256 + 512, 0,
    "the article's biases 8(3·64 + 64) + 512 for the 4·512")

# =================================================================================================================
# mha-gqa: d_model 4096, h 32, 8 key/value heads, no biases. d_k = 4096/32 = 128; W_K 4096 × 8·128.
# (a) d_k 128; (b) K = 4096·1024 = 4,194,304; (c) 2·4096² + 2·4096·1024 = 41,943,040.
P = "mha-gqa"
for typed in ["128", "4096/32", "\\frac{4096}{32}", "2^7"]:
    row(P, "a", typed, "correct", value=128, why="d_k = d_model / h = 4096 / 32")
row(P, "a", "512", "incorrect", "", 512, 0, "4096 / 8 (divided by the key/value heads): nothing catalogued")
row(P, "a", "4096", "incorrect", "", 4096, 0, "d_model itself")
row(P, "a", "d_model/h", "unreadable", why="symbols, not numbers")
row(P, "a", "130", "incorrect", "", 130, 0, "a plain integer with 2 significant figures is not read as rounded")
row(P, "a", "≈130", "rounded", "rounded", 130, 10, "marked approximate with 2 figures: 128 → 130")
for typed in ["4,194,304", "4096 \\times 1024", "4096 \\cdot 8 \\cdot 128", "2^{22}"]:
    row(P, "b", typed, "correct", value=4096 * 1024, why="W_K is 4096 × n_kv·d_k = 4096 × 1024, no bias")
row(P, "b", "16,777,216", "incorrect", "kv_heads_ignored", 4096**2, 0, "32 heads for K: 4096²")
row(P, "b", "4096^2", "incorrect", "kv_heads_ignored", 4096**2, 0, "4096 × 32·128")
row(P, "b", "4,195,328", "incorrect", "biases_added", 4096 * 1024 + 1024, 0, "a bias of 1024 added")
row(P, "b", "524,288", "incorrect", "single_head_only", 4096 * 128, 0, "one head: 4096·128")
row(P, "b", "134,217,728", "incorrect", "heads_times_full_matrices", 32 * 4096 * 1024, 0, "32 × 4096·1024")
row(P, "b", "25,165,824", "incorrect", "other_quantity", 4096**2 + 2 * 4096 * 1024, 0, "Q, K and V together")
row(P, "b", "4.19M", "rounded", "rounded", 4_190_000, 10_000, "4,194,304 to 3 figures")
row(P, "b", "4.2M", "rounded", "rounded", 4_200_000, 100_000, "4,194,304 to 2 figures")
row(P, "b", "4M", "incorrect", "", 4_000_000, 0, "one significant figure")
for typed in ["41,943,040", "2 \\cdot 4096^2 + 2 \\cdot 4096 \\cdot 1024", "2(4096^2 + 4096 \\cdot 1024)"]:
    row(P, "c", typed, "correct", value=41_943_040, why="W_Q, W_O 4096² each; W_K, W_V 4096·1024 each")
row(P, "c", "67,108,864", "incorrect", "kv_heads_ignored", 4 * 4096**2, 0, "four square matrices: 4·4096²")
row(P, "c", "4 \\times 4096^{2}", "incorrect", "kv_heads_ignored", 4 * 4096**2, 0, "4·4096²")
row(P, "c", "41,953,280", "incorrect", "biases_added", 41_943_040 + 2 * 4096 + 2 * 1024, 0, "+4096+1024+1024+4096")
row(P, "c", "37,748,736", "incorrect", "missing_value_projection", 41_943_040 - 4096 * 1024, 0, "W_V left out")
row(P, "c", "25,165,824", "incorrect", "missing_output_projection", 41_943_040 - 4096**2, 0, "W_O left out")
row(P, "c", "16,777,216", "incorrect", "other_quantity", 4096**2, 0, "W_Q's count alone")
row(P, "c", "41.9M", "rounded", "rounded", 41_900_000, 100_000, "41,943,040 to 3 figures")
row(P, "c", "42M", "rounded", "rounded", 42_000_000, 1_000_000, "2 figures (a mantissa with a scale letter)")

# =================================================================================================================
# mha-multi-query: d_model 1024, h 16, one key/value head, biases. d_k 64.
# (a) K = 1024·64 + 64 = 65,600; (b) 2(1024² + 1024) + 2(1024·64 + 64) = 2,230,400.
P = "mha-multi-query"
K_, T_ = 1024 * 64 + 64, 2 * (1024**2 + 1024) + 2 * (1024 * 64 + 64)
for typed in ["65,600", "1025 \\cdot 64", "64(1024+1)"]:
    row(P, "a", typed, "correct", value=K_, why="W_K is 1024 × 1·64, bias 64: 1025·64 (exact, trailing zeros or not)")
row(P, "a", "1,049,600", "incorrect", "kv_heads_ignored heads_times_full_matrices", 1024**2 + 1024, 0,
    "16 heads for K (1024² + 1024) equals 16 × 65,600")
row(P, "a", "1024^2 + 1024", "incorrect", "kv_heads_ignored heads_times_full_matrices", 1024**2 + 1024, 0,
    "K as a full 1024 × 1024 projection")
row(P, "a", "65,536", "incorrect", "missing_biases", 1024 * 64, 0, "1024·64 without the bias")
row(P, "a", "1,180,800", "incorrect", "other_quantity", 1024**2 + 1024 + 2 * K_, 0, "Q, K and V together")
for typed in ["2,230,400", "2(1024^2+1024) + 2(1024 \\cdot 64 + 64)"]:
    row(P, "b", typed, "correct", value=T_, why="Q, O 1024·1025 each; K, V 1025·64 each")
row(P, "b", "4,198,400", "incorrect", "kv_heads_ignored", 4 * 1024 * 1025, 0, "four full projections")
row(P, "b", "2,228,224", "incorrect", "missing_biases", T_ - 2176, 0, "without 1024+64+64+1024 biases")
row(P, "b", "263,360", "incorrect", "single_head_only", 4 * 1024 * 64 + 3 * 64 + 1024, 0, "one head: 4·1024·64 + biases")
row(P, "b", "2,229,376", "incorrect", "missing_output_bias", T_ - 1024, 0, "b_O left out")
row(P, "b", "2.23M", "rounded", "rounded", 2_230_000, 10_000, "2,230,400 to 3 figures")
row(P, "b", "2.2M", "rounded", "rounded", 2_200_000, 100_000, "2,230,400 to 2 figures")

# =================================================================================================================
# mha-add-bias-kv: d_model 512, h 8, biases, PyTorch's add_bias_kv (bias_k, bias_v of 512 each).
# (a) biases 4·512 + 2·512 = 3,072; (b) 4·512² + 3,072 = 1,051,648.
P = "mha-add-bias-kv"
for typed in ["3072", "3,072", "6 \\times 512", "4 \\cdot 512 + 2 \\cdot 512"]:
    row(P, "a", typed, "correct", value=3072, why="b_Q, b_K, b_V, b_O and bias_k, bias_v: 6·512")
row(P, "a", "2,048", "incorrect", "missing_bias_kv missing_value_projection", 2048, 0,
    "bias_k and bias_v left out (4·512); or V left out, taking b_V and bias_v")
row(P, "a", "2,560", "incorrect", "", 2560, 0,
    "5·512 (O or b_O left out), or the article's 8(3·64+64) + 512: three slips give it, so none is named (rule 6)")
row(P, "a", "512", "incorrect", "bias_counted_once", 512, 0, "one bias vector")
for typed in ["1,051,648", "4 \\cdot 512^2 + 6 \\cdot 512", "1,050,624 + 1024"]:
    row(P, "b", typed, "correct", value=4 * 512**2 + 3072, why="4·512² weights + 6·512 biases")
row(P, "b", "1,050,624", "incorrect", "missing_bias_kv", 4 * 512 * 513, 0, "nn.MultiheadAttention without add_bias_kv")
row(P, "b", "1,048,576", "incorrect", "missing_biases", 4 * 512**2, 0, "weights only")
row(P, "b", "1,051,136", "incorrect", "missing_output_bias bias_formula_per_head", 4 * 512**2 + 2560, 0,
    "b_O left out (5·512), or the article's bias count")
row(P, "b", "1.052M", "rounded", "rounded", 1_052_000, 1000, "1,051,648 to 4 figures")
row(P, "b", "1.05M", "rounded", "rounded", 1_050_000, 10_000,
    "1,051,648 to 3 figures (1,050,624, without add_bias_kv, is also 1.05M, but not exactly)")

# =================================================================================================================
# Head-count sweep at d_model 768 with biases: d_k = 768/h; the total 4·768·769 = 2,362,368 for every h.
T_ = 4 * 768 * 769
for h in (1, 4, 12):
    P = f"mha-heads-sweep-h{h}"
    row(P, "a", str(768 // h), "correct", value=768 // h, why=f"d_k = 768 / {h}")
    row(P, "a", f"768/{h}", "correct", value=768 // h, why=f"d_k = 768 / {h}")
    row(P, "b", "2,362,368", "correct", value=T_, why="4·768·769, the same for every h")
row("mha-heads-sweep-h4", "a", "\\frac{768}{4}", "correct", value=192, why="768 / 4")
row("mha-heads-sweep-h4", "a", "3072", "incorrect", "", 3072, 0, "768·4: multiplied instead of divided")
row("mha-heads-sweep-h12", "a", "768", "incorrect", "", 768, 0, "d_model, not one head's width")
row("mha-heads-sweep-h12", "a", "96", "incorrect", "", 96, 0, "768 / 8, the h of another problem")
row("mha-heads-sweep-h1", "b", "4 \\cdot 768 \\cdot 769", "correct", value=T_, why="4·768·769")
row("mha-heads-sweep-h1", "b", "2,359,296", "incorrect", "missing_biases", 4 * 768**2, 0, "4·768²")
row("mha-heads-sweep-h1", "b", "1,771,776", "incorrect", "missing_output_projection missing_value_projection",
    3 * 768 * 769, 0, "three projections")
row("mha-heads-sweep-h4", "b", "591,168", "incorrect", "single_head_only", 4 * 768 * 192 + 3 * 192 + 768, 0,
    "one head of 192: 4·768·192 + 3·192 + 768")
row("mha-heads-sweep-h4", "b", "9,449,472", "incorrect", "heads_times_full_matrices", 4 * T_, 0, "4 × 4·768·769")
row("mha-heads-sweep-h4", "b", "4,134,144", "incorrect", "output_projection_per_head", 3 * 768 * 769 + 4 * 768 * 769,
    0, "a W_O per head: 3·768·769 + 4·768·769")
row("mha-heads-sweep-h12", "b", "197,568", "incorrect", "single_head_only", 4 * 768 * 64 + 3 * 64 + 768, 0,
    "one head of 64: 4·768·64 + 3·64 + 768")
row("mha-heads-sweep-h12", "b", "28,348,416", "incorrect", "heads_times_full_matrices", 12 * T_, 0, "12 × 4·768·769")
row("mha-heads-sweep-h12", "b", "2.36M", "rounded", "rounded", 2_360_000, 10_000, "2,362,368 to 3 figures")
row("mha-heads-sweep-h12", "b", "2,362,368 parameters", "correct", value=T_, why="4·768·769")

# =================================================================================================================
# mha-flops-long-context: n 2048, d 4096, h 32, batch 1, FLOPs (2 per multiply-add).
# (a) Q, K, V: 3·2·2048·4096² = 206,158,430,208; (b) QKᵀ: 2·32·2048²·128 = 2^35 = 34,359,738,368;
# (c) 8nd² + 4n²d = 343,597,383,680; (d) the projections (linear 8nd² against attention 4n²d: n/2d = 1/4).
P = "mha-flops-long-context"
n, d = 2048, 4096
PR, SC, TO = 6 * n * d * d, 2 * 32 * n * n * 128, 8 * n * d * d + 4 * n * n * d
for typed in ["206,158,430,208", "3 \\cdot 2 \\cdot 2048 \\cdot 4096^2", "6 \\times 2048 \\times 4096^{2}",
              "3 \\cdot 2^{36}"]:
    row(P, "a", typed, "correct", value=PR, why="three (2048×4096)(4096×4096) products at 2 FLOPs: 6nd²")
row(P, "a", "2.06e11", "rounded", "rounded", 206_000_000_000, 10**9, "3 figures")
row(P, "a", "206 billion", "rounded", "rounded", 206_000_000_000, 10**9, "3 figures with a scale word")
row(P, "a", "2.1e11", "rounded", "rounded", 210_000_000_000, 10**10, "2 figures")
row(P, "a", "~2 \\times 10^{11}", "incorrect", "", 200_000_000_000, 0, "one significant figure")
row(P, "a", "103,079,215,104", "incorrect", "macs_not_flops", 3 * n * d * d, 0, "multiply-adds once: 3nd²")
row(P, "a", "68,719,476,736", "incorrect", "one_projection_only", 2 * n * d * d, 0, "one projection: 2nd²")
row(P, "a", "6,442,450,944", "incorrect", "single_head_only", 6 * n * d * 128, 0, "one head's width: 6·n·d·d_k")
row(P, "a", "343,597,383,680", "incorrect", "other_quantity", TO, 0, "the block's total FLOPs")
for typed in ["34,359,738,368", "2^{35}", "2 \\cdot 32 \\cdot 2048^2 \\cdot 128", "2 \\cdot 2048^2 \\cdot 4096"]:
    row(P, "b", typed, "correct", value=SC, why="per head (n×d_k)(d_k×n) at 2 FLOPs, 32 heads: 2n²d")
row(P, "b", "17,179,869,184", "incorrect", "macs_not_flops", SC // 2, 0, "n²d multiply-adds")
row(P, "b", "1,073,741,824", "incorrect", "n_squared_d_missed_heads_factor", SC // 32, 0, "one head: 2n²d_k")
row(P, "b", "68,719,476,736", "incorrect", "other_quantity", 2 * SC, 0,
    "QKᵀ and AV together (4n²d), which equals the output projection's 2nd² here")
row(P, "b", "3.4e10", "rounded", "rounded", 34_000_000_000, 10**9, "2 figures")
row(P, "b", "34.4 billion", "rounded", "rounded", 34_400_000_000, 10**8, "3 figures")
for typed in ["343,597,383,680", "8 \\cdot 2048 \\cdot 4096^2 + 4 \\cdot 2048^2 \\cdot 4096", "5 \\cdot 2^{36}"]:
    row(P, "c", typed, "correct", value=TO, why="8nd² + 4n²d")
row(P, "c", "274,877,906,944", "incorrect", "missing_attention_matmuls", 8 * n * d * d, 0, "linear layers only: 8nd²")
row(P, "c", "2^{38}", "incorrect", "missing_attention_matmuls", 2**38, 0, "8nd² = 2^38")
row(P, "c", "171,798,691,840", "incorrect", "macs_not_flops", TO // 2, 0, "MACs: 4nd² + 2n²d")
row(P, "c", "277,025,390,592", "incorrect", "n_squared_d_missed_heads_factor", 8 * n * d * d + 4 * n * n * 128, 0,
    "attention for one head: 8nd² + 4n²d_k")
row(P, "c", "206,158,430,208", "incorrect", "one_projection_only", TO - 2 * 2 * n * d * d, 0,
    "one of Q, K, V: 8nd² − 4nd² + 4n²d")
row(P, "c", "3.44e11", "rounded", "rounded", 344_000_000_000, 10**9, "3 figures")
row(P, "c", "343.6 billion", "rounded", "rounded", 343_600_000_000, 10**8, "4 figures")
row(P, "c", "3.4 \\times 10^{11}", "rounded", "rounded", 340_000_000_000, 10**10, "2 figures, LaTeX")
for typed in ["projections", "Projections dominate.", "the linear layers", "QKV projections", "linear"]:
    row(P, "d", typed, "correct", value="projections", why="8nd² > 4n²d since n < 2d")
for typed in ["attention", "attention dominates", "equal"]:
    row(P, "d", typed, "incorrect", "", typed.split()[0], 0,
        "n = 2048 < d = 4096: the rule of thumb agrees with the counts, so no catalogued mistake")
for typed in ["not attention", "attention is smaller", "softmax"]:
    row(P, "d", typed, "unreadable", why="turns a word around, or names none of the choices")

# =================================================================================================================
# mha-shapes-memory: b 32, h 8, n 128, d_model 512, d_k 64, fp32.
# (a) per-head Q (32, 8, 128, 64); (b) scores (32, 8, 128, 128); (c) concat (32, 128, 512);
# (d) attention weights 32·8·128·128·4 = 16,777,216 bytes = 16 MiB; (e) Q, K, V 3·32·128·512·4 = 25,165,824 = 24 MiB.
P = "mha-shapes-memory"
QH, SCS, CC = (32, 8, 128, 64), (32, 8, 128, 128), (32, 128, 512)
for typed in ["(32, 8, 128, 64)", "[32,8,128,64]", "32x8x128x64", "32 × 8 × 128 × 64",
              "torch.Size([32, 8, 128, 64])", "(32, 8, 128, 512/8)"]:
    row(P, "a", typed, "correct", value=QH, why="(b, h, n, d_k) after the reshape and transpose")
row(P, "a", "(32, 128, 8, 64)", "incorrect", "heads_seq_axes_swapped", (32, 128, 8, 64), 0, "no transpose")
row(P, "a", "(32, 8, 128, 512)", "incorrect", "d_model_for_d_k", (32, 8, 128, 512), 0, "d_model as a head's width")
row(P, "a", "(8, 128, 64)", "incorrect", "batch_axis_dropped", (8, 128, 64), 0, "no batch axis")
row(P, "a", "(128, 8, 64)", "incorrect", "heads_seq_axes_swapped batch_axis_dropped", (128, 8, 64), 0,
    "no batch and no transpose: a pair")
row(P, "a", "(32, 128, 512)", "incorrect", "other_quantity", CC, 0, "Q before the split into heads (shape.q)")
row(P, "a", "(32, 8, 128, 128)", "incorrect", "other_quantity", SCS, 0, "the scores' shape")
row(P, "a", "(32, 8, 64, 128)", "incorrect", "", (32, 8, 64, 128), 0, "Kᵀ per head: not an ask")
row(P, "a", "(b, h, n, d_k)", "unreadable", why="symbols, not sizes")
for typed in ["(32, 8, 128, 128)", "32×8×128×128", "torch.Size([32, 8, 128, 128])"]:
    row(P, "b", typed, "correct", value=SCS, why="(b, h, n, n)")
row(P, "b", "(32, 128, 8, 128)", "incorrect", "heads_seq_axes_swapped", (32, 128, 8, 128), 0, "no transpose")
row(P, "b", "(8, 128, 128)", "incorrect", "batch_axis_dropped", (8, 128, 128), 0, "no batch axis")
row(P, "b", "(32, 8, 128, 64)", "incorrect", "other_quantity", QH, 0, "per-head Q's shape")
row(P, "b", "(32, 128, 128)", "incorrect", "", (32, 128, 128), 0, "the heads axis left out: not catalogued")
for typed in ["(32, 128, 512)", "(32, 128, 8*64)", "32 x 128 x 512"]:
    row(P, "c", typed, "correct", value=CC, why="(b, n, h·d_v)")
row(P, "c", "(128, 512)", "incorrect", "batch_axis_dropped", (128, 512), 0, "no batch axis")
row(P, "c", "(32, 8, 128, 64)", "incorrect", "other_quantity", QH, 0, "the heads' outputs before concatenation")
row(P, "c", "(32, 128, 8, 64)", "incorrect", "", (32, 128, 8, 64), 0, "transposed back but not merged: not an ask")
AW = 32 * 8 * 128 * 128 * 4
for typed, v, r in [("16,777,216", AW, 0), ("16 MiB", AW, 0), ("16.8 MB", 16_800_000, 100_000),
                    ("16.78 MB", 16_780_000, 10_000), ("16777216 B", AW, 0), ("16,777,216 bytes", AW, 0),
                    ("2^{24}", AW, 0), ("32 \\cdot 8 \\cdot 128 \\cdot 128 \\cdot 4", AW, 0), ("16384 KiB", AW, 0),
                    ("16.777 MB", 16_777_000, 1000), ("16.8 megabytes", 16_800_000, 100_000),
                    ("0.0156 GiB", Fraction(156, 10000) * GiB, Fraction(GiB, 10000))]:
    row(P, "d", typed, "correct", value=v, res=r,
        why="b·h·n·n = 4,194,304 values × 4 bytes = 16 MiB ≈ 16.78 MB (with a unit, 3+ figures that round to it)")
row(P, "d", "17 MB", "rounded", "rounded", 17 * MB, MB, "16.78 MB to 2 figures")
row(P, "d", "1.7e7", "rounded", "rounded", 17_000_000, 1_000_000, "2 figures")
row(P, "d", "1.68e7", "correct", "", 16_800_000, 100_000,
    "a power of ten to 3 figures, within half a unit of the third (issue 39, rule 4: as with a unit)")
row(P, "d", "16 MB", "incorrect", "decimal_vs_binary_units", 16 * MB, MB, "16 MiB written as MB", other_unit=16 * MiB)
row(P, "d", "4,194,304", "incorrect", "bytes_per_value_missing", AW // 4, 0, "values, not bytes")
row(P, "d", "4 MiB", "incorrect", "bytes_per_value_missing", 4 * MiB, 0, "4,194,304 values as bytes")
row(P, "d", "134,217,728", "incorrect", "bits_for_bytes", AW * 8, 0, "32 bits per value as bytes")
row(P, "d", "128 MiB", "incorrect", "bits_for_bytes", 128 * MiB, 0, "bits for bytes")
row(P, "d", "134 MB", "incorrect", "bits_for_bytes", 134 * MB, MB, "134,217,728 to 3 figures")
row(P, "d", "25,165,824", "incorrect", "other_quantity", 3 * 32 * 128 * 512 * 4, 0, "Q, K, V activations")
row(P, "d", "16.7 MB", "incorrect", "", 16_700_000, 100_000, "16.777… truncated, not rounded")
row(P, "d", "8 MiB", "incorrect", "", 8 * MiB, 0, "2 bytes per value (fp16) in an fp32 problem")
row(P, "d", "16 Mb", "unreadable", why="megabits")
row(P, "d", "16 M", "unreadable", why="M alone is ambiguous for bytes")
QA = 3 * 32 * 128 * 512 * 4
for typed, v, r in [("24 MiB", QA, 0), ("25.2 MB", 25_200_000, 100_000), ("25,165,824", QA, 0),
                    ("3 \\times 32 \\times 128 \\times 512 \\times 4", QA, 0)]:
    row(P, "e", typed, "correct", value=v, res=r, why="3·b·n·d = 6,291,456 values × 4 bytes = 24 MiB ≈ 25.17 MB")
row(P, "e", "25 MB", "rounded", "rounded", 25 * MB, MB, "25.17 MB to 2 figures")
row(P, "e", "24 MB", "incorrect", "decimal_vs_binary_units", 24 * MB, MB, "24 MiB written as MB", other_unit=24 * MiB)
row(P, "e", "6,291,456", "incorrect", "bytes_per_value_missing", QA // 4, 0, "values, not bytes")
row(P, "e", "6 MiB", "incorrect", "bytes_per_value_missing", 6 * MiB, 0, "values, not bytes")
row(P, "e", "201,326,592", "incorrect", "bits_for_bytes", QA * 8, 0, "bits for bytes")
row(P, "e", "16 MiB", "incorrect", "other_quantity", AW, 0, "the attention weights' memory")
row(P, "e", "8 MiB", "incorrect", "", 8 * MiB, 0, "one of Q, K, V only: not an ask")

# =================================================================================================================
# mha-gqa-shapes: Mistral's block, b 4, n 1024, d_model 4096, h 32, n_kv 8, d_k 128, bf16, no biases.
# (a) K (4, 1024, 1024); (b) per-head K (4, 8, 1024, 128); (c) scores (4, 32, 1024, 1024); (d) (4, 1024, 4096);
# (e) KV cache 2·8·128·1024·4·2 = 16 MiB; (f) weights 41,943,040 × 2 = 80 MiB; (g) the projections.
P = "mha-gqa-shapes"
for typed in ["(4, 1024, 1024)", "4x1024x1024", "torch.Size([4, 1024, 1024])", "(4, 1024, 8*128)"]:
    row(P, "a", typed, "correct", value=(4, 1024, 1024), why="(b, n, n_kv·d_k)")
row(P, "a", "(4, 1024, 4096)", "incorrect", "kv_heads_ignored", (4, 1024, 4096), 0, "h·d_k instead of n_kv·d_k")
row(P, "a", "(1024, 1024)", "incorrect", "batch_axis_dropped", (1024, 1024), 0, "no batch axis")
row(P, "a", "(4, 8, 1024, 128)", "incorrect", "other_quantity", (4, 8, 1024, 128), 0, "K after the split into heads")
for typed in ["(4, 8, 1024, 128)", "[4, 8, 1024, 128]"]:
    row(P, "b", typed, "correct", value=(4, 8, 1024, 128), why="(b, n_kv, n, d_k)")
row(P, "b", "(4, 32, 1024, 128)", "incorrect", "kv_heads_ignored", (4, 32, 1024, 128), 0, "32 heads for K")
row(P, "b", "(4, 1024, 8, 128)", "incorrect", "heads_seq_axes_swapped", (4, 1024, 8, 128), 0, "no transpose")
row(P, "b", "(4, 8, 1024, 4096)", "incorrect", "d_model_for_d_k", (4, 8, 1024, 4096), 0, "d_model as head width")
row(P, "b", "(8, 1024, 128)", "incorrect", "batch_axis_dropped", (8, 1024, 128), 0, "no batch axis")
row(P, "b", "(4, 1024, 32, 128)", "incorrect", "kv_heads_ignored heads_seq_axes_swapped", (4, 1024, 32, 128), 0,
    "32 heads and no transpose: a pair")
row(P, "b", "(4, 1024, 1024)", "incorrect", "other_quantity", (4, 1024, 1024), 0, "K before the split")
row(P, "b", "(b, n_kv, n, d_k)", "unreadable", why="symbols, not sizes")
row(P, "c", "(4, 32, 1024, 1024)", "correct", value=(4, 32, 1024, 1024), why="(b, h, n, n)")
row(P, "c", "(4, 8, 1024, 1024)", "incorrect", "", (4, 8, 1024, 1024), 0, "n_kv heads for the scores: not catalogued")
row(P, "c", "(4, 1024, 32, 1024)", "incorrect", "heads_seq_axes_swapped", (4, 1024, 32, 1024), 0, "no transpose")
row(P, "c", "(32, 1024, 1024)", "incorrect", "batch_axis_dropped", (32, 1024, 1024), 0, "no batch axis")
for typed in ["(4, 1024, 4096)", "4 × 1024 × 4096"]:
    row(P, "d", typed, "correct", value=(4, 1024, 4096), why="(b, n, d_model)")
row(P, "d", "(1024, 4096)", "incorrect", "batch_axis_dropped", (1024, 4096), 0, "no batch axis")
row(P, "d", "(4, 32, 1024, 128)", "incorrect", "other_quantity", (4, 32, 1024, 128), 0, "the heads' outputs")
KV = 2 * 8 * 128 * 1024 * 4 * 2
for typed, v, r in [("16 MiB", KV, 0), ("16,777,216", KV, 0), ("16.8 MB", 16_800_000, 100_000),
                    ("2 \\cdot 8 \\cdot 128 \\cdot 1024 \\cdot 4 \\cdot 2", KV, 0)]:
    row(P, "e", typed, "correct", value=v, res=r, why="2 (K, V) · n_kv 8 · d_k 128 · 1024 tokens · 4 · 2 bytes")
row(P, "e", "17 MB", "rounded", "rounded", 17 * MB, MB, "16.78 MB to 2 figures")
row(P, "e", "8 MiB", "incorrect", "kv_cache_missing_factor_2 bytes_per_value_missing", 8 * MiB, 0,
    "keys only (no factor 2) and values-not-bytes (no × 2 bytes) both give 8,388,608")
row(P, "e", "64 MiB", "incorrect", "kv_heads_ignored", 64 * MiB, 0, "32 heads cached: 4 × 16 MiB")
row(P, "e", "67,108,864", "incorrect", "kv_heads_ignored", 4 * KV, 0, "32 heads cached")
row(P, "e", "128 MiB", "incorrect", "bits_for_bytes", 128 * MiB, 0, "16 bits per value as bytes")
row(P, "e", "16 MB", "incorrect", "decimal_vs_binary_units", 16 * MB, MB, "MB for MiB", other_unit=16 * MiB)
row(P, "e", "256 MiB", "incorrect", "other_quantity", 256 * MiB, 0, "the attention weights: 4·32·1024²·2 bytes")
row(P, "e", "16 Mb", "unreadable", why="megabits")
PB = 41_943_040 * 2
for typed, v, r in [("80 MiB", PB, 0), ("83,886,080", PB, 0), ("83.9 MB", 83_900_000, 100_000),
                    ("41,943,040 \\times 2", PB, 0)]:
    row(P, "f", typed, "correct", value=v, res=r, why="41,943,040 parameters × 2 bytes = 80 MiB ≈ 83.89 MB")
row(P, "f", "84 MB", "rounded", "rounded", 84 * MB, MB, "83.89 MB to 2 figures")
row(P, "f", "41,943,040", "incorrect", "bytes_per_value_missing", PB // 2, 0, "parameters, not bytes")
row(P, "f", "40 MiB", "incorrect", "bytes_per_value_missing", 40 * MiB, 0, "parameters as bytes")
row(P, "f", "80 MB", "incorrect", "decimal_vs_binary_units", 80 * MB, MB, "MB for MiB", other_unit=80 * MiB)
row(P, "f", "128 MiB", "incorrect", "kv_heads_ignored", 128 * MiB, 0, "4·4096² × 2 bytes")
row(P, "f", "640 MiB", "incorrect", "bits_for_bytes", 640 * MiB, 0, "16 bits as bytes")
row(P, "f", "160 MiB", "incorrect", "", 160 * MiB, 0, "4 bytes per value in a bf16 problem")
row(P, "g", "projections", "correct", value="projections",
    why="linear 2·4096·4096·(4096+1024+1024+4096) = 343,597,383,680 > attention 4·32·4096·1024·128 = 68,719,476,736")
row(P, "g", "Projections dominate", "correct", value="projections", why="as above")
row(P, "g", "attention", "incorrect", "", "attention", 0, "the rule of thumb (n < d) agrees: nothing catalogued")

# =================================================================================================================
# BERT-base: d 768, 12 heads, d_ff 3072, 12 layers, vocab 30,522, 512 positions, 2 token types, LayerNorm,
# pooler. (a) (30522 + 512 + 2)·768 + 2·768 = 23,837,184; (b) 4·768·769 + (2·768·3072 + 3072 + 768) + 2·1536 =
# 7,087,872; (c) 23,837,184 + 12·7,087,872 + 768·769 = 109,482,240 (Hugging Face's count).
P = "model-bert-base"
for typed in ["23,837,184", "(30522 + 512 + 2) \\cdot 768 + 2 \\cdot 768"]:
    row(P, "a", typed, "correct", value=23_837_184, why="token, position, type tables + embedding LayerNorm")
row(P, "a", "23,443,968", "incorrect", "missing_position_embeddings", 23_837_184 - 512 * 768, 0, "− 512·768")
row(P, "a", "23,835,648", "incorrect", "missing_layernorm", 23_837_184 - 1536, 0, "− the LayerNorm's 2·768")
row(P, "a", "23,440,896", "incorrect", "", 30522 * 768, 0, "token table only: positions, types and norm left out")
row(P, "a", "23.8M", "rounded", "rounded", 23_800_000, 100_000, "3 figures")
for typed in ["7,087,872", "4(768^2+768) + 2 \\cdot 768 \\cdot 3072 + 3072 + 768 + 4 \\cdot 768"]:
    row(P, "b", typed, "correct", value=7_087_872, why="attention 2,362,368 + FFN 4,722,432 + 2 LayerNorms 3,072")
row(P, "b", "7,084,800", "incorrect", "missing_biases missing_layernorm", 7_087_872 - 3072, 0,
    "− 3,072: the attention biases (4·768) and the two LayerNorms (2·2·768) are the same size")
row(P, "b", "2,362,368", "incorrect", "other_quantity", 4 * 768 * 769, 0, "the attention alone")
row(P, "b", "4,722,432", "incorrect", "other_quantity", 2 * 768 * 3072 + 3072 + 768, 0, "the FFN alone")
row(P, "b", "7,087,104", "incorrect", "missing_output_bias", 7_087_872 - 768, 0, "b_O left out")
row(P, "b", "6,497,280", "incorrect", "missing_output_projection missing_value_projection", 7_087_872 - 768 * 769, 0,
    "one attention projection left out")
row(P, "b", "7.09M", "rounded", "rounded", 7_090_000, 10_000, "3 figures")
row(P, "b", "7.1M", "rounded", "rounded", 7_100_000, 100_000, "2 figures")
for typed in ["109,482,240", "109482240 parameters"]:
    row(P, "c", typed, "correct", value=109_482_240, why="embeddings + 12 layers + pooler")
row(P, "c", "110M", "rounded", "rounded", 110_000_000, 10_000_000,
    "the published '110M': a mantissa's trailing zeros are not significant (as in 1,050,000), so 2 figures")
row(P, "c", "109.5M", "rounded", "rounded", 109_500_000, 100_000, "4 figures")
row(P, "c", "109M", "rounded", "rounded", 109_000_000, 1_000_000, "3 figures")
row(P, "c", "1.09e8", "rounded", "rounded", 109_000_000, 1_000_000, "3 figures")
row(P, "c", "≈110 million", "rounded", "rounded", 110_000_000, 10_000_000, "marked approximate, 2 figures")
row(P, "c", "≈ 110,000,000", "rounded", "rounded", 110_000_000, 10_000_000,
    "marked approximate, 2 figures: the same verdict as ≈110 million")
row(P, "c", "110,000,000", "incorrect", "", 110_000_000, 0,
    "a plain integer with 2 significant figures is not read as rounded (110M, with a scale letter, is)")
row(P, "c", "108,891,648", "incorrect", "", 109_482_240 - 768 * 769, 0, "the pooler left out: not catalogued")
row(P, "c", "7,087,872 \\times 12 + 23,837,184", "incorrect", "", 108_891_648, 0, "the pooler left out, as LaTeX")
row(P, "c", "109,089,024", "incorrect", "missing_position_embeddings", 109_482_240 - 512 * 768, 0, "− 512·768")
row(P, "c", "109,443,840", "incorrect", "missing_layernorm", 109_482_240 - 25 * 1536, 0, "25 LayerNorms of 2·768")
row(P, "c", "109,445,376", "incorrect", "missing_biases", 109_482_240 - 12 * 4 * 768, 0, "12 × 4·768 attention biases")
row(P, "c", "85,054,464", "incorrect", "", 12 * 7_087_872, 0, "the 12 layers only: not an ask")

# model-bert-sizes, seeded: alice 4 layers, d_ff 3072; chen 12 layers, d_ff 2048; dana 24 layers, d_ff 2048.
# FFN 2·768·f + f + 768; layer 2,362,368 + FFN + 3,072; model 23,837,184 + L·layer + 590,592.
P = "model-bert-sizes"


def bert(L, f):
    ffn = 2 * 768 * f + f + 768
    layer = 4 * 768 * 769 + ffn + 4 * 768
    return ffn, layer, 23_837_184 + L * layer + 768 * 769


row(P, "a", "4,722,432", "correct", value=bert(4, 3072)[0], why="alice: 2·768·3072 + 3072 + 768", student="alice")
row(P, "c", "52,779,264", "correct", value=bert(4, 3072)[2], why="alice: 23,837,184 + 4·7,087,872 + 590,592",
    student="alice")
row(P, "c", "109,482,240", "incorrect", "", 109_482_240, 0, "BERT-base's 12 layers, not alice's 4", student="alice")
row(P, "a", "3,148,544", "correct", value=bert(12, 2048)[0], why="chen: 2·768·2048 + 2048 + 768", student="chen")
row(P, "b", "5,513,984", "correct", value=bert(12, 2048)[1], why="chen: 2,362,368 + 3,148,544 + 3,072",
    student="chen")
row(P, "c", "90,595,584", "correct", value=bert(12, 2048)[2], why="chen: 23,837,184 + 12·5,513,984 + 590,592",
    student="chen")
row(P, "b", "5,510,912", "incorrect", "missing_biases missing_layernorm", bert(12, 2048)[1] - 3072, 0,
    "chen: − 3,072 (attention biases or the two LayerNorms)", student="chen")
row(P, "c", "156,763,392", "correct", value=bert(24, 2048)[2], why="dana: 23,837,184 + 24·5,513,984 + 590,592",
    student="dana")
row(P, "c", "1.57e8", "rounded", "rounded", 157_000_000, 1_000_000, "dana's 156,763,392 to 3 figures",
    student="dana")

# =================================================================================================================
# GPT-2 small: vocab 50,257, 1,024 positions, 12 layers of 7,087,872, a final LayerNorm, LM head tied.
# (a) (50257 + 1024)·768 = 39,383,808; (b) 39,383,808 + 12·7,087,872 + 1,536 = 124,439,808.
P = "model-gpt2-small"
for typed in ["39,383,808", "(50257 + 1024) \\times 768", "768(50257+1024)"]:
    row(P, "a", typed, "correct", value=39_383_808, why="token and position tables")
row(P, "a", "38,597,376", "incorrect", "missing_position_embeddings", 50257 * 768, 0, "tokens only")
row(P, "a", "39.4M", "rounded", "rounded", 39_400_000, 100_000, "3 figures")
for typed in ["124,439,808", "124439808 parameters"]:
    row(P, "b", typed, "correct", value=124_439_808, why="embeddings + 12 layers + final LayerNorm; head tied")
row(P, "b", "124M", "rounded", "rounded", 124_000_000, 1_000_000, "3 figures")
row(P, "b", "124.4M", "rounded", "rounded", 124_400_000, 100_000, "4 figures")
row(P, "b", "1.24e8", "rounded", "rounded", 124_000_000, 1_000_000, "3 figures")
row(P, "b", "163,037,184", "incorrect", "tied_embeddings_counted_twice", 124_439_808 + 50257 * 768, 0,
    "the tied head's 50,257·768 counted again")
row(P, "b", "124,401,408", "incorrect", "missing_layernorm", 124_439_808 - 25 * 1536, 0, "25 LayerNorms")
row(P, "b", "123,653,376", "incorrect", "missing_position_embeddings", 124_439_808 - 1024 * 768, 0, "− 1024·768")
row(P, "b", "117M", "incorrect", "missing_output_projection missing_value_projection", 117_000_000, 1_000_000,
    "the GPT-2 paper's 117M: to 3 figures it is 117,352,704, the count without one attention projection")

# =================================================================================================================
# LLaMA-2-7B: d 4096, 32 heads, no biases, gated FFN d_ff 11,008 without biases, RMSNorm, 32 layers,
# vocab 32,000, untied head. (a) 3·4096·11008 = 135,266,304; (b) 4·4096² + 135,266,304 + 2·4096 = 202,383,360;
# (c) 2·32000·4096 + 32·202,383,360 + 4096 = 6,738,415,616 (Hugging Face's count).
P = "model-llama-2-7b"
for typed in ["135,266,304", "3 \\cdot 4096 \\cdot 11008", "3 × 4096 × 11,008"]:
    row(P, "a", typed, "correct", value=135_266_304, why="gate, up and down: 3·4096·11008")
row(P, "a", "90,177,536", "incorrect", "gated_ffn_two_matrices", 2 * 4096 * 11008, 0, "two matrices")
row(P, "a", "2 \\times 4096 \\times 11008", "incorrect", "gated_ffn_two_matrices", 2 * 4096 * 11008, 0, "two matrices")
row(P, "a", "135M", "rounded", "rounded", 135_000_000, 1_000_000, "3 figures")
for typed in ["202,383,360", "4 \\cdot 4096^2 + 3 \\cdot 4096 \\cdot 11008 + 2 \\cdot 4096"]:
    row(P, "b", typed, "correct", value=202_383_360, why="attention 4·4096² + FFN + two RMSNorms")
row(P, "b", "157,294,592", "incorrect", "gated_ffn_two_matrices", 202_383_360 - 4096 * 11008, 0, "two FFN matrices")
row(P, "b", "202,375,168", "incorrect", "missing_layernorm", 202_383_360 - 8192, 0, "− 2·4096")
row(P, "b", "202,399,744", "incorrect", "biases_added", 202_383_360 + 4 * 4096, 0, "4·4096 attention biases")
row(P, "b", "67,108,864", "incorrect", "other_quantity", 4 * 4096**2, 0, "the attention alone")
row(P, "b", "135,266,304", "incorrect", "other_quantity", 135_266_304, 0, "the FFN alone")
row(P, "b", "202M", "rounded", "rounded", 202_000_000, 1_000_000, "3 figures")
for typed in ["6,738,415,616", "6738415616"]:
    row(P, "c", typed, "correct", value=6_738_415_616, why="embedding + 32 layers + final norm + untied head")
for typed, v, r, why in [("6.7B", 6_700_000_000, 10**8, "2 figures"), ("6.74B", 6_740_000_000, 10**7, "3 figures"),
                         ("6.738 billion", 6_738_000_000, 10**6, "4 figures"),
                         ("6.74e9", 6_740_000_000, 10**7, "3 figures")]:
    row(P, "c", typed, "rounded", "rounded", v, r, why)
row(P, "c", "7B", "incorrect", "", 7 * 10**9, 0, "the model's name: one significant figure")
row(P, "c", "6,607,343,616", "incorrect", "", 6_738_415_616 - 32000 * 4096, 0,
    "the untied LM head left out: not catalogued")
row(P, "c", "5,295,575,040", "incorrect", "gated_ffn_two_matrices", 6_738_415_616 - 32 * 4096 * 11008, 0,
    "32 layers of two FFN matrices")
row(P, "c", "6,738,149,376", "incorrect", "missing_layernorm", 6_738_415_616 - 65 * 4096, 0, "65 RMSNorms of 4096")

# =================================================================================================================
# Mistral-7B: LLaMA-like with 8 key/value heads, d_ff 14,336. (a) 2·4096² + 2·4096·1024 = 41,943,040;
# (b) 2·32000·4096 + 32(41,943,040 + 3·4096·14336 + 8192) + 4096 = 7,241,732,096.
P = "model-mistral-7b"
for typed in ["41,943,040", "2 \\cdot 4096^2 + 2 \\cdot 4096 \\cdot 1024"]:
    row(P, "a", typed, "correct", value=41_943_040, why="W_Q, W_O 4096²; W_K, W_V 4096 × 8·128")
row(P, "a", "67,108,864", "incorrect", "kv_heads_ignored", 4 * 4096**2, 0, "32 key/value heads")
row(P, "a", "4 \\times 4096^{2}", "incorrect", "kv_heads_ignored", 4 * 4096**2, 0, "four square projections")
row(P, "a", "41,953,280", "incorrect", "biases_added", 41_943_040 + 10_240, 0, "biases on all four")
row(P, "a", "25,165,824", "incorrect", "missing_output_projection", 41_943_040 - 4096**2, 0, "W_O left out")
row(P, "a", "41.9M", "rounded", "rounded", 41_900_000, 100_000, "3 figures")
row(P, "b", "7,241,732,096", "correct", value=7_241_732_096, why="Mistral-7B's published count")
row(P, "b", "7.24B", "rounded", "rounded", 7_240_000_000, 10**7, "3 figures")
row(P, "b", "7.2B", "rounded", "rounded", 7_200_000_000, 10**8, "2 figures")
row(P, "b", "8,047,038,464", "incorrect", "kv_heads_ignored", 7_241_732_096 + 32 * 2 * 4096 * 3072, 0,
    "32 layers × 2·4096·(4096 − 1024) more")
row(P, "b", "8.05B", "incorrect", "kv_heads_ignored", 8_050_000_000, 10**7, "8,047,038,464 to 3 figures")
row(P, "b", "7B", "incorrect", "", 7 * 10**9, 0, "one significant figure")
row(P, "b", "7,241,732,096 MiB", "unreadable", why="a unit of bytes on a count of parameters")
row(P, "b", "5,362,683,904", "incorrect", "gated_ffn_two_matrices", 7_241_732_096 - 32 * 4096 * 14336, 0,
    "two FFN matrices")

# =================================================================================================================
# nn.Transformer(): d 512, 8 heads, d_ff 2048, 6 + 6 layers, LayerNorm, a final norm per stack, no embeddings.
# (a) 1,050,624 + 2,099,712 + 2·1024 = 3,152,384; (b) 2·1,050,624 + 2,099,712 + 3·1024 = 4,204,032;
# (c) 6·3,152,384 + 6·4,204,032 + 2·1024 = 44,140,544 (PyTorch's published counts).
P = "model-pytorch-transformer"
for typed in ["3,152,384", "4(512^2+512) + 2 \\cdot 512 \\cdot 2048 + 2048 + 512 + 2 \\cdot 1024"]:
    row(P, "a", typed, "correct", value=3_152_384, why="self-attention + FFN + two LayerNorms")
row(P, "a", "3,150,336", "incorrect", "missing_biases missing_layernorm", 3_152_384 - 2048, 0,
    "− 2,048: the attention biases and the two norms are the same size")
row(P, "a", "1,050,624", "incorrect", "other_quantity", 4 * 512 * 513, 0, "the self-attention alone")
row(P, "a", "2,099,712", "incorrect", "other_quantity", 2 * 512 * 2048 + 2048 + 512, 0, "the FFN alone")
row(P, "b", "4,204,032", "correct", value=4_204_032, why="self- and cross-attention + FFN + three norms")
row(P, "b", "3,152,384", "incorrect", "other_quantity", 3_152_384, 0,
    "cross-attention and its norm left out: an encoder layer")
row(P, "b", "4,200,960", "incorrect", "bias_counted_once missing_layernorm", 4_204_032 - 3072, 0,
    "− 3,072: three norms, or one bias per attention (2 × 3·512)")
row(P, "b", "4,199,936", "incorrect", "missing_biases", 4_204_032 - 2 * 2048, 0, "two attentions' biases")
row(P, "b", "3,678,720", "incorrect", "missing_output_projection missing_value_projection", 4_204_032 - 2 * 512 * 513, 0,
    "a projection left out of each attention")
for typed in ["44,140,544", "6 \\cdot 3152384 + 6 \\cdot 4204032 + 2 \\cdot 1024"]:
    row(P, "c", typed, "correct", value=44_140_544, why="6 encoder + 6 decoder layers + 2 final norms")
row(P, "c", "44,138,496", "incorrect", "", 44_140_544 - 2048, 0, "the two final norms left out: not catalogued")
row(P, "c", "44,107,776", "incorrect", "missing_layernorm", 44_140_544 - 32 * 1024, 0, "32 LayerNorms of 1024")
row(P, "c", "44,103,680", "incorrect", "missing_biases", 44_140_544 - 18 * 2048, 0, "18 attentions' biases")
row(P, "c", "44.1M", "rounded", "rounded", 44_100_000, 100_000, "3 figures")
row(P, "c", "44M", "rounded", "rounded", 44_000_000, 1_000_000, "2 figures")

# =================================================================================================================
# RobertaForMaskedLM, default config: BERT's embeddings and layers, no pooler, an MLM head tied to the embedding:
# 768² + 768 + 1,536 + 30,522. Total 109,514,298 at 4 and at 12 heads; attention 4·768·769 = 2,362,368.
for h in (12, 4):
    P = f"model-roberta-default-h{h}"
    row(P, "a", "2,362,368", "correct", value=4 * 768 * 769, why="4·768·769, for any h")
    row(P, "b", "109,514,298", "correct", value=109_514_298, why="23,837,184 + 12·7,087,872 + 622,650 (MLM head)")
    row(P, "b", "132,955,194", "incorrect", "tied_embeddings_counted_twice", 109_514_298 + 30522 * 768, 0,
        "the tied decoder's 30,522·768 counted again")
row("model-roberta-default-h12", "a", "197,568", "incorrect", "single_head_only", 4 * 768 * 64 + 3 * 64 + 768, 0,
    "one head of 64")
row("model-roberta-default-h12", "a", "28,348,416", "incorrect", "heads_times_full_matrices", 12 * 4 * 768 * 769, 0,
    "12 × the block")
row("model-roberta-default-h12", "a", "2.36M", "rounded", "rounded", 2_360_000, 10_000, "3 figures")
row("model-roberta-default-h12", "b", "109,482,240", "incorrect", "", 109_482_240, 0,
    "BertModel's count (pooler, no MLM head): not catalogued")
row("model-roberta-default-h12", "b", "109,474,362", "incorrect", "missing_layernorm", 109_514_298 - 26 * 1536, 0,
    "26 LayerNorms")
row("model-roberta-default-h12", "b", "110M", "rounded", "rounded", 110_000_000, 10_000_000, "2 figures")
row("model-roberta-default-h12", "b", "109.5M", "rounded", "rounded", 109_500_000, 100_000, "4 figures")
row("model-roberta-default-h4", "a", "591,168", "incorrect", "single_head_only", 4 * 768 * 192 + 3 * 192 + 768, 0,
    "one head of 192")
row("model-roberta-default-h4", "a", "9,449,472", "incorrect", "heads_times_full_matrices", 4 * 4 * 768 * 769, 0,
    "4 × the block")
row("model-roberta-default-h4", "b", "194,559,546", "incorrect", "heads_times_full_matrices",
    109_514_298 + 12 * 3 * 4 * 768 * 769, 0, "every layer's attention × 4")
row("model-roberta-default-h4", "b", "130,775,610", "incorrect", "output_projection_per_head",
    109_514_298 + 12 * 3 * 768 * 769, 0, "a W_O per head in every layer")

# =================================================================================================================
# LLaMA-2-7B at inference in fp16, one 4096-token sequence. (a) 6,738,415,616 × 2 = 13,476,831,232 bytes
# (≈ 13.48 GB, 12.55 GiB); (b) KV cache 2·32·32·128·4096·2 = 2,147,483,648 = 2 GiB.
P = "model-llama-2-7b-inference"
PM = 6_738_415_616 * 2
for typed, v, r in [("13,476,831,232", PM, 0), ("13.5 GB", 13_500_000_000, 10**8), ("12.55 GiB", Fraction(1255, 100) * GiB,
                     Fraction(GiB, 100)), ("13.48 GB", 13_480_000_000, 10**7), ("6,738,415,616 \\times 2", PM, 0),
                    ("2 \\cdot 6738415616", PM, 0)]:
    row(P, "a", typed, "correct", value=v, res=r, why="6,738,415,616 parameters × 2 bytes")
row(P, "a", "13 GB", "rounded", "rounded", 13 * GB, GB,
    "13.48 GB to 2 figures (read as GiB it would also round: the reading as typed comes first)")
row(P, "a", "6,738,415,616", "incorrect", "bytes_per_value_missing", PM // 2, 0, "parameters, not bytes")
row(P, "a", "6.74 GB", "incorrect", "bytes_per_value_missing", 6_740_000_000, 10**7, "6,738,415,616 to 3 figures")
row(P, "a", "107.8 GB", "incorrect", "bits_for_bytes", 107_800_000_000, 10**8, "16 bits as bytes, 4 figures")
row(P, "a", "26.95 GB", "incorrect", "", 26_950_000_000, 10**7, "4 bytes per value (fp32): not catalogued")
row(P, "a", "13.4 GB", "incorrect", "advertised_size", 13_400_000_000, 10**8,
    "13.48 truncated, not a rounding; it is the advertised 6.7B (6,738,415,616 cut to 2 figures) x 2 bytes")
KV = 2 * 32 * 32 * 128 * 4096 * 2
for typed, v, r in [("2 GiB", KV, 0), ("2,147,483,648", KV, 0), ("2.15 GB", 2_150_000_000, 10**7),
                    ("2048 MiB", KV, 0), ("2^{31}", KV, 0),
                    ("2 \\cdot 32 \\cdot 32 \\cdot 128 \\cdot 4096 \\cdot 2", KV, 0)]:
    row(P, "b", typed, "correct", value=v, res=r, why="2 (K, V) · 32 layers · 32 heads · 128 · 4096 tokens · 2 bytes")
row(P, "b", "2.1 GB", "rounded", "rounded", 2_100_000_000, 10**8, "2.147 GB to 2 figures")
row(P, "b", "2 GB", "incorrect", "decimal_vs_binary_units", 2 * GB, 0,
    "GB for GiB (one figure, so not a rounding of 2.147 GB)", other_unit=2 * GiB)
row(P, "b", "1 GiB", "incorrect", "kv_cache_missing_factor_2 bytes_per_value_missing", GiB, 0,
    "keys only, or values without × 2 bytes: both 1,073,741,824")
row(P, "b", "1,073,741,824", "incorrect", "kv_cache_missing_factor_2 bytes_per_value_missing", GiB, 0, "as above")
row(P, "b", "16 GiB", "incorrect", "bits_for_bytes", 16 * GiB, 0, "16 bits per value as bytes")
row(P, "b", "0.5 MiB", "incorrect", "", MiB // 2, 0, "the cache per token, not for 4096 tokens")
row(P, "b", "4 GiB", "incorrect", "", 4 * GiB, 0, "4 bytes per value: not catalogued")
row(P, "b", "2.14 GB", "incorrect", "", 2_140_000_000, 10**7, "2.147 truncated")
row(P, "b", "2 Gb", "unreadable", why="gigabits")


# =================================================================================================================


def check(r: dict) -> None:
    """Asserts that a row's verdict follows from derive.py's enumeration (the rules in this file's docstring)."""
    var = variant(r["problem"], r["student"])
    g = D.givens(r["problem"], var)
    ask = D.PROBLEMS[r["problem"]]["parts"][r["part"].lower()]
    right = D.right_answer(g, ask)
    v, res, status, mistakes = r["value"], r["res"], r["status"], r["mistakes"]
    where = f"{r['problem']} ({r['part']}) {r['answer']!r}"
    assert r["why"], f"{where}: no derivation"
    if status == "unreadable":
        assert not mistakes and v is None, where
        return
    numeric = not isinstance(v, (tuple, str))
    near_right = numeric and res > 0 and abs(v - right) <= Fraction(res) / 2
    if status == "correct":
        assert not mistakes and (v == right or near_right), f"{where}: {v} is not {right}"
        return
    exact_mistake = any(v in vs for vs in D.singles(g, ask).values())
    if status == "rounded":
        assert mistakes == {"rounded"} and v != right and near_right and not exact_mistake, where
        return
    assert status == "incorrect", where
    assert not near_right or exact_mistake, f"{where} rounds to the right value"
    expected = D.explain(g, ask, v, res)
    if r["other_unit"] is not None:
        assert abs(r["other_unit"] - right) <= res / 2 or r["other_unit"] == right, where
        expected = (expected - {"other_quantity"}) | {"decimal_vs_binary_units"}
    assert expected == mistakes, f"{where}: derive.py gives {sorted(expected)}, the row says {sorted(mistakes)}"


def text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, tuple):
        return "(" + ", ".join(map(str, value)) + ")"
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.4f}"
    return str(value)


FIELDS = ["problem", "part", "seed", "student", "answer", "value", "status", "mistakes", "derivation"]


def csv_text() -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(FIELDS)
    errors = []
    for r in ROWS:
        try:
            check(r)
        except AssertionError as e:
            errors.append(str(e))
        w.writerow([r["problem"], r["part"], SEED if r["student"] else "", r["student"] or "", r["answer"],
                    text(r["value"]), r["status"], " ".join(sorted(r["mistakes"])), r["why"]])
    if errors:
        raise AssertionError("rows that do not follow from derive.py:\n  " + "\n  ".join(errors))
    return out.getvalue()


if __name__ == "__main__":
    data = csv_text()
    with open(os.path.join(HERE, "answers.csv"), "w", encoding="utf-8", newline="") as f:
        f.write(data)
    print(f"wrote {len(ROWS)} rows to answers.csv")
