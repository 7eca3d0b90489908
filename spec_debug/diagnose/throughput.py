"""The throughput model of speculative decoding: acceptance math, speedup, break-even.

Sources (EAGLE3.md section 7):
- Chain of depth K with conditional acceptance p_i (position i accepted given 1..i-1 were):
  E[AL] = 1 + sum_{k=1..K} prod_{i<=k} p_i; with constant alpha it is (1 - a^(K+1)) / (1 - a)
  (Leviathan et al., arXiv:2211.17192). The +1 is the bonus token the target always adds
  (https://github.com/SafeAILab/EAGLE/issues/195; vllm/v1/spec_decode/metrics.py).
- Tree with greedy verification: siblings are mutually exclusive, so
  E[AL] = 1 + sum over nodes v of prod_{u in path(v)} p(u). EAGLE-2 / SGLang keep the top
  (num_draft_tokens - 1) nodes by cumulative probability (`organize_draft_results`).
- Speedup (Leviathan Theorem 3.8): E[AL] / (K*c + 1) with c = T_draft / T_target, assuming
  verifying K+1 tokens costs one target step; break-even is AL > 1 + K*c (+ overhead).
  K counts draft *passes*: an EAGLE chain runs one per drafted token, a block drafter (SGLang
  DFLASH / DSPARK) proposes its whole block in one forward pass, so its round costs 1*c.
Pure functions, no torch.
"""

from __future__ import annotations

import heapq
import math
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from spec_debug.diagnose.quantization import _names
from spec_debug.diagnose.target_weights import (
    bf16_equivalent_params, decode_weight_parts, draft_modules, weight_parts,
)


# ---------------------------------------------------------------------------------------------
# Acceptance
# ---------------------------------------------------------------------------------------------
def joint_from_conditional(conditional: Sequence[float]) -> list[float]:
    """P(first k+1 drafts all accepted) from the per-position conditional acceptance."""
    joint, running = [], 1.0
    for p in conditional:
        running *= _prob(p)
        joint.append(running)
    return joint


def conditional_from_joint(joint: Sequence[float]) -> list[float]:
    """Inverse of `joint_from_conditional` (vLLM logs the joint, per-position rates)."""
    cond, prev = [], 1.0
    for j in joint:
        cond.append(_prob(j) / prev if prev > 0 else 0.0)
        prev = _prob(j)
    return cond


def chain_accept_length(conditional: Sequence[float], steps: int | None = None) -> float:
    """E[accept length] of a chain of `steps` drafts (default: every position given).

    Positions beyond the given ones reuse the last conditional rate (a flat tail), which is what
    a draft trained for fewer TTT steps than it is served with usually does at best.
    """
    if not conditional:
        return 1.0
    k = len(conditional) if steps is None else steps
    joint = joint_from_conditional(conditional[:k])
    tail = max(0, k - len(conditional))
    if not tail:
        return 1.0 + sum(joint)
    # the flat tail in closed form, sum_{j=1..m} J * p^j (was: a list of every position, which
    # hung on a served depth of 10**9)
    last, p = joint[-1], _prob(conditional[-1])
    rest = last * tail if math.isclose(p, 1.0) else last * p * (1.0 - p ** tail) / (1.0 - p)
    return 1.0 + sum(joint) + rest


def chain_accept_length_constant(alpha: float, steps: int) -> float:
    """(1 - a^(K+1)) / (1 - a), the closed form for a constant acceptance rate."""
    a = _prob(alpha)
    if math.isclose(a, 1.0):
        return float(steps + 1)
    return (1.0 - a ** (steps + 1)) / (1.0 - a)


@dataclass
class TreeNode:
    """A drafted token: p = P(the target picks it | its parent was accepted)."""

    p: float
    children: list["TreeNode"] = field(default_factory=list)


def tree_accept_length(roots: Sequence[TreeNode]) -> float:
    """1 + sum over nodes of the product of p along the path (siblings mutually exclusive)."""

    def walk(nodes: Sequence[TreeNode], reach: float) -> float:
        total = 0.0
        for node in nodes:
            here = reach * _prob(node.p)
            total += here + walk(node.children, here)
        return total

    return 1.0 + walk(roots, 1.0)


