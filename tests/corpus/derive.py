"""The shipped problems' answers, and what each catalogued mistake makes of them, from the formulas.

Written from the README's definitions (the shapes of W_Q, W_K, W_V, W_O; the compute, shape and memory asks; the
whole-model components) and the meaning of each mistake in its table, not from headcount's output. The givens are
copied from problems/*.yaml. The corpus builder (build_corpus.py) uses this module to check that every row's
expected status and mistake set agree with an explicit enumeration: singles, then other quantities, then pairs.

A mistake is modelled as a set of flags (its id); counting "the mistaken way" means evaluating the same formulas
with the flag's change. Two mistakes pair only when they change different parts of the count (ASPECT below).
"""
from __future__ import annotations

from dataclasses import dataclass, field

# ---------------------------------------------------------------------------------------------------------------
# The shipped problems' givens (problems/<id>.yaml). Attention-block keys first; model and workload keys after.

PROBLEMS = {
    "week3-mha-params": {"given": dict(d_model=512, h=8, bias=True), "parts": {"a": "qkv_params", "b": "total_params"}},
    "mha-no-bias": {"given": dict(d_model=512, h=8, bias=False),
                    "parts": {"a": "weight_params", "b": "bias_params", "c": "total_params"}},
    "mha-dk-dv": {"given": dict(d_model=512, h=8, d_k=64, d_v=32, bias=True),
                  "parts": {"a": "v_params", "b": "o_params", "c": "total_params"}},
    "mha-cross-attention": {"given": dict(d_model=512, h=8, kdim=256, vdim=128, bias=True),
                            "parts": {"a": "k_params", "b": "v_params", "c": "total_params"}},
    "mha-gqa": {"given": dict(d_model=4096, h=32, n_kv_heads=8, bias=False),
                "parts": {"a": "d_k", "b": "k_params", "c": "total_params"}},
    "mha-multi-query": {"given": dict(d_model=1024, h=16, n_kv_heads=1, bias=True),
                        "parts": {"a": "k_params", "b": "total_params"}},
    "mha-add-bias-kv": {"given": dict(d_model=512, h=8, bias=True, add_bias_kv=True),
                        "parts": {"a": "bias_params", "b": "total_params"}},
    "mha-heads-sweep-h1": {"given": dict(d_model=768, h=1, bias=True), "parts": {"a": "d_k", "b": "total_params"}},
    "mha-heads-sweep-h4": {"given": dict(d_model=768, h=4, bias=True), "parts": {"a": "d_k", "b": "total_params"}},
    "mha-heads-sweep-h12": {"given": dict(d_model=768, h=12, bias=True), "parts": {"a": "d_k", "b": "total_params"}},
    "mha-flops-long-context": {"given": dict(d_model=4096, h=32, seq_len=2048),
                               "parts": {"a": "flops.projections", "b": "flops.scores", "c": "flops.total",
                                         "d": "flops.dominant"}},
    "mha-shapes-memory": {"given": dict(d_model=512, h=8, batch=32, seq_len=128, dtype="fp32"),
                          "parts": {"a": "shape.q_heads", "b": "shape.scores", "c": "shape.concat",
                                    "d": "memory.attention_weights", "e": "memory.qkv_activations"}},
    "mha-gqa-shapes": {"given": dict(d_model=4096, h=32, n_kv_heads=8, bias=False, batch=4, seq_len=1024,
                                     dtype="bf16"),
                       "parts": {"a": "shape.k", "b": "shape.k_heads", "c": "shape.scores", "d": "shape.output",
                                 "e": "memory.kv_cache", "f": "memory.parameters", "g": "flops.dominant"}},
    "model-bert-base": {"given": dict(d_model=768, h=12, d_ff=3072, layers=12, vocab=30522, max_positions=512,
                                      type_vocab=2, embedding_norm=True, pooler=True),
                        "parts": {"a": "embedding_params", "b": "layer_params", "c": "model_params"}},
    "model-bert-sizes": {"given": dict(d_model=768, h=12, d_ff=3072, layers=12, vocab=30522, max_positions=512,
                                       type_vocab=2, embedding_norm=True, pooler=True),
                         "parts": {"a": "ffn_params", "b": "layer_params", "c": "model_params"}},
    "model-gpt2-small": {"given": dict(d_model=768, h=12, d_ff=3072, layers=12, vocab=50257, max_positions=1024,
                                       final_norm=True, lm_head="linear"),
                         "parts": {"a": "embedding_params", "b": "model_params"}},
    "model-llama-2-7b": {"given": dict(d_model=4096, h=32, bias=False, d_ff=11008, layers=32, vocab=32000,
                                       norm="rmsnorm", ffn="gated", ffn_bias=False, final_norm=True,
                                       lm_head="linear", tied_embeddings=False),
                         "parts": {"a": "ffn_params", "b": "layer_params", "c": "model_params"}},
    "model-llama-2-7b-inference": {"given": dict(d_model=4096, h=32, bias=False, d_ff=11008, layers=32, vocab=32000,
                                                 norm="rmsnorm", ffn="gated", ffn_bias=False, final_norm=True,
                                                 lm_head="linear", tied_embeddings=False, batch=1, seq_len=4096,
                                                 dtype="fp16"),
                                   "parts": {"a": "memory.parameters", "b": "memory.kv_cache"}},
    "model-mistral-7b": {"given": dict(d_model=4096, h=32, n_kv_heads=8, bias=False, d_ff=14336, layers=32,
                                       vocab=32000, norm="rmsnorm", ffn="gated", ffn_bias=False, final_norm=True,
                                       lm_head="linear", tied_embeddings=False),
                         "parts": {"a": "attention_params", "b": "model_params"}},
    "model-pytorch-transformer": {"given": dict(d_model=512, h=8, d_ff=2048, encoder_layers=6, decoder_layers=6,
                                                final_norm=True),
                                  "parts": {"a": "layer_params", "b": "decoder_layer_params", "c": "model_params"}},
    "model-roberta-default-h12": {"given": dict(d_model=768, h=12, d_ff=3072, layers=12, vocab=30522,
                                                max_positions=512, type_vocab=2, embedding_norm=True, lm_head="mlm"),
                                  "parts": {"a": "attention_params", "b": "model_params"}},
    "model-roberta-default-h4": {"given": dict(d_model=768, h=4, d_ff=3072, layers=12, vocab=30522,
                                               max_positions=512, type_vocab=2, embedding_norm=True, lm_head="mlm"),
                                 "parts": {"a": "attention_params", "b": "model_params"}},
}

