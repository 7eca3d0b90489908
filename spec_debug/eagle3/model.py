"""The EAGLE-3 draft forward pass, written to be read (after pytorch-labs/gpt-fast model.py).

It follows speculators 0.9.0 exactly (vllm-project/speculators
src/speculators/models/eagle3/core.py `Eagle3DraftModel.forward` and model_definitions.py
`Eagle3FirstLayerMixin`); tests/eagle3/test_equivalence.py checks the logits against it at every
test-time-training (TTT) step. Parameter names are speculators' state-dict names, so a
speculators checkpoint loads with `load_state_dict` and a trained module saves as one.

Shapes: B batch, T tokens, H draft hidden, Ht target hidden, A aux layers, V target vocab,
DV draft vocab, h/kv query/key-value heads, d head_dim, I MLP width, S TTT steps so far.

TTT attention (speculators attention.py `create_combined_mask_mod`,
`extend_dense_mask_for_draft_tokens`): step 0 attends causally over its own keys; step s > 0
queries additionally see, for each earlier step j in 1..s, only the key of the *same row* from
step j (one diagonal block per step). Instead of a [T, (s+1)T] mask we compute the T x T causal
block plus s diagonal scores per row and take one softmax over both: the same numbers, without
the wasted s*T^2 work. The causal block is computed a few query rows at a time (`query_blocks`),
each over the keys those rows may see, with the mask of those rows alone
(`StepZeroMask`), so a long sample never holds an [h, T, T] matrix nor a [T, T] mask.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, Mapping

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from spec_debug.eagle3.config import DraftConfig, RopeConfig


@dataclass(frozen=True)
class NormFlags:
    """The four flags the forward honours (EAGLE3.md section 1)."""

    norm_before_residual: bool = False
    norm_before_fc: bool = False
    fc_norm: bool = False
    norm_output: bool = False

    @classmethod
    def of(cls, flags: dict[str, bool]) -> "NormFlags":
        return cls(**{k: bool(flags.get(k, False)) for k in cls.__dataclass_fields__})


# ------------------------------------------------------------------------------------------
# Building blocks
# ------------------------------------------------------------------------------------------
class RMSNorm(nn.Module):
    """HF LlamaRMSNorm / Qwen3RMSNorm: normalise in fp32, scale in the input dtype."""

    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x: Tensor) -> Tensor:
        x32 = x.float()
        x32 = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x32.to(x.dtype)


def _rope_dim(rope: RopeConfig, head_dim: int) -> int:
    # transformers' default RoPE (LlamaRotaryEmbedding / Qwen3RotaryEmbedding
    # .compute_default_rope_parameters) ignores partial_rotary_factor and rotates the whole head;
    # the scaled kinds (modeling_rope_utils.py _compute_*_parameters) honour it
    partial = 1.0 if rope.rope_type == "default" else float(
        rope.params.get("partial_rotary_factor") or 1.0)
    return int(head_dim * partial)


# Keys each kind cannot run without (transformers modeling_rope_utils.py
# `_validate_<kind>_rope_parameters` required_keys; yarn's factor falls back to the ratio below).
_REQUIRED = {"linear": ("factor",), "dynamic": ("factor",),
             "llama3": ("factor", "low_freq_factor", "high_freq_factor"),
             "yarn": ("original_max_position_embeddings",),
             "longrope": ("short_factor", "long_factor", "original_max_position_embeddings")}
SUPPORTED_ROPE = ("default", *_REQUIRED)


def rope_inv_freq(rope: RopeConfig, head_dim: int, max_positions: int,
                  seq_len: int | None = None) -> tuple[Tensor, float]:
    """Inverse frequencies [d/2] and the cos/sin scale, as transformers modeling_rope_utils.py
    computes them (ROPE_INIT_FUNCTIONS). `seq_len` (max position + 1 of the call) matters only
    to the kinds that transformers' `dynamic_rope_update` recomputes per call: dynamic and
    longrope; None is what the module is built with."""
    p = rope.params
    kind = rope.rope_type
    if kind not in SUPPORTED_ROPE:
        raise ValueError(f"rope_type {kind!r} is not supported ({', '.join(SUPPORTED_ROPE)})")
    absent = [key for key in _REQUIRED.get(kind, ()) if p.get(key) is None]
    if absent:
        raise ValueError(f"rope_type {kind!r} needs {', '.join(absent)} in "
                         "rope_parameters / rope_scaling")
    dim = _rope_dim(rope, head_dim)
    base = rope.theta
    exponents = torch.arange(0, dim, 2, dtype=torch.int64).float() / dim
    inv_freq = 1.0 / (base ** exponents)  # [d/2]
    if kind == "default":
        return inv_freq, 1.0
    if kind == "linear":
        return inv_freq / float(p["factor"]), 1.0
    if kind == "dynamic":
        return _dynamic_ntk_inv_freq(float(p["factor"]), base, dim, max_positions, seq_len), 1.0
    if kind == "longrope":
        return _longrope_inv_freq(p, base, dim, max_positions, seq_len)
    if kind == "llama3":
        factor, low, high = float(p["factor"]), float(p["low_freq_factor"]), float(
            p["high_freq_factor"])
        old_len = float(p["original_max_position_embeddings"])
        wavelen = 2 * math.pi / inv_freq
        scaled = torch.where(wavelen > old_len / low, inv_freq / factor, inv_freq)
        smooth = (old_len / wavelen - low) / (high - low)
        smoothed = (1 - smooth) * scaled / factor + smooth * scaled
        medium = ~(wavelen < old_len / high) * ~(wavelen > old_len / low)
        return torch.where(medium, smoothed, scaled), 1.0
    # yarn
    original = float(p["original_max_position_embeddings"])
    factor = p.get("factor") or max_positions / original

    def mscale(scale: float, m: float = 1.0) -> float:
        return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0

    attention_factor = p.get("attention_factor")
    if attention_factor is None:
        if p.get("mscale") and p.get("mscale_all_dim"):
            attention_factor = mscale(factor, p["mscale"]) / mscale(factor, p["mscale_all_dim"])
        else:
            attention_factor = mscale(factor)
    beta_fast, beta_slow = p.get("beta_fast") or 32, p.get("beta_slow") or 1

    def correction_dim(rotations: float) -> float:
        return dim * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))

    lo, hi = correction_dim(beta_fast), correction_dim(beta_slow)
    if p.get("truncate", True):
        lo, hi = math.floor(lo), math.ceil(hi)
    lo, hi = max(lo, 0), min(hi, dim - 1)
    if lo == hi:
        hi += 0.001
    ramp = ((torch.arange(dim // 2, dtype=torch.float32) - lo) / (hi - lo)).clamp(0, 1)
    pos_freqs = base ** (torch.arange(0, dim, 2).float() / dim)
    extrapolation = 1.0 - ramp
    inv = (1.0 / (factor * pos_freqs)) * (1 - extrapolation) + (1.0 / pos_freqs) * extrapolation
    return inv, float(attention_factor)


def _dynamic_ntk_inv_freq(factor: float, base: float, dim: int, max_positions: int,
                          seq_len: int | None) -> Tensor:
    """Dynamic NTK (modeling_rope_utils.py `_compute_dynamic_ntk_parameters`): up to
    max_position_embeddings plain RoPE; past it the base grows with the call's length. The
    per-call path gets seq_len as a tensor, so the base is computed in fp32 there, as here."""
    exponents = torch.arange(0, dim, 2, dtype=torch.int64).float() / dim
    if seq_len is None or seq_len <= max_positions:
        return 1.0 / (base ** exponents)  # the built module: base * 1 ** (d / (d - 2))
    length = torch.tensor(seq_len, dtype=torch.int64)
    scaled = base * ((factor * length / max_positions) - (factor - 1)) ** (dim / (dim - 2))
    return 1.0 / (scaled ** exponents)


def _longrope_inv_freq(p: Mapping, base: float, dim: int, max_positions: int,
                       seq_len: int | None) -> tuple[Tensor, float]:
    """LongRoPE (modeling_rope_utils.py `_compute_longrope_parameters`, Phi-3/Phi-4): per-channel
    short_factor up to original_max_position_embeddings, long_factor past it (chosen per call
    by `dynamic_rope_update` from max(position_ids) + 1); the cos/sin scale is fixed when the
    module is built, from factor or max_position_embeddings / original."""
    original = int(p["original_max_position_embeddings"])
    factors = {}
    for key in ("short_factor", "long_factor"):
        value = p[key]
        if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            raise ValueError(f"rope_type 'longrope': {key} is {value!r:.60}, expected a list of "
                             "numbers")
        if len(value) != dim // 2:
            raise ValueError(f"rope_type 'longrope': {key} has {len(value)} entries, the rotary "
                             f"dim {dim} needs {dim // 2}")
        factors[key] = value
    factor = p.get("factor") or max_positions / original
    attention_factor = p.get("attention_factor")
    if attention_factor is None:
        attention_factor = 1.0 if factor <= 1.0 else math.sqrt(
            1 + math.log(factor) / math.log(original))
    key = "long_factor" if seq_len and seq_len > original else "short_factor"
    ext = torch.tensor(factors[key], dtype=torch.float32)
    exponents = torch.arange(0, dim, 2, dtype=torch.int64).float() / dim
    return 1.0 / (ext * base ** exponents), float(attention_factor)


class Rotary(nn.Module):
    def __init__(self, rope: RopeConfig, head_dim: int, max_positions: int) -> None:
        super().__init__()
        self.rope, self.head_dim, self.max_positions = rope, head_dim, max_positions
        # A plain fp32 CPU tensor, not a buffer: built the same way on any device (also under
        # torch.device("meta") when loading) and never cast to the model dtype.
        with torch.device("cpu"):
            self.inv_freq, self.scale = rope_inv_freq(rope, head_dim, max_positions)

    def _inv_freq_for(self, positions: Tensor) -> Tensor:
        """transformers `dynamic_rope_update` recomputes dynamic and longrope frequencies from
        the call's max(position_ids) + 1. Its module caches the grown dynamic frequencies
        across calls (a shorter call past max_position_embeddings reuses a longer one's), so a
        reused HF module depends on what ran before; this is what a freshly built one gives,
        step by step within a forward as transformers' growth rule does."""
        if self.rope.rope_type in ("dynamic", "longrope"):
            seq_len = int(positions.max()) + 1 if positions.numel() else 0
            with torch.device("cpu"):
                inv_freq, _ = rope_inv_freq(self.rope, self.head_dim, self.max_positions, seq_len)
            return inv_freq.to(positions.device)
        if self.inv_freq.device != positions.device:
            self.inv_freq = self.inv_freq.to(positions.device)
        return self.inv_freq

    def forward(self, positions: Tensor, dtype: torch.dtype) -> tuple[Tensor, Tensor]:
        # positions [B, T] -> cos, sin [B, T, d]
        freqs = positions[..., None].float() * self._inv_freq_for(positions)  # [B, T, d/2]
        angles = torch.cat([freqs, freqs], dim=-1)  # [B, T, d]
        return (angles.cos() * self.scale).to(dtype), (angles.sin() * self.scale).to(dtype)


def rotate(x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    # x [B, h, T, d]; cos/sin [B, T, r] with r = d * partial_rotary_factor
    cos, sin = cos[:, None], sin[:, None]
    r = cos.shape[-1]
    if r < x.shape[-1]:
        # partial_rotary_factor < 1 (kept by speculators train/cli.py for MRoPE verifiers when
        # --mrope-full-head-hack is off): rotate the first r channels neox-style and pass the
        # rest through, as speculators models/eagle3/rotary_partial.py patches HF's
        # apply_rotary_pos_emb to do (and as vLLM's partial rotary does)
        return torch.cat([rotate(x[..., :r], cos[:, 0], sin[:, 0]), x[..., r:]], dim=-1)
    half = x.shape[-1] // 2
    rotated_half = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return x * cos + rotated_half * sin


# transformers activations.py ACT2FN names (the ones llama/qwen3 configs use)
ACTIVATIONS = {"silu": F.silu, "swish": F.silu, "gelu": F.gelu, "relu": F.relu,
               "gelu_pytorch_tanh": lambda x: F.gelu(x, approximate="tanh"),
               "gelu_new": lambda x: F.gelu(x, approximate="tanh")}


# MLP intermediates per chunk of rows, in elements (256 MiB in fp32): a sample of up to 4681
# tokens of a 14336-wide MLP is one chunk, and computes as it always did.
MLP_BUDGET = 1 << 26


class MLP(nn.Module):
    def __init__(self, cfg: DraftConfig) -> None:
        super().__init__()
        H, I = cfg.hidden_size, cfg.intermediate_size
        self.gate_proj = nn.Linear(H, I, bias=cfg.mlp_bias)
        self.up_proj = nn.Linear(H, I, bias=cfg.mlp_bias)
        self.down_proj = nn.Linear(I, H, bias=cfg.mlp_bias)
        if cfg.hidden_act not in ACTIVATIONS:
            raise ValueError(f"hidden_act {cfg.hidden_act!r} is not supported "
                             f"({', '.join(ACTIVATIONS)})")
        self.act = ACTIVATIONS[cfg.hidden_act]

    def forward(self, x: Tensor) -> Tensor:
        rows = max(1, MLP_BUDGET // max(1, x.shape[0] * self.up_proj.out_features))
        if x.shape[1] <= rows:
            return self._rows(x)
        # the MLP is row-wise: a long sample's [B, T, I] intermediates (three of them, 17 GB
        # in fp32 for 100k tokens of an 8B-class draft) are made a budget of rows at a time
        return torch.cat([self._rows(x[:, start:start + rows])
                          for start in range(0, x.shape[1], rows)], dim=1)

    def _rows(self, x: Tensor) -> Tensor:
        return self.down_proj(self.act(self.gate_proj(x)) * self.up_proj(x))  # [B, T, H]


class KVCache:
    """Per layer, per TTT step: keys and values after RoPE, [B, kv, T, d] each."""

    def __init__(self) -> None:
        self.keys: list[Tensor] = []
        self.values: list[Tensor] = []


class Attention(nn.Module):
    def __init__(self, cfg: DraftConfig, in_features: int) -> None:
        super().__init__()
        self.h, self.kv, self.d = cfg.num_heads, cfg.num_kv_heads, cfg.head_dim
        self.q_proj = nn.Linear(in_features, self.h * self.d, bias=cfg.attention_bias)
        self.k_proj = nn.Linear(in_features, self.kv * self.d, bias=cfg.attention_bias)
        self.v_proj = nn.Linear(in_features, self.kv * self.d, bias=cfg.attention_bias)
        self.o_proj = nn.Linear(self.h * self.d, cfg.hidden_size, bias=cfg.attention_bias)
        if cfg.model_type == "qwen3":  # per-head RMSNorm on q and k before RoPE
            self.q_norm = RMSNorm(self.d, cfg.rms_norm_eps)
            self.k_norm = RMSNorm(self.d, cfg.rms_norm_eps)
        else:
            self.q_norm = self.k_norm = None

    def forward(self, x: Tensor, cos: Tensor, sin: Tensor, cache: KVCache,
                causal: "StepZeroMask") -> Tensor:
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.h, self.d)  # [B, T, h, d]
        k = self.k_proj(x).view(B, T, self.kv, self.d)  # [B, T, kv, d]
        v = self.v_proj(x).view(B, T, self.kv, self.d).transpose(1, 2)  # [B, kv, T, d]
        if self.q_norm is not None:
            q, k = self.q_norm(q), self.k_norm(k)
        q = rotate(q.transpose(1, 2), cos, sin)  # [B, h, T, d]
        k = rotate(k.transpose(1, 2), cos, sin)  # [B, kv, T, d]
        cache.keys.append(k)
        cache.values.append(v)

        group = self.h // self.kv
        qg = q.view(B, self.kv, group, T, self.d)  # [B, kv, g, T, d]: GQA without copies
        out = torch.cat([self._attend(qg[..., rows, :], causal.block(rows), cache, rows)
                         for rows in query_blocks(B * self.h, T)], dim=-2)  # [B, kv, g, T, d]
        out = out.reshape(B, self.h, T, self.d).transpose(1, 2).reshape(B, T, self.h * self.d)
        return self.o_proj(out)  # [B, T, H]

    def _attend(self, qg: Tensor, mask: Tensor, cache: KVCache, rows: slice) -> Tensor:
        """Query rows `rows`: qg [B, kv, g, Q, d], mask [Q, rows.stop] -> [B, kv, g, Q, d].

        Every key a row may see lies at or before it (StepZeroMask), so the keys run from the
        first one any of these rows sees to the block's last row: the same softmax (masked
        scores are exp(-inf) = 0), about half the work, and [Q, K] scores instead of [T, T]."""
        scale = self.d ** -0.5
        first = int(mask.any(0).to(torch.uint8).argmax())  # each row sees itself, so any() holds
        keys = slice(first, rows.stop)
        k0 = cache.keys[0][:, :, None, keys]  # [B, kv, 1, K, d]
        v0 = cache.values[0][:, :, None, keys]
        scores = qg @ k0.transpose(-1, -2) * scale  # [B, kv, g, Q, K]
        scores = scores.masked_fill(~mask[:, keys], float("-inf"))
        # one same-row score per later step: [B, kv, g, Q, 1] each
        diagonal = [(qg * kj[:, :, None, rows]).sum(-1, keepdim=True) * scale
                    for kj in cache.keys[1:]]
        probs = torch.cat([scores, *diagonal], dim=-1).softmax(-1, dtype=torch.float32)
        probs = probs.to(qg.dtype)  # [B, kv, g, Q, K + S]
        K = scores.shape[-1]
        out = probs[..., :K] @ v0  # [B, kv, g, Q, d]
        for j, vj in enumerate(cache.values[1:]):
            out = out + probs[..., K + j:K + j + 1] * vj[:, :, None, rows]
        return out


# Scores per query block, in elements (64 MiB in fp32): a 16k-token sample of a 32-head draft
# would otherwise hold several [32, 16k, 16k] fp32 tensors (32 GiB each) at once.
SCORES_BUDGET = 1 << 24


def query_blocks(heads: int, T: int) -> list[slice]:
    """Row ranges of at most SCORES_BUDGET / (heads * T) queries; one range for short samples."""
    size = max(1, SCORES_BUDGET // max(1, heads * T))
    return [slice(start, min(start + size, T)) for start in range(0, T, size)]


class DecoderLayer(nn.Module):
    """A plain pre-norm HF decoder layer on H (draft layers 1..L-1)."""

    def __init__(self, cfg: DraftConfig) -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.self_attn = Attention(cfg, cfg.hidden_size)
        self.post_attention_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.mlp = MLP(cfg)

    def forward(self, x: Tensor, cos: Tensor, sin: Tensor, cache: KVCache,
                causal: "StepZeroMask", flags: NormFlags) -> Tensor:
        h = x + self.self_attn(self.input_layernorm(x), cos, sin, cache, causal)
        return h + self.mlp(self.post_attention_layernorm(h))  # [B, T, H]


class FirstLayer(DecoderLayer):
    """Layer 0: attention over cat([embeds, hidden]) (2H wide), each half normed separately."""

    def __init__(self, cfg: DraftConfig) -> None:
        super().__init__(cfg)
        self.self_attn = Attention(cfg, 2 * cfg.hidden_size)
        self.hidden_norm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)

    def forward(self, x: Tensor, cos: Tensor, sin: Tensor, cache: KVCache,
                causal: "StepZeroMask", flags: NormFlags) -> Tensor:
        embeds, hidden = x.chunk(2, dim=-1)  # [B, T, H] each
        embeds = self.input_layernorm(embeds)
        normed = self.hidden_norm(hidden)
        # norm_before_residual: the residual stream starts from the normed hidden state
        residual = normed if flags.norm_before_residual else hidden
        a = self.self_attn(torch.cat([embeds, normed], dim=-1), cos, sin, cache, causal)
        h = residual + a  # [B, T, H]
        return h + self.mlp(self.post_attention_layernorm(h))


# ------------------------------------------------------------------------------------------
# The draft
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class StepZeroMask:
    """The step-0 mask (True = attend): causal, same document, inside the sliding window,
    built a query block at a time. The whole [T, T] matrix of a 100k-token sample is 10 GB of
    bools (and its construction held three more), so it is never built: each block of rows
    gets its [Q, rows.stop] slice (no row sees a key after itself).

    The diagonal is always allowed (speculators `diagonal_draft_mask_mod`), so padding rows
    (document id -1) attend to themselves only.
    """

    length: int
    device: torch.device
    sliding_window: int | None = None
    document_ids: Tensor | None = None  # [T]

    @classmethod
    def of(cls, T: int, device: torch.device, sliding_window: int | None = None,
           document_ids: Tensor | None = None) -> "StepZeroMask":
        doc = None if document_ids is None else document_ids.reshape(-1).to(device)
        return cls(T, device, sliding_window, doc)

    def block(self, rows: slice) -> Tensor:
        """The mask of query rows `rows` over keys 0..rows.stop-1: [Q, rows.stop]."""
        q = torch.arange(rows.start, rows.stop, device=self.device)[:, None]
        kv = torch.arange(rows.stop, device=self.device)[None, :]
        mask = kv <= q
        if self.sliding_window is not None:
            mask &= kv > q - self.sliding_window
        if self.document_ids is not None:
            doc = self.document_ids
            mine = doc[rows][:, None]
            mask &= (mine == doc[None, :rows.stop]) & (mine != -1)
        return mask | (q == kv)

    def dense(self) -> Tensor:
        """The whole [T, T] mask (for tests and small samples only)."""
        return self.block(slice(0, self.length))


class Eagle3Draft(nn.Module):
    def __init__(self, cfg: DraftConfig, *, fc_bias: bool = False,
                 has_input_norm: bool | None = None, has_fc_norm: bool | None = None) -> None:
        super().__init__()
        self.cfg = cfg
        H, A, Ht = cfg.hidden_size, cfg.num_aux, cfg.target_hidden_size
        # On the meta device (loading._meta_draft: a shape check that reads no data)
        # nn.Embedding's normal_ init goes through torch._refs, whose import of torch._dynamo
        # cost every drafter probe ~2 s of CPU (4-8 s on a loaded host) for no number: a meta
        # tensor holds none. Given a weight, Embedding skips that init (torch/nn/modules/sparse.py).
        on_meta = torch.empty(0).is_meta  # the default device (torch.device("meta") as a context)
        self.embed_tokens = nn.Embedding(cfg.vocab_size, H, _weight=torch.empty(cfg.vocab_size, H) if on_meta else None)
        self.fc = nn.Linear(A * Ht, H, bias=fc_bias)
        has_input_norm = cfg.norm_before_fc if has_input_norm is None else has_input_norm
        has_fc_norm = cfg.fc_norm if has_fc_norm is None else has_fc_norm
        self.input_norm = RMSNorm(A * Ht, cfg.rms_norm_eps) if has_input_norm else None
        self.fc_norm = (nn.ModuleList(RMSNorm(Ht, cfg.rms_norm_eps) for _ in range(A))
                        if has_fc_norm else None)
        self.layers = nn.ModuleList(
            [FirstLayer(cfg)] + [DecoderLayer(cfg) for _ in range(1, cfg.num_layers)])
        self.norm = RMSNorm(H, cfg.rms_norm_eps)
        self.lm_head = nn.Linear(H, cfg.draft_vocab_size, bias=False)
        self.rotary = Rotary(cfg.rope, cfg.head_dim, cfg.max_position_embeddings)
        # d2t: draft id -> target id OFFSET (target = i + d2t[i]); None when DV == V or absent.
        self.d2t: Tensor | None = None
        self.t2d: Tensor | None = None

    @property
    def reference_flags(self) -> NormFlags:
        return NormFlags.of(self.cfg.norm_flags)

    def to_target_ids(self, draft_ids: Tensor) -> Tensor:
        """Draft vocabulary ids -> target ids through the d2t offsets."""
        if self.d2t is None:
            return draft_ids
        return draft_ids + self.d2t.to(draft_ids.device)[draft_ids]

    def project_aux(self, aux_hidden: Tensor, flags: NormFlags) -> Tensor:
        # aux_hidden [B, T, A*Ht] -> [B, T, H]
        if flags.norm_before_fc and self.input_norm is not None:
            aux_hidden = self.input_norm(aux_hidden)  # one RMSNorm over A*Ht
        if flags.fc_norm and self.fc_norm is not None:
            chunks = aux_hidden.chunk(len(self.fc_norm), dim=-1)  # A x [B, T, Ht]
            aux_hidden = torch.cat([n(c) for n, c in zip(self.fc_norm, chunks)], dim=-1)
        return self.fc(aux_hidden)

    def ttt_steps(self, aux_hidden: Tensor, input_ids: Tensor, steps: int, *,
                  flags: NormFlags | None = None, position_ids: Tensor | None = None,
                  document_ids: Tensor | None = None) -> Iterator[Tensor]:
        """Yield draft-vocab logits [B, T, DV] for TTT steps 0..steps-1 (teacher forcing).

        Row t at step s predicts the token s+1 positions after input_ids[t] (speculators
        PR #818 teacher forcing: step s embeds input_ids shifted left by s, zero-padded).
        """
        for head_input in self.ttt_head_inputs(aux_hidden, input_ids, steps, flags=flags,
                                               position_ids=position_ids,
                                               document_ids=document_ids):
            yield self.lm_head(head_input)

    def ttt_head_inputs(self, aux_hidden: Tensor, input_ids: Tensor, steps: int, *,
                        flags: NormFlags | None = None, position_ids: Tensor | None = None,
                        document_ids: Tensor | None = None) -> Iterator[Tensor]:
        """What ttt_steps feeds lm_head at each step: the normed state [B, T, H]. A caller that
        wants only each row's argmax applies the head a few rows at a time (evaluate), rather
        than holding [T, DV] logits (12 GB in fp32 for 100k tokens of a 32k-vocab draft)."""
        flags = flags or self.reference_flags
        B, T = input_ids.shape
        device = input_ids.device
        if position_ids is None:
            position_ids = 1 + torch.arange(T, device=device)[None].expand(B, T)  # speculators default
        masks = {
            window: StepZeroMask.of(T, device, window, document_ids)
            for window in {self._window(i) for i in range(len(self.layers))}
        }
        caches = [KVCache() for _ in self.layers]
        dtype = self.fc.weight.dtype
        hidden = self.project_aux(aux_hidden.to(dtype), flags)  # [B, T, H]
        ids = input_ids
        for step in range(steps):
            embeds = self.embed_tokens(ids)  # [B, T, H]
            x = torch.cat([embeds, hidden], dim=-1)  # [B, T, 2H], embeds FIRST
            cos, sin = self.rotary(position_ids + step, x.dtype)  # [B, T, d]
            for i, layer in enumerate(self.layers):
                x = layer(x, cos, sin, caches[i], masks[self._window(i)], flags)  # [B, T, H]
            if flags.norm_output:  # "Eagle 3.1": carry the normed state to the next step
                hidden = self.norm(x)
                yield hidden
            else:
                hidden = x
                yield self.norm(x)  # [B, T, H]
            shifted = input_ids[:, step + 1:]
            ids = torch.cat([shifted, input_ids.new_zeros(B, T - shifted.shape[1])], dim=-1)

    def forward(self, aux_hidden: Tensor, input_ids: Tensor, steps: int = 1,
                **kwargs) -> list[Tensor]:
        return list(self.ttt_steps(aux_hidden, input_ids, steps, **kwargs))

    def _window(self, layer_index: int) -> int | None:
        return layer_windows(self.cfg)[layer_index]


def layer_windows(cfg: DraftConfig) -> list[int | None]:
    """The attention window of each draft layer (None = full), as speculators builds its masks
    from the transformers config object (core.py `sliding_window`, `sliding_window_indices`);
    config.py has already applied the config class's rules (Qwen3's use_sliding_window)."""
    types = cfg.layer_types
    return [cfg.sliding_window if i < len(types) and types[i] == "sliding_attention" else None
            for i in range(cfg.num_layers)]