def eagle_tree_accept_length(rank_acceptance: Sequence[Sequence[float]], topk: int,
                             num_steps: int, num_draft_tokens: int) -> float:
    """E[AL] of the EAGLE-2 / SGLang dynamic tree.

    rank_acceptance[d][r]: probability that the draft's r-th ranked token at depth d is the
    target's token given the path so far was accepted (sum over r <= 1). Depth 0 offers topk
    candidates, every later step expands each of the topk best leaves by topk (SGLang
    `organize_draft_results`); the best (num_draft_tokens - 1) nodes by cumulative probability
    are verified, always a connected tree since a child is never likelier than its parent.
    With only rank 0 known (others 0) this equals the chain formula.
    """
    budget = max(0, num_draft_tokens - 1)

    def rank_p(depth: int, rank: int) -> float:
        if not rank_acceptance:
            return 0.0
        row = rank_acceptance[min(depth, len(rank_acceptance) - 1)]
        return _prob(row[rank]) if rank < len(row) else 0.0

    # Candidate generation: a frontier of the topk best paths per depth, expanded by topk.
    candidates: list[float] = []
    frontier = [rank_p(0, r) for r in range(topk)]
    candidates.extend(frontier)
    for depth in range(1, num_steps):
        children = [parent * rank_p(depth, r) for parent in frontier for r in range(topk)]
        candidates.extend(children)
        frontier = heapq.nlargest(topk, children)
    return 1.0 + sum(heapq.nlargest(budget, candidates))


# ---------------------------------------------------------------------------------------------
# Cost and speedup
# ---------------------------------------------------------------------------------------------
def speedup(accept_length: float, steps: int, draft_cost_ratio: float, overhead: float = 0.0) -> float:
    """Tokens per target-step-equivalent: AL / (1 + K*c + overhead), Leviathan Thm 3.8."""
    return accept_length / (1.0 + steps * draft_cost_ratio + overhead)


def break_even_accept_length(steps: int, draft_cost_ratio: float, overhead: float = 0.0) -> float:
    """The accept length at which speculation only matches plain decoding."""
    return 1.0 + steps * draft_cost_ratio + overhead


def predicted_tok_s(baseline_tok_s: float, accept_length: float, steps: int,
                    draft_cost_ratio: float, overhead: float = 0.0) -> float:
    return baseline_tok_s * speedup(accept_length, steps, draft_cost_ratio, overhead)


def implied_draft_cost_ratio(measured_tok_s: float, baseline_tok_s: float,
                             accept_length: float, steps: int) -> float | None:
    """c that explains a measurement: AL * baseline / measured = 1 + K*c (overhead folded in)."""
    if measured_tok_s <= 0 or steps <= 0:
        return None
    c = (accept_length * baseline_tok_s / measured_tok_s - 1.0) / steps
    # measured above AL x baseline: faster than a round of one target step can be, so the two
    # numbers were taken under different conditions (batch, concurrency) and explain no cost
    return c if c >= 0 else None


