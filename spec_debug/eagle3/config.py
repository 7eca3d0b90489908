"""The draft's config.json, read into one typed `DraftConfig` whatever the format.

Two formats exist (EAGLE3.md section 1):
- speculators: `speculators_model_type: eagle3`, the decoder config nested under
  `transformer_layer_config`, aux ids top-level, the norm flags top-level
  (vllm-project/speculators src/speculators/models/eagle3/config.py);
- EAGLE / SpecForge: a flat HF llama config (`LlamaForCausalLMEagle3`) with `draft_vocab_size`,
  `target_hidden_size` and the aux ids nested in `eagle_config` (sgl-project/SpecForge
  configs/*-eagle3.json; SafeAILab/EAGLE eagle/model/cnets.py).

Pure stdlib: the controller can read a config without torch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from spec_debug.eagle3 import engines
from spec_debug.errors import SpecDebugError

SUPPORTED_DECODERS = ("llama", "qwen3")


class CheckpointError(SpecDebugError):
    """A draft or target checkpoint that cannot be read or does not make sense."""


@dataclass(frozen=True)
class RopeConfig:
    """RoPE as HF computes it (transformers modeling_rope_utils.py); `params` keeps every key."""

    rope_type: str = "default"
    theta: float = 10000.0
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DraftConfig:
    format: str  # "speculators" | "eagle"
    model_type: str  # decoder family of the draft layers: "llama" | "qwen3"
    hidden_size: int
    target_hidden_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    intermediate_size: int
    rms_norm_eps: float
    vocab_size: int  # target vocabulary V (rows of embed_tokens, length of t2d)
    draft_vocab_size: int  # DV (rows of lm_head)
    attention_bias: bool
    mlp_bias: bool
    hidden_act: str
    rope: RopeConfig
    max_position_embeddings: int
    sliding_window: int | None
    layer_types: tuple[str, ...]  # per draft layer: "full_attention" | "sliding_attention"
    aux_layer_ids: tuple[int, ...] | None  # as written in the config (format's own convention)
    num_aux: int  # fc fan-in in units of target_hidden_size
    norm_before_residual: bool
    norm_before_fc: bool
    fc_norm: bool
    norm_output: bool
    speculative_tokens: int | None
    verifier: str | None
    raw: Mapping[str, Any]

    @property
    def norm_flags(self) -> dict[str, bool]:
        return {flag: bool(getattr(self, flag)) for flag in engines.NORM_FLAGS}

    def trained_layer_ids(self, num_target_layers: int) -> list[int]:
        """The aux ids in the input-to-layer convention (see engines.trained_layer_ids)."""
        return engines.trained_layer_ids(self.raw, num_target_layers)

    def summary(self) -> dict[str, Any]:
        return {
            "format": self.format, "model_type": self.model_type, "hidden_size": self.hidden_size,
            "num_layers": self.num_layers, "vocab_size": self.vocab_size,
            "draft_vocab_size": self.draft_vocab_size, "aux_layer_ids": self.aux_layer_ids,
            "num_aux": self.num_aux, **self.norm_flags,
        }


def _rope_from(decoder: Mapping[str, Any]) -> RopeConfig:
    # transformers >= 5 writes `rope_parameters`; older configs have rope_theta + rope_scaling.
    params = dict(decoder.get("rope_parameters") or {})
    if "sliding_attention" in params or "full_attention" in params:
        # Per-layer-type rope: speculators takes the sliding_attention variant
        # (src/speculators/models/utils.py flatten_rope_parameters).
        params = dict(params.get("sliding_attention") or params.get("full_attention") or {})
    scaling = decoder.get("rope_scaling")
    if isinstance(scaling, Mapping):
        params = {**dict(scaling), **params}
    rope_type = str(params.get("rope_type") or params.get("type") or "default")
    theta = float(params.get("rope_theta") or decoder.get("rope_theta") or 10000.0)
    if rope_type in ("llama3", "yarn", "longrope"):
        params.setdefault("original_max_position_embeddings",
                          decoder.get("original_max_position_embeddings")
                          or decoder.get("max_position_embeddings"))
    return RopeConfig(rope_type=rope_type, theta=theta, params=params)


rope_from_decoder = _rope_from  # public name (diagnose/checks/draft_config.py reads RoPE keys)


def _int(mapping: Mapping[str, Any], key: str, where: str) -> int:
    value = mapping.get(key)
    if value is None:
        raise CheckpointError(f"{where}: config.json has no {key!r}")
    return int(value)


def parse_draft_config(raw: Mapping[str, Any], where: str = "config.json") -> DraftConfig:
    """Read either format. `where` names the file in error messages."""
    if raw.get("speculators_model_type") is not None:
        if raw["speculators_model_type"] != "eagle3":
            raise CheckpointError(
                f"{where}: speculators_model_type is {raw['speculators_model_type']!r}, "
                "not 'eagle3'")
        fmt = "speculators"
        decoder = raw.get("transformer_layer_config") or {}
        aux = raw.get("eagle_aux_hidden_state_layer_ids")
        proposals = (raw.get("speculators_config") or {}).get("proposal_methods") or [{}]
        steps = proposals[0].get("speculative_tokens")
        verifier = ((raw.get("speculators_config") or {}).get("verifier") or {}).get("name_or_path")
    else:
        fmt = "eagle"
        decoder = raw
        aux = (raw.get("eagle_config") or {}).get("eagle_aux_hidden_state_layer_ids") or raw.get(
            "eagle_aux_hidden_state_layer_ids")
        steps = raw.get("num_lookahead_tokens")
        verifier = None
    model_type = str(decoder.get("model_type") or "llama")
    if model_type not in SUPPORTED_DECODERS:
        raise CheckpointError(
            f"{where}: draft decoder model_type {model_type!r} is not supported "
            f"(supported: {', '.join(SUPPORTED_DECODERS)})")
    hidden = _int(decoder, "hidden_size", where)
    heads = _int(decoder, "num_attention_heads", where)
    head_dim = int(decoder.get("head_dim") or hidden // heads)
    vocab = _int(decoder, "vocab_size", where)
    num_layers = int(decoder.get("num_hidden_layers") or 1)
    layer_types = tuple(decoder.get("layer_types") or ("full_attention",) * num_layers)
    target_hidden = raw.get("target_hidden_size") or hidden
    return DraftConfig(
        format=fmt,
        model_type=model_type,
        hidden_size=hidden,
        target_hidden_size=int(target_hidden),
        num_layers=num_layers,
        num_heads=heads,
        num_kv_heads=int(decoder.get("num_key_value_heads") or heads),
        head_dim=head_dim,
        intermediate_size=_int(decoder, "intermediate_size", where),
        rms_norm_eps=float(decoder.get("rms_norm_eps") or 1e-6),
        vocab_size=vocab,
        draft_vocab_size=int(raw.get("draft_vocab_size") or decoder.get("draft_vocab_size")
                             or vocab),
        attention_bias=bool(decoder.get("attention_bias", False)),
        mlp_bias=bool(decoder.get("mlp_bias", False)),
        hidden_act=str(decoder.get("hidden_act") or "silu"),
        rope=_rope_from(decoder),
        max_position_embeddings=int(decoder.get("max_position_embeddings") or 2048),
        sliding_window=decoder.get("sliding_window"),
        layer_types=layer_types,
        aux_layer_ids=tuple(int(i) for i in aux) if aux else None,
        num_aux=len(aux) if aux else 3,  # speculators core.py: 3 when ids are absent
        norm_before_residual=bool(raw.get("norm_before_residual", False)),
        norm_before_fc=bool(raw.get("norm_before_fc", False)),
        fc_norm=bool(raw.get("fc_norm", False)),
        norm_output=bool(raw.get("norm_output", False)),
        speculative_tokens=int(steps) if steps else None,
        verifier=verifier,
        raw=dict(raw),
    )


def read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise CheckpointError(f"{path}: not found") from None
    except json.JSONDecodeError as exc:
        raise CheckpointError(f"{path}: not valid JSON ({exc})") from None


def load_draft_config(model_dir: str | Path) -> DraftConfig:
    path = Path(model_dir) / "config.json"
    return parse_draft_config(read_json(path), where=str(path))


@dataclass(frozen=True)
class TargetConfig:
    """What the drafter needs to know about the target (verifier) model."""

    num_layers: int
    hidden_size: int
    vocab_size: int
    rms_norm_eps: float
    tie_word_embeddings: bool
    raw: Mapping[str, Any]


def load_target_config(target_dir: str | Path) -> TargetConfig:
    path = Path(target_dir) / "config.json"
    raw = read_json(path)
    text = raw.get("text_config") or raw  # multimodal targets keep the LM under text_config
    return TargetConfig(
        num_layers=_int(text, "num_hidden_layers", str(path)),
        hidden_size=_int(text, "hidden_size", str(path)),
        vocab_size=_int(text, "vocab_size", str(path)),
        rms_norm_eps=float(text.get("rms_norm_eps") or 1e-6),
        tie_word_embeddings=bool(raw.get("tie_word_embeddings", text.get("tie_word_embeddings",
                                                                          False))),
        raw=raw,
    )