TRANSFORMERS = {p for p in PROBLEMS if p.startswith("model-")}
BYTES_PER_VALUE = {"fp64": 8, "fp32": 4, "fp16": 2, "bf16": 2, "int8": 1}

# ---------------------------------------------------------------------------------------------------------------
# The mistake catalogue (README, "Mistakes headcount recognises"): which answers each speaks to, and which part
# of the count it changes (two mistakes about the same part cannot both be made, so they do not pair).

COUNTS, BYTES, SHAPES, CHOICES = "counts", "bytes", "shapes", "choices"
CATALOGUE = {
    # id: (answer types it names, aspect of the count it changes)
    "missing_output_projection": ({COUNTS}, "output"),
    "missing_biases": ({COUNTS}, "bias"),
    "missing_output_bias": ({COUNTS}, "bias"),
    "bias_counted_once": ({COUNTS}, "bias"),
    "heads_times_full_matrices": ({COUNTS}, "heads"),
    "single_head_only": ({COUNTS}, "heads"),
    "output_projection_per_head": ({COUNTS}, "heads"),
    "output_projection_square": ({COUNTS}, "output_shape"),
    "bias_formula_per_head": ({COUNTS}, "bias"),
    "missing_value_projection": ({COUNTS}, "value"),
    "kv_heads_ignored": ({COUNTS, SHAPES, BYTES}, "kv_heads"),
    "missing_bias_kv": ({COUNTS}, "bias_kv"),
    "biases_added": ({COUNTS}, "bias"),
    "tied_embeddings_counted_twice": ({COUNTS}, "head"),
    "missing_layernorm": ({COUNTS}, "norms"),
    "missing_position_embeddings": ({COUNTS}, "positions"),
    "gated_ffn_two_matrices": ({COUNTS}, "ffn"),
    "macs_not_flops": ({COUNTS}, "count_unit"),
    "one_projection_only": ({COUNTS}, "flop_projections"),
    "missing_attention_matmuls": ({COUNTS}, "flop_attention"),
    "n_squared_d_missed_heads_factor": ({COUNTS}, "flop_attention"),
    "n_versus_d_rule_of_thumb": ({CHOICES}, "dominance"),
    "heads_seq_axes_swapped": ({SHAPES}, "axes_order"),
    "d_model_for_d_k": ({SHAPES}, "head_width"),
    "batch_axis_dropped": ({SHAPES}, "batch"),
    "bits_for_bytes": ({BYTES}, "value_size"),
    "bytes_per_value_missing": ({BYTES}, "value_size"),
    "kv_cache_missing_factor_2": ({BYTES}, "kv_cache"),
}
# Ways of counting the block's biases as a whole: not offered on a part about one projection.
WHOLE_BLOCK = {"bias_counted_once", "bias_formula_per_head"}