def decoder_layer_params(hidden: int, intermediate: int, heads: int | None = None,
                         kv_heads: int | None = None, head_dim: int | None = None,
                         attn_input: int | None = None) -> int:
    """Weights of one llama-style decoder layer (q/k/v/o + gate/up/down)."""
    d = head_dim or (hidden // heads if heads else hidden)
    n_h = heads or hidden // d
    n_kv = kv_heads or n_h
    x = attn_input or hidden
    attn = x * n_h * d + 2 * x * n_kv * d + n_h * d * hidden
    return attn + 3 * hidden * intermediate


def draft_params_from_config(cfg: dict[str, Any], num_aux: int = 3,
                             target_hidden: int | None = None) -> int:
    """Weights a draft pass reads: fc, the 2H-input first layer, further layers, lm_head.

    `cfg` is the draft decoder config (speculators `transformer_layer_config` or an EAGLE
    LlamaForCausalLMEagle3 config). Embeddings are a lookup, not a matmul: not counted.
    """
    h = int(cfg["hidden_size"])
    inter = int(cfg.get("intermediate_size", 4 * h))
    heads, kv = cfg.get("num_attention_heads"), cfg.get("num_key_value_heads")
    hd = cfg.get("head_dim")
    layers = int(cfg.get("num_hidden_layers", 1))
    dv = int(cfg.get("draft_vocab_size") or cfg.get("vocab_size", 32000))
    th = target_hidden or h
    fc = num_aux * th * h
    first = decoder_layer_params(h, inter, heads, kv, hd, attn_input=2 * h)
    rest = (layers - 1) * decoder_layer_params(h, inter, heads, kv, hd)
    return fc + first + rest + dv * h


def target_params_from_config(cfg: dict[str, Any]) -> int:
    """Weights one target decode step reads (dense; MoE: active experts only, when known)."""
    return sum(part.params for part in decode_weight_parts(cfg))


# Bytes per decoder-layer weight of a quantized checkpoint, by its config.json
# `quantization_config`. Decode is memory-bound, so a pass costs the bytes it reads, and the
# draft is served in bf16 (no quantization_config of its own; SGLang and vLLM quantize a model
# from its own config): an FP8 target (deepseek-ai/DeepSeek-V3 and DeepSeek-R1 config.json
# {"quant_method": "fp8", "weight_block_size": [128, 128]}, Qwen/Qwen3-*-FP8) reads half the
# bytes per weight the draft does, so counting parameters alone halves c. Embeddings, norms and
# lm_head stay bf16 in those checkpoints (only the decoder's Linear weights are fp8).
# This answers "is the whole decoder alike?" for the evidence line; the cost itself counts each
# part at its own precision (target_weights.py).
# compressed-tensors `ignore` entries that leave nothing of weight in bf16: lm_head (counted
# bf16 anyway), the embedding (a lookup), an MoE router (`mlp.gate`, hidden x experts)
# and MiniMax-M2's e_score_correction_bias (a router's bias) and Qwen3-Next's shared_expert_gate
# (hidden x 1), both in their FP8 releases' modules_to_not_convert, and a router by that name
# (gpt-oss's "model.layers.*.mlp.router", Llama 4's feed_forward.router)
_NEGLIGIBLE_UNQUANTIZED = re.compile(r"lm_head|embed_tokens|e_score_correction_bias|(^|[.*:_])(gate|router)\$?$")


def quantized_weight_bytes(cfg: dict[str, Any]) -> float | None:
    """Bytes per decoder Linear weight when the whole decoder is quantized alike, else None
    (not quantized, or a scheme that leaves part of the decoder in bf16: the cost then counts
    each part at its own bytes, target_weights.decode_weight_parts)."""
    q = cfg.get("quantization_config")
    if not isinstance(q, dict):
        return None
    method = str(q.get("quant_method") or "").lower()
    # the skip lists quantization.precision_rule reads: transformers' `modules_to_not_convert` and
    # vLLM Fp8Config's `ignored_layers` (a list; anything else it reads as none)
    kept = _names(q.get("modules_to_not_convert")) + _names(q.get("ignored_layers"))
    overrides = q.get("dynamic") if method in ("gptq", "awq") and isinstance(q.get("dynamic"), dict) else {}
    if method in ("fp8", "fbgemm_fp8", "gptq", "awq") and (
            overrides or not all(_NEGLIGIBLE_UNQUANTIZED.search(name) for name in kept)):
        # a skip list beyond lm_head and the routers (AutoAWQ's ["self_attn"], an FP8 export's
        # first layers' attention), or GPTQModel's per-module `dynamic` bits: part of the decoder
        # is at other bytes, which decode_weight_parts counts (quantization.precision_rule); said
        # here as uniform, the report's line read "decoder weights counted at 0.5 byte(s) each"
        # beside a c that counted that attention at 2
        return None
    if method in ("fp8", "fbgemm_fp8"):
        return 1.0
    if method in ("gptq", "awq"):
        # AutoGPTQ / AutoAWQ quantize every decoder Linear (`bits`, AWQ also `w_bit`)
        bits = q.get("bits", q.get("w_bit"))
        return bits / 8 if isinstance(bits, int) and 0 < bits < 16 else None
    if method == "compressed-tensors":
        # llm-compressor: one config group of weights, nothing left out but lm_head, the
        # embedding and the MoE routers (its MoE recipes' `ignore=["lm_head", "re:.*mlp.gate$"]`,
        # vllm-project/llm-compressor examples; a saved config may list the modules by name),
        # none of which a decode step reads as a decoder weight of any size. Anything more left
        # in bf16 (attention, shared experts: the INT4 Kimi-K2 releases) is not uniform: None here,
        # counted part by part by target_weights.decode_weight_parts.
        groups = q.get("config_groups")
        ignore = q.get("ignore") or []
        if not isinstance(groups, dict) or len(groups) != 1 or not isinstance(ignore, list):
            return None
        if not all(isinstance(name, str) and _NEGLIGIBLE_UNQUANTIZED.search(name) for name in ignore):
            return None
        group = next(iter(groups.values()))
        weights = group.get("weights") if isinstance(group, dict) else None  # null: activations only
        bits = weights.get("num_bits") if isinstance(weights, dict) else None
        return bits / 8 if isinstance(bits, int) and 0 < bits < 16 else None
    return None


def target_bf16_equivalent_params(cfg: dict[str, Any]) -> float:
    """`target_params_from_config`, each weight counted by its bytes relative to bf16, part by part
    (target_weights.py: a mixed-precision target such as the INT4 Kimi-K2 releases, whose routed
    experts alone are INT4, reads its bf16 attention and shared experts at 2 bytes a weight)."""
    return bf16_equivalent_params(decode_weight_parts(cfg))


def estimate_draft_cost_ratio(*, draft_params: float | None = None, target_params: float | None = None,
                              draft_config: dict[str, Any] | None = None,
                              target_config: dict[str, Any] | None = None,
                              num_aux: int = 3, draft_quantization: dict[str, Any] | None = None) -> float | None:
    """c = T_draft / T_target, approximated by the weights each pass reads.

    At small batch decode is memory-bound, so time ~ bytes of weights read: the draft in bf16
    (or at the bytes `draft_quantization`, its own quantization_config, gives each module),
    the target's weights at the bytes its `quantization_config` gives each module
    (target_weights.decode_weight_parts). At large batch both become compute-bound and c tends to
    the FLOP ratio. Kernel-launch overheads are not modelled: pass `overhead` to `speedup`
    for them.
    """
    if draft_params is None and draft_config is not None:
        th = int(target_config["hidden_size"]) if target_config else None
        # the modules of draft_params_from_config, each at its bytes: an FP8 draft (ModelOpt
        # static FP8, vllm-project/vllm#28435; Mistral Large 3's block-scaled FP8 draft,
        # NVIDIA/TensorRT-LLM#9971) reads about half the bytes of a bf16 one, so counting it bf16
        # made c about twice too high; an MLA draft's attention is counted as MLA
        draft_params = bf16_equivalent_params(weight_parts(draft_modules(draft_config, num_aux, th),
                                                           draft_quantization))
    if target_params is None and target_config is not None:
        target_params = target_bf16_equivalent_params(target_config)
    if not draft_params or not target_params:
        return None
    return draft_params / target_params


@dataclass
class ThroughputModel:
    """Everything the throughput step reports, as facts."""

    steps: int
    draft_cost_ratio: float | None
    predicted_accept_length: float | None = None
    observed_accept_length: float | None = None
    break_even_accept_length: float | None = None
    predicted_speedup: float | None = None
    speedup_at_observed: float | None = None
    baseline_tok_s: float | None = None
    measured_tok_s: float | None = None
    predicted_tok_s: float | None = None
    predicted_tok_s_at_observed: float | None = None
    measured_speedup: float | None = None
    implied_draft_cost_ratio: float | None = None
    round_overhead: float | None = None
    """Per-round cost beyond 1 + K*c (scheduling, sampling, the wider verify), in target steps,
    from a measurement: AL * baseline / measured - 1 - K*c."""
    best_steps: int | None = None
    best_accept_length: float | None = None
    predicted_tok_s_best: float | None = None
    """tok/s at the draft's trained steps and standalone acceptance, with the measured overhead."""
    notes: list[str] = field(default_factory=list)
    block_drafter: bool = False
    """The drafter proposes the whole block in one forward pass (SGLang DFLASH / DSPARK): a round
    costs one draft pass, not one per drafted token."""
    draft_passes: int | None = None
    """Draft forward passes per round at `steps`: `steps`, or 1 for a block drafter."""

    def passes(self, steps: int) -> int:
        """Draft forward passes a round of `steps` drafted tokens costs."""
        return 1 if self.block_drafter else steps

    def to_facts(self) -> dict[str, Any]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def build_model(*, steps: int, draft_cost_ratio: float | None,
                predicted_accept_length: float | None = None,
                observed_accept_length: float | None = None,
                baseline_tok_s: float | None = None, measured_tok_s: float | None = None,
                overhead: float = 0.0, best_accept_length: float | None = None,
                best_steps: int | None = None, block_drafter: bool = False,
                steps_known: bool = True) -> ThroughputModel:
    """`steps`: drafted tokens per round; `block_drafter`: they come from one draft pass.
    `steps_known`: `steps` is what the server ran; False when it is only assumed (no launch
    command or startup line said it), and then no cost is inferred from the measured tok/s:
    AL x baseline / measured = 1 + K*c solves for c only with the K the server ran (an assumed
    K of 5 read c = 0.39 "measured" from a server whose K nobody knew)."""
    m = ThroughputModel(steps=steps, draft_cost_ratio=draft_cost_ratio,
                        predicted_accept_length=predicted_accept_length,
                        observed_accept_length=observed_accept_length,
                        baseline_tok_s=baseline_tok_s, measured_tok_s=measured_tok_s,
                        best_steps=best_steps, best_accept_length=best_accept_length,
                        block_drafter=block_drafter)
    c = draft_cost_ratio
    passes = m.draft_passes = m.passes(steps)
    if baseline_tok_s and measured_tok_s:
        m.measured_speedup = measured_tok_s / baseline_tok_s
        if observed_accept_length is not None and not steps_known:
            m.notes.append("the served steps are unknown (no launch command or startup line says them): "
                           "no draft cost is inferred from the measured throughput, which needs the "
                           "number of steps the server ran")
        elif observed_accept_length is not None:
            m.implied_draft_cost_ratio = implied_draft_cost_ratio(
                measured_tok_s, baseline_tok_s, observed_accept_length, passes)
            if m.implied_draft_cost_ratio is None and passes > 0 and measured_tok_s > 0:
                m.notes.append(
                    f"measured {measured_tok_s:g} tok/s is above accept length x baseline = "
                    f"{observed_accept_length * baseline_tok_s:g}: the measurement and the baseline are "
                    "not comparable (same batch size and concurrency?); no cost is inferred from them")
            elif c is not None:
                per_round = observed_accept_length * baseline_tok_s / measured_tok_s
                m.round_overhead = max(0.0, per_round - 1.0 - passes * c)
    if c is None:
        m.notes.append("draft cost ratio c unknown: give draft/target configs or parameter counts")
        return m
    o = m.round_overhead if m.round_overhead is not None else overhead
    m.break_even_accept_length = break_even_accept_length(passes, c, o)
    if predicted_accept_length is not None:
        m.predicted_speedup = speedup(predicted_accept_length, passes, c, o)
    if observed_accept_length is not None:
        m.speedup_at_observed = speedup(observed_accept_length, passes, c, o)
    if baseline_tok_s:
        if m.predicted_speedup is not None:
            m.predicted_tok_s = baseline_tok_s * m.predicted_speedup
        if m.speedup_at_observed is not None:
            m.predicted_tok_s_at_observed = baseline_tok_s * m.speedup_at_observed
        if best_accept_length is not None and best_steps:
            m.predicted_tok_s_best = predicted_tok_s(baseline_tok_s, best_accept_length, m.passes(best_steps), c, o)
    return m


class InvalidProbability(ValueError):
    """An acceptance probability that is no probability: NaN, infinite, or outside [0, 1]."""


# Rates computed as counts / counts can land a rounding error past 0 or 1; only that is clamped.
_PROB_SLACK = 1e-9


def _prob(p: float) -> float:
    """`p` as a probability. NaN once read as 0 (max(0.0, nan) is 0.0): a run of broken
    acceptance numbers predicted an accept length of 1 and a draft that cannot pay off, instead
    of saying the input was wrong; 1.7 or -0.2 was likewise made 1 or 0 without a word."""
    try:
        value = float(p)
    except (TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value) or not -_PROB_SLACK <= value <= 1.0 + _PROB_SLACK:
        raise InvalidProbability(f"acceptance probability {p!r} is not a probability (a finite number "
                                 "from 0 to 1): check the acceptance rates given to the throughput model")
    return min(1.0, max(0.0, value))
