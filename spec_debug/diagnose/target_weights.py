"""The bytes of weights one decode step reads, part by part, from config.json alone: the
target's, and a quantized draft's.

Decode is memory-bound, so a step costs the bytes it reads. A quantized target does not read all
its weights at one precision: the INT4 Kimi-K2 releases quantize only the routed experts and keep
attention, the shared expert and the first dense MLP in bf16; gpt-oss keeps attention bf16 and its
experts MXFP4; an FP8 or ModelOpt checkpoint may skip whole modules. Each part is counted at the
precision its own module is stored in, by the rules the loaders match module names with, so a
mixed-precision target is neither counted all-bf16 nor all-quantized.

Module names are the Hugging Face ones the quantization configs are written against
(transformers modeling_deepseek_v3.py / modeling_llama.py / modeling_mixtral.py / modeling_gpt_oss.py
/ modeling_llama4.py); which precision each is stored in is quantization.py's job.
Embeddings are a lookup, MoE routers and norms are negligible: not counted (as before).
Pure functions, no torch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spec_debug.diagnose.quantization import BF16_BYTES, precision_rule

PART_ORDER = ("fc", "attention", "dense MLP", "routed experts", "shared experts", "lm_head")


@dataclass(frozen=True)
class WeightPart:
    """Weights of one part of a model read per decode step, and the bytes each takes."""

    part: str
    params: int
    bytes_per_weight: float


@dataclass(frozen=True)
class _Module:
    part: str
    name: str  # the Hugging Face module name quantization configs match
    params: int


# ---------------------------------------------------------------------------------------------
# The modules a decode step reads
# ---------------------------------------------------------------------------------------------
def _attention(cfg: dict[str, Any], prefix: str, attn_input: int | None = None) -> list[_Module]:
    """`attn_input`: the width q/k/v read (2H in an EAGLE-3 draft's first layer)."""
    h = int(cfg["hidden_size"])
    heads = cfg.get("num_attention_heads")
    at = f"{prefix}.self_attn"
    x = attn_input or h
    if cfg.get("kv_lora_rank"):
        # Multi-head latent attention (deepseek-ai/DeepSeek-V3 and moonshotai/Kimi-K2-* config.json:
        # q_lora_rank 1536, kv_lora_rank 512, qk_nope_head_dim 128, qk_rope_head_dim 64,
        # v_head_dim 128; transformers modeling_deepseek_v3.py DeepseekV3Attention). Counted as
        # llama attention it was 2x too big for Kimi-K2 (64 heads of 7168 / 64).
        n = int(heads)
        nope, rope = int(cfg.get("qk_nope_head_dim", 128)), int(cfg.get("qk_rope_head_dim", 64))
        v, kv = int(cfg.get("v_head_dim", 128)), int(cfg["kv_lora_rank"])
        ql = cfg.get("q_lora_rank")
        q = ([_Module("attention", f"{at}.q_a_proj", x * int(ql)),
              _Module("attention", f"{at}.q_b_proj", int(ql) * n * (nope + rope))] if ql
             else [_Module("attention", f"{at}.q_proj", x * n * (nope + rope))])
        return q + [_Module("attention", f"{at}.kv_a_proj_with_mqa", x * (kv + rope)),
                    _Module("attention", f"{at}.kv_b_proj", kv * n * (nope + v)),
                    _Module("attention", f"{at}.o_proj", n * v * h)]
    d = cfg.get("head_dim") or (h // int(heads) if heads else h)
    n_h = int(heads or h // d)
    n_kv = int(cfg.get("num_key_value_heads") or n_h)
    d = int(d)
    return [_Module("attention", f"{at}.q_proj", x * n_h * d), _Module("attention", f"{at}.k_proj", x * n_kv * d),
            _Module("attention", f"{at}.v_proj", x * n_kv * d), _Module("attention", f"{at}.o_proj", n_h * d * h)]


# Hybrid targets whose layers alternate Gated DeltaNet (linear attention) with gated full
# attention: transformers modeling_qwen3_next.py and modeling_qwen3_5.py (Qwen3.5, dense and MoE,
# text model types qwen3_5_text / qwen3_5_moe_text). Their config's `layer_types` says which is
# which, else every `full_attention_interval`-th layer (default 4) is full (configuration_*.py).
_GATED_DELTA_NET = ("qwen3_next", "qwen3_5")


def _hybrid(cfg: dict[str, Any]) -> bool:
    return str(cfg.get("model_type") or "").startswith(_GATED_DELTA_NET)


def _linear_attention_layer(cfg: dict[str, Any], layer: int) -> bool:
    types = cfg.get("layer_types")
    if isinstance(types, list) and layer < len(types):
        return types[layer] == "linear_attention"
    interval = int(cfg.get("full_attention_interval") or 4)
    return bool((layer + 1) % interval)


def _gated_delta_net(cfg: dict[str, Any], prefix: str) -> list[_Module]:
    """A Gated DeltaNet token mixer (Qwen3NextGatedDeltaNet / Qwen3_5GatedDeltaNet): q, k of
    linear_num_key_heads x linear_key_head_dim, v and the output gate z of linear_num_value_heads x
    linear_value_head_dim, a and b one per value head, out_proj back to H. Qwen3-Next fuses them
    as in_proj_qkvz / in_proj_ba, Qwen3.5 keeps in_proj_qkv / _z / _b / _a (the names the
    quantization configs match). Counted as full attention, a Qwen3-Next-80B-A3B step lost a
    third of its attention bytes."""
    h = int(cfg["hidden_size"])
    key = int(cfg.get("linear_num_key_heads", 16)) * int(cfg.get("linear_key_head_dim", 128))
    v_heads = int(cfg.get("linear_num_value_heads", 32))
    value = v_heads * int(cfg.get("linear_value_head_dim", 128))
    at = f"{prefix}.linear_attn"
    out = _Module("attention", f"{at}.out_proj", value * h)
    if str(cfg.get("model_type")).startswith("qwen3_next"):
        return [_Module("attention", f"{at}.in_proj_qkvz", h * (2 * key + 2 * value)),
                _Module("attention", f"{at}.in_proj_ba", h * 2 * v_heads), out]
    return [_Module("attention", f"{at}.in_proj_qkv", h * (2 * key + value)),
            _Module("attention", f"{at}.in_proj_z", h * value),
            _Module("attention", f"{at}.in_proj_b", h * v_heads),
            _Module("attention", f"{at}.in_proj_a", h * v_heads), out]


def _gated_full_attention(cfg: dict[str, Any], prefix: str) -> list[_Module]:
    """Their full-attention layers: q_proj also yields the output gate, 2 x heads x head_dim."""
    modules = _attention(cfg, prefix)
    q = modules[0]
    return [_Module(q.part, q.name, 2 * q.params), *modules[1:]]


def _runs_indexer(cfg: dict[str, Any], layer: int) -> bool:
    """GLM-5 (glm_moe_dsa) layers marked "shared" reuse the previous layer's top-k and build no
    indexer (transformers modeling_glm_moe_dsa.py GlmMoeDsaAttention: `indexer_types`, else the
    `index_topk_pattern` F/S string, else every `index_topk_freq`-th layer after
    `index_skip_topk_offset`); DeepSeek-V3.2 runs one in every layer."""
    types = cfg.get("indexer_types")
    if isinstance(types, list) and layer < len(types):
        return types[layer] != "shared"
    pattern = cfg.get("index_topk_pattern")
    # the F/S string, or the same letters as a JSON list (GLM-5.2 tooling reads a config.json
    # `index_topk_pattern` list of "F"/"S" beside indexer_types); SGLang also takes the string
    # from --json-model-override-args, which config.json does not show
    if isinstance(pattern, (str, list)) and layer < len(pattern):
        return pattern[layer] not in ("S", "shared")
    freq = max(int(cfg.get("index_topk_freq") or 1), 1)
    offset = int(cfg.get("index_skip_topk_offset", 2) or 0)
    return max(layer - offset + 1, 0) % freq == 0


def _indexer(cfg: dict[str, Any], prefix: str, layer: int) -> list[_Module]:
    """The lightning indexer of DeepSeek Sparse Attention (DeepSeek-V3.2, GLM-5; config
    `index_n_heads`, `index_head_dim`): transformers modeling_deepseek_v32.py DeepseekV32Indexer
    builds wq_b (q_lora_rank -> heads x head_dim), wk (H -> head_dim) and weights_proj (H -> heads)
    and runs them for every decoded token to pick the top-k keys. Left out, a DeepSeek-V3.2 step
    read 0.85B parameters fewer (64 heads x 128 over q_lora_rank 1536, 61 layers)."""
    heads, dim, q_rank = cfg.get("index_n_heads"), cfg.get("index_head_dim"), cfg.get("q_lora_rank")
    if not (heads and dim and q_rank and cfg.get("kv_lora_rank")) or not _runs_indexer(cfg, layer):
        return []
    h, n, d = int(cfg["hidden_size"]), int(heads), int(dim)
    at = f"{prefix}.self_attn.indexer"
    return [_Module("attention", f"{at}.wq_b", int(q_rank) * n * d), _Module("attention", f"{at}.wk", h * d),
            _Module("attention", f"{at}.weights_proj", h * n)]


def _token_mixer(cfg: dict[str, Any], prefix: str, layer: int) -> list[_Module]:
    if not _hybrid(cfg):
        return _attention(cfg, prefix) + _indexer(cfg, prefix, layer)
    if _linear_attention_layer(cfg, layer):
        return _gated_delta_net(cfg, prefix)
    return _gated_full_attention(cfg, prefix)


def _gated_mlp(part: str, at: str, names: tuple[str, str, str], h: int, width: int) -> list[_Module]:
    return [_Module(part, f"{at}.{name}", h * width) for name in names]


def _mlp(cfg: dict[str, Any], prefix: str, layer: int) -> list[_Module]:
    h = int(cfg["hidden_size"])
    inter = int(cfg.get("intermediate_size", 4 * h))
    top_k = cfg.get("num_experts_per_tok") or cfg.get("experts_per_token")
    moe_inter = cfg.get("moe_intermediate_size")
    dense_first = int(cfg.get("first_k_dense_replace") or 0)
    llama_names = ("gate_proj", "up_proj", "down_proj")
    if cfg.get("intermediate_size_mlp") and top_k:
        return _llama4_feed_forward(cfg, prefix, layer, int(top_k))
    if not top_k or layer < dense_first or not (moe_inter or cfg.get("num_local_experts") or cfg.get("num_experts")):
        # DeepSeek-V3 / Kimi-K2 keep their first `first_k_dense_replace` layers dense (3 / 1),
        # of `intermediate_size` (transformers DeepseekV3DecoderLayer)
        return _gated_mlp("dense MLP", f"{prefix}.mlp", llama_names, h, inter)
    top_k = int(top_k)
    if cfg.get("model_type") == "gpt_oss":
        # gpt-oss: one experts module with fused gate_up_proj and down_proj parameters
        # (transformers modeling_gpt_oss.py GptOssExperts), `intermediate_size` per expert
        at = f"{prefix}.mlp.experts"
        return [_Module("routed experts", f"{at}.gate_up_proj", 2 * h * inter * top_k),
                _Module("routed experts", f"{at}.down_proj", h * inter * top_k)]
    if cfg.get("model_type") == "mixtral" or (not moe_inter and "mixtral" in str(cfg.get("architectures")).lower()):
        # Mixtral names its experts block_sparse_moe.experts.N.w1/w2/w3 (modeling_mixtral.py)
        return _gated_mlp("routed experts", f"{prefix}.block_sparse_moe.experts.0", ("w1", "w3", "w2"),
                          h, inter * top_k)
    # Mixtral-style configs name no moe_intermediate_size: `intermediate_size` is one expert's
    # width (transformers MixtralConfig / GptOssConfig), and each token reads its top-k experts
    # (counting one halved gpt-oss-20b's 3.6B active parameters, OpenAI's model card)
    width = int(moe_inter) if moe_inter else inter
    modules = _gated_mlp("routed experts", f"{prefix}.mlp.experts.0", llama_names, h, width * top_k)
    shared = int(cfg.get("n_shared_experts") or cfg.get("num_shared_experts") or 0)
    if shared and moe_inter:
        # DeepSeek-V3 / Kimi-K2: `n_shared_experts` of moe_intermediate_size, one module
        modules += _gated_mlp("shared experts", f"{prefix}.mlp.shared_experts", llama_names, h, int(moe_inter) * shared)
    elif cfg.get("shared_expert_intermediate_size"):
        # Qwen2-MoE: one shared expert of its own width (modeling_qwen2_moe.py `shared_expert`)
        modules += _gated_mlp("shared experts", f"{prefix}.mlp.shared_expert", llama_names, h,
                              int(cfg["shared_expert_intermediate_size"]))
    return modules


def _llama4_feed_forward(cfg: dict[str, Any], prefix: str, layer: int, top_k: int) -> list[_Module]:
    """Llama 4 (transformers modeling_llama4.py, Llama4TextConfig): the layers in `moe_layers`
    (default every `interleave_moe_layer_step`-th: all 48 in Scout, every other one in Maverick)
    read their top-k routed experts and a shared expert, both `intermediate_size` wide; the
    others a dense MLP of `intermediate_size_mlp`. Counted as routed experts only, a Llama 4
    step was 11B of the 17B active parameters Meta's model cards give."""
    h, layers = int(cfg["hidden_size"]), int(cfg["num_hidden_layers"])
    step = int(cfg.get("interleave_moe_layer_step") or 1)
    moe_layers = cfg.get("moe_layers")
    if not isinstance(moe_layers, list):
        moe_layers = list(range(step - 1, layers, step))
    at = f"{prefix}.feed_forward"
    names = ("gate_proj", "up_proj", "down_proj")
    if layer not in moe_layers:
        return _gated_mlp("dense MLP", at, names, h, int(cfg["intermediate_size_mlp"]))
    inter = int(cfg.get("intermediate_size", 4 * h))
    return [_Module("routed experts", f"{at}.experts.gate_up_proj", 2 * h * inter * top_k),
            _Module("routed experts", f"{at}.experts.down_proj", h * inter * top_k),
            *_gated_mlp("shared experts", f"{at}.shared_expert", names, h, inter)]


def decode_modules(cfg: dict[str, Any]) -> list[_Module]:
    """Every Linear weight one decode step of the target reads, by its module name."""
    modules: list[_Module] = []
    layers = int(cfg["num_hidden_layers"])
    if not 0 < layers <= 10_000:  # a hand-edited config: no model has that many layers
        raise ValueError(f"num_hidden_layers {layers}")
    for layer in range(layers):
        prefix = f"model.layers.{layer}"
        modules += _token_mixer(cfg, prefix, layer) + _mlp(cfg, prefix, layer)
    vocab = int(cfg.get("vocab_size", 32000))
    modules.append(_Module("lm_head", "lm_head", vocab * int(cfg["hidden_size"])))
    return modules


def draft_modules(cfg: dict[str, Any], num_aux: int = 3, target_hidden: int | None = None) -> list[_Module]:
    """Every weight one EAGLE-3 draft pass reads, by its name in a speculators checkpoint
    (`fc`, `layers.N.*`, `lm_head`; EAGLE3.md section 1): fc over the aux states, a first layer
    whose attention reads 2H, further layers, the draft-vocabulary lm_head
    (throughput.draft_params_from_config). An MLA draft (`kv_lora_rank` in its config: vLLM
    deepseek_eagle3.py Eagle3DeepseekV2ForCausalLM, the Kimi-K2.5/K2.6 eagle3-mla heads) has
    MLA attention whose q_a/kv_a projections read 2H in the first layer, and a dense MLP."""
    h = int(cfg["hidden_size"])
    inter = int(cfg.get("intermediate_size", 4 * h))
    modules = [_Module("fc", "fc", num_aux * (target_hidden or h) * h)]
    for layer in range(max(1, int(cfg.get("num_hidden_layers", 1)))):
        modules += _attention(cfg, f"layers.{layer}", 2 * h if layer == 0 else None)
        modules += _gated_mlp("dense MLP", f"layers.{layer}.mlp", ("gate_proj", "up_proj", "down_proj"), h, inter)
    vocab = int(cfg.get("draft_vocab_size") or cfg.get("vocab_size", 32000))
    return modules + [_Module("lm_head", "lm_head", vocab * h)]


def decode_weight_parts(cfg: dict[str, Any]) -> list[WeightPart]:
    """The weights one target decode step reads, grouped by part and the bytes each weight takes."""
    return weight_parts(decode_modules(cfg), cfg.get("quantization_config"))


def weight_parts(modules: list[_Module], quantization_config: Any) -> list[WeightPart]:
    """`modules` grouped by part and the bytes `quantization_config` gives each weight."""
    rule = precision_rule(quantization_config)
    totals: dict[tuple[str, float], int] = {}
    for module in modules:
        per = rule(module) if rule else BF16_BYTES
        totals[(module.part, per)] = totals.get((module.part, per), 0) + module.params
    return sorted((WeightPart(part, params, per) for (part, per), params in totals.items()),
                  key=lambda p: (PART_ORDER.index(p.part), p.bytes_per_weight))


def bf16_equivalent_params(parts: list[WeightPart]) -> float:
    """Parameters of a bf16 model that reads as many bytes as these parts."""
    return sum(p.params * p.bytes_per_weight / BF16_BYTES for p in parts)


def describe(parts: list[WeightPart]) -> str | None:
    """'routed experts 0.5, attention 2, ...' bytes per weight, when not all is bf16."""
    if all(p.bytes_per_weight == BF16_BYTES for p in parts):
        return None
    total = sum(p.params * p.bytes_per_weight for p in parts) or 1.0
    return ", ".join(f"{p.part} {p.bytes_per_weight:g} ({100 * p.params * p.bytes_per_weight / total:.0f}% of the bytes)"
                     for p in parts if p.params)