# ---------------------------------------------------------------------------------------------------------------
# One attention block.


@dataclass
class Block:
    d_model: int
    h: int
    d_k: int
    d_v: int
    n_kv: int
    q: int = 0          # each projection's weights + bias
    k: int = 0
    v: int = 0
    o: int = 0
    weights: int = 0
    biases: int = 0     # every bias, PyTorch's bias_k and bias_v included
    widths: dict = field(default_factory=dict)  # (rows, columns) of each projection, for FLOPs


def block(g: dict, m: frozenset = frozenset()) -> Block:
    """The block's counts, counted with the mistakes in m."""
    d, h = g["d_model"], g["h"]
    d_k = g.get("d_k", d // h)
    d_v = g.get("d_v", d // h)
    kdim, vdim = g.get("kdim", d), g.get("vdim", d)
    n_kv = h if "kv_heads_ignored" in m else g.get("n_kv_heads", h)
    heads, kv_heads = (1, 1) if "single_head_only" in m else (h, n_kv)
    # W_Q: d_model x h d_k; W_K: kdim x n_kv d_k; W_V: vdim x n_kv d_v; W_O: h d_v x d_model.
    q_out, k_out, v_out = heads * d_k, kv_heads * d_k, kv_heads * d_v
    o_in = d if "output_projection_square" in m else heads * d_v
    biased = bool(g.get("bias", True))
    # A bias is as wide as its projection's output.
    bias = [q_out, k_out, v_out, d] if biased else [0, 0, 0, 0]
    if "missing_output_bias" in m:
        bias[3] = 0
    if "missing_biases" in m:
        bias = [0, 0, 0, 0]
    if "biases_added" in m:
        bias = [q_out, k_out, v_out, d]
    if "bias_counted_once" in m:
        bias = [d, 0, 0, 0]
    if "bias_formula_per_head" in m:
        # The article: h(3 d_k + d_v) for Q, K and V, d_model for O (split h d_k, h d_k, h (d_k + d_v)).
        bias = [h * d_k, h * d_k, h * (d_k + d_v), d]
    copies = h if "heads_times_full_matrices" in m else 1
    q = (d * q_out + bias[0]) * copies
    k = (kdim * k_out + bias[1]) * copies
    v = 0 if "missing_value_projection" in m else (vdim * v_out + bias[2]) * copies
    o_copies = 0 if "missing_output_projection" in m else (h if "output_projection_per_head" in m else copies)
    o = (o_in * d + bias[3]) * o_copies
    weights = (d * q_out + kdim * k_out) * copies + (0 if "missing_value_projection" in m else vdim * v_out * copies) \
        + o_in * d * o_copies
    biases = (bias[0] + bias[1]) * copies + (0 if "missing_value_projection" in m else bias[2] * copies) \
        + bias[3] * o_copies
    rule_keeps_bias_kv = not ({"missing_biases", "bias_counted_once", "bias_formula_per_head"} & m)
    if g.get("add_bias_kv") and "missing_bias_kv" not in m and rule_keeps_bias_kv:
        # PyTorch's bias_k and bias_v are appended to the projected keys and values: as wide as them.
        biases += k_out + (0 if "missing_value_projection" in m else v_out)
    bias_kv = biases - ((bias[0] + bias[1]) * copies + (0 if "missing_value_projection" in m else bias[2] * copies)
                        + bias[3] * o_copies)
    assert q + k + v + o + bias_kv == weights + biases  # two ways of adding up the same count
    return Block(d, h, d_k, d_v, n_kv, q, k, v, o, weights, biases,
                 {"Q": (d, q_out), "K": (kdim, k_out), "V": (vdim, v_out), "O": (o_in, d)})


# ---------------------------------------------------------------------------------------------------------------
# A whole transformer (kind: transformer).


def model(g: dict, m: frozenset = frozenset()) -> dict:
    d = g["d_model"]
    b = block(g, m)
    attention = b.weights + b.biases
    layernorm = g.get("norm", "layernorm") == "layernorm"
    norm = 0 if "missing_layernorm" in m else (2 * d if layernorm else d)  # LayerNorm: scale and shift
    gated = g.get("ffn", "mlp") == "gated" and "gated_ffn_two_matrices" not in m
    d_ff = g["d_ff"]
    ffn = (3 if gated else 2) * d * d_ff + ((2 * d_ff if gated else d_ff) + d if g.get("ffn_bias", True) else 0)
    positions = 0 if "missing_position_embeddings" in m else g.get("max_positions", 0)
    vocab = g.get("vocab", 0)
    embedding = (vocab + positions + g.get("type_vocab", 0)) * d + (norm if g.get("embedding_norm") else 0)
    encoder_decoder = "encoder_layers" in g
    first = g["encoder_layers"] if encoder_decoder else g["layers"]
    decoders = g.get("decoder_layers", 0)
    layer = attention + ffn + 2 * norm
    decoder_layer = 2 * attention + ffn + 3 * norm if encoder_decoder else 0  # self- and cross-attention
    final = (2 if encoder_decoder else 1) * norm if g.get("final_norm") else 0
    pooler = d * d + d if g.get("pooler") else 0
    tied = g.get("tied_embeddings", True) and "tied_embeddings_counted_twice" not in m
    head_weight = 0 if tied else vocab * d
    head = {"none": 0, "linear": head_weight, "mlm": d * d + d + norm + head_weight + vocab}[g.get("lm_head", "none")]
    total = embedding + first * layer + decoders * decoder_layer + final + pooler + head
    norms = (norm if g.get("embedding_norm") else 0) + first * 2 * norm + decoders * 3 * norm + final \
        + (norm if g.get("lm_head") == "mlm" else 0)
    return dict(attention=attention, ffn=ffn, layer=layer, decoder_layer=decoder_layer, embedding=embedding,
                norms=norms, total=total, block=b)


# ---------------------------------------------------------------------------------------------------------------
# Compute, shapes and memory over the workload (batch b, seq_len n; self-attention here, so m = n).


def flops(g: dict, m: frozenset = frozenset()) -> dict:
    b = block(g, m)
    per_product = 1 if "macs_not_flops" in m else 2
    tokens = g.get("batch", 1) * g["seq_len"]
    n = g["seq_len"]

    def product(name):  # (tokens x rows) by (rows x columns): tokens * rows * columns multiply-adds
        rows, columns = b.widths[name]
        return per_product * tokens * rows * columns

    projections = product("Q") if "one_projection_only" in m else product("Q") + product("K") + product("V")
    output = product("O")
    heads = 1 if "n_squared_d_missed_heads_factor" in m else b.h
    scores = per_product * heads * tokens * n * b.d_k          # Q K^T per head: (n x d_k)(d_k x n)
    weighted_sum = per_product * heads * tokens * n * b.d_v    # A V per head: (n x n)(n x d_v)
    if "missing_attention_matmuls" in m:
        scores = weighted_sum = 0
    linear, attention = projections + output, scores + weighted_sum
    if "n_versus_d_rule_of_thumb" in m:  # attention dominates when n > d
        dominant = "projections" if n < b.d_model else ("attention" if n > b.d_model else "equal")
    else:
        dominant = "projections" if linear > attention else ("attention" if attention > linear else "equal")
    return dict(projections=projections, scores=scores, weighted_sum=weighted_sum, output=output,
                total=linear + attention, dominant=dominant, linear=linear, attention=attention)


def shapes(g: dict, m: frozenset = frozenset()) -> dict:
    b = block(g, m)
    B, n = g.get("batch", 1), g["seq_len"]
    width_k = b.d_model if "d_model_for_d_k" in m else b.d_k
    width_v = b.d_model if "d_model_for_d_k" in m else b.d_v

    def t(*axes):
        return tuple(axes[1:]) if "batch_axis_dropped" in m else tuple(axes)

    def per_head(heads, seq, last):  # (b, heads, seq, last); without the transpose, (b, seq, heads, last)
        return t(B, seq, heads, last) if "heads_seq_axes_swapped" in m else t(B, heads, seq, last)

    return {"shape.input": t(B, n, b.d_model), "shape.q": t(B, n, b.h * b.d_k), "shape.k": t(B, n, b.n_kv * b.d_k),
            "shape.v": t(B, n, b.n_kv * b.d_v), "shape.q_heads": per_head(b.h, n, width_k),
            "shape.k_heads": per_head(b.n_kv, n, width_k), "shape.v_heads": per_head(b.n_kv, n, width_v),
            "shape.scores": per_head(b.h, n, n), "shape.attention_weights": per_head(b.h, n, n),
            "shape.head_output": per_head(b.h, n, width_v), "shape.concat": t(B, n, b.h * b.d_v),
            "shape.output": t(B, n, b.d_model)}


def memory(g: dict, m: frozenset = frozenset()) -> dict:
    b = block(g, m)
    per_value = BYTES_PER_VALUE[g["dtype"]]
    if "bits_for_bytes" in m:
        per_value *= 8
    if "bytes_per_value_missing" in m:
        per_value = 1
    transformer = "d_ff" in g
    parameters = (model(g, m)["total"] if transformer else b.weights + b.biases) * per_value
    out = {"memory.parameters": parameters}
    if "seq_len" in g:
        B, n = g.get("batch", 1), g["seq_len"]
        layers = g["layers"] if transformer else 1
        per_token = b.n_kv * (b.d_k if "kv_cache_missing_factor_2" in m else b.d_k + b.d_v)
        out["memory.attention_weights"] = B * b.h * n * n * per_value
        out["memory.qkv_activations"] = B * n * (b.h * b.d_k + b.n_kv * b.d_k + b.n_kv * b.d_v) * per_value
        if not (transformer and "encoder_layers" in g):
            out["memory.kv_cache"] = layers * B * n * per_token * per_value
    return out


# ---------------------------------------------------------------------------------------------------------------
# Every ask a problem can answer (README "Problem specs"), with its unit and which projections it counts.

MHA_ASKS = {  # id: (unit, projections counted)
    "q_params": ("parameters", "Q"), "k_params": ("parameters", "K"), "v_params": ("parameters", "V"),
    "o_params": ("parameters", "O"), "qkv_params": ("parameters", "QKV"), "weight_params": ("parameters", "QKVO"),
    "bias_params": ("parameters", "QKVO"), "total_params": ("parameters", "QKVO"), "d_k": ("dimensions", ""),
    "d_v": ("dimensions", ""),
}
MODEL_ASKS = {"embedding_params": "", "attention_params": "QKVO", "ffn_params": "", "norm_params": "",
              "layer_params": "QKVO", "decoder_layer_params": "QKVO", "model_params": "QKVO"}
FLOP_ASKS = {"flops.projections": "QKV", "flops.scores": "", "flops.weighted_sum": "", "flops.output": "O",
             "flops.total": "QKVO"}
MEMORY_ASKS = {"memory.attention_weights": "", "memory.qkv_activations": "QKV", "memory.kv_cache": "",
               "memory.parameters": "QKVO"}


def all_asks(g: dict, m: frozenset = frozenset()) -> dict:
    """Every askable quantity of a problem with these givens: id -> (unit, projections, answer)."""
    out = {}
    b = block(g, m)
    out.update({"q_params": b.q, "k_params": b.k, "v_params": b.v, "o_params": b.o, "qkv_params": b.q + b.k + b.v,
                "weight_params": b.weights, "bias_params": b.biases, "total_params": b.weights + b.biases,
                "d_k": b.d_k, "d_v": b.d_v})
    asks = {a: (unit, proj, out[a]) for a, (unit, proj) in MHA_ASKS.items()}
    if "d_ff" in g:
        t = model(g, m)
        values = {"embedding_params": t["embedding"], "attention_params": t["attention"], "ffn_params": t["ffn"],
                  "norm_params": t["norms"], "layer_params": t["layer"], "model_params": t["total"]}
        if "encoder_layers" in g:
            values["decoder_layer_params"] = t["decoder_layer"]
        asks.update({a: ("parameters", MODEL_ASKS[a], v) for a, v in values.items()})
    if "seq_len" in g:
        f = flops(g, m)
        asks.update({a: ("FLOPs", proj, f[a.split(".")[1]]) for a, proj in FLOP_ASKS.items()})
        asks["flops.dominant"] = ("term", "QKVO", f["dominant"])
        asks.update({a: ("shape", "", s) for a, s in shapes(g, m).items()})
    if "dtype" in g:
        asks.update({a: ("bytes", MEMORY_ASKS[a], v) for a, v in memory(g, m).items()})
    return asks


def answer_type(unit: str) -> str:
    return {"bytes": BYTES, "shape": SHAPES, "term": CHOICES}.get(unit, COUNTS)


def right_answer(g: dict, ask: str):
    return all_asks(g)[ask][2]


def singles(g: dict, ask: str) -> dict:
    """Each catalogued mistake that speaks to this ask and changes its answer: id -> set of values it gives."""
    unit, projections, right = all_asks(g)[ask]
    out = {}
    # A slip in a count carries into everything made of it: a count's mistakes speak to bytes (the parameters'
    # memory is their count times the bytes per value) as well as counts.
    kind = answer_type(unit)
    allowed = {COUNTS, BYTES} if kind in (COUNTS, BYTES) else {kind}
    for mistake, (types, _aspect) in CATALOGUE.items():
        if not types & allowed or (mistake in WHOLE_BLOCK and len(projections) < 2):
            continue
        value = all_asks(g, frozenset({mistake}))[ask][2]
        values = {value} - {right}
        if mistake == "bias_formula_per_head" and ask == "qkv_params":
            # The article's bias count applied whole to Q, K and V: h(3 d_k + d_v) + d_model on top of the weights.
            b = block(g)
            qkv_weights = b.d_model * (b.h * b.d_k) + g.get("kdim", b.d_model) * (b.n_kv * b.d_k) \
                + g.get("vdim", b.d_model) * (b.n_kv * b.d_v)
            values.add(qkv_weights + b.h * (3 * b.d_k + b.d_v) + b.d_model)
        if values:
            out[mistake] = values
    if sizes := advertised(g, ask):
        out["advertised_size"] = sizes
    return out


def advertised(g: dict, ask: str) -> set:
    """A model's advertised size (its parameter count rounded to 1, 2 or 3 figures, or cut to 2, as 6.7B for
    6,738,415,616) used for its count, in an ask made of the count (its parameters' memory), unless that is also
    the right value rounded."""
    if "d_ff" not in g or ask != "memory.parameters":
        return set()
    count = model(g)["total"]
    right = right_answer(g, ask)
    digits = len(str(count))
    sizes = set()
    for figures in (1, 2, 3):
        scale = 10 ** (digits - figures)
        sizes.add((count + scale // 2) // scale * scale)
        if figures == 2:
            sizes.add(count // scale * scale)
    sizes.discard(count)

    def rounding_of_right(value: int) -> bool:
        for figures in range(1, 16):
            place = 10 ** (len(str(right)) - figures)
            if place >= 1 and value == (right + place // 2) // place * place:
                return True
        return False

    values = {size * BYTES_PER_VALUE[g["dtype"]] for size in sizes if count >= 1_000_000}
    return {v for v in values if v != right and not rounding_of_right(v)}


def pairs(g: dict, ask: str) -> dict:
    """Two mistakes about different parts of the count made together: (id, id) -> value, kept only when it
    differs from the right answer and from each mistake alone."""
    right = right_answer(g, ask)
    one = singles(g, ask)
    ids = [i for i in CATALOGUE if i in one]
    out = {}
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if CATALOGUE[a][1] == CATALOGUE[b][1]:
                continue
            value = all_asks(g, frozenset({a, b}))[ask][2]
            if value != right and value not in one[a] and value not in one[b]:
                out[(a, b)] = value
    return out


def other_quantities(g: dict, ask: str) -> dict:
    """Every other askable quantity in the same unit whose answer differs from this one's: id -> answer."""
    asks = all_asks(g)
    unit, _projections, right = asks[ask]
    return {a: v for a, (u, _p, v) in asks.items() if a != ask and u == unit and v != right}


def explain(g: dict, ask: str, value, resolution: float = 0) -> set:
    """The mistake ids the grader must name for a wrong answer `value` written to `resolution` (0: exact):
    catalogued singles that give it; else `other_quantity` when another ask does; else the pairs that give it."""
    def near(v):
        if isinstance(v, (tuple, str)) or isinstance(value, (tuple, str)):
            return v == value
        return abs(v - value) <= resolution / 2

    # Issue 39's rule 6: a number that more than two unrelated explanations (sharing no mistake) give names none of
    # them as its cause, for a count; a shape or a word is not a coincidence of rounding.
    count = not isinstance(value, (tuple, str))
    found = {m for m, values in singles(g, ask).items() if any(near(v) for v in values)}
    if found:
        return set() if count and len(found) > 2 else found
    if any(near(v) for v in other_quantities(g, ask).values()):
        return {"other_quantity"}
    matching = [set(pair) for pair, v in pairs(g, ask).items() if near(v)]
    unrelated = []
    for pair in matching:
        if not any(pair & other for other in unrelated):
            unrelated.append(pair)
    if count and len(unrelated) > 2:
        return set()
    return {m for pair in matching for m in pair}


def givens(problem: str, variant: dict | None = None) -> dict:
    g = dict(PROBLEMS[problem]["given"])
    if variant:
        g.update(variant)
    return g
