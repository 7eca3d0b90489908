"""Checkpoint -> ready-to-run `Eagle3Draft` (+ the target head used for reference targets).

Tensors are read one at a time into a module built on the meta device, so a large draft is
never held twice. Draft embeddings absent from the checkpoint come from the target, as the
engines do (SGLang eagle_worker.py `set_embed`; vLLM llama_eagle3.py load_weights skips a
missing embed_tokens and shares the target's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import torch
from torch import Tensor

from spec_debug.eagle3.checkpoint import (
    CheckpointError, DraftCheckpoint, TargetCheckpoint, open_draft, open_target,
)
from spec_debug.eagle3.model import Eagle3Draft

DTYPES = {"float32": torch.float32, "fp32": torch.float32, "bfloat16": torch.bfloat16,
          "bf16": torch.bfloat16, "float16": torch.float16, "fp16": torch.float16}


def resolve_dtype(name: str | torch.dtype) -> torch.dtype:
    if isinstance(name, torch.dtype):
        return name
    try:
        return DTYPES[name.lower()]
    except KeyError:
        raise CheckpointError(f"unknown dtype {name!r}; use one of {', '.join(DTYPES)}") from None


@dataclass
class TargetHead:
    """The verifier's final norm and lm_head: targets = lm_head(norm(last_hidden))."""

    norm_weight: Tensor  # [Ht]
    lm_head: Tensor  # [V, Ht]
    eps: float

    def logits(self, last_hidden: Tensor) -> Tensor:
        # last_hidden [..., Ht] -> [..., V], computed like HF LlamaRMSNorm + Linear
        x = last_hidden.to(self.lm_head.dtype)
        x32 = x.float()
        x32 = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)
        normed = self.norm_weight * x32.to(x.dtype)
        return normed @ self.lm_head.T


@dataclass
class LoadedDraft:
    model: Eagle3Draft
    checkpoint: DraftCheckpoint
    target: TargetCheckpoint | None
    target_head: TargetHead | None
    embed_source: str  # "draft" | "target"
    notes: list[str] = field(default_factory=list)


def build_draft(checkpoint: DraftCheckpoint, *, target: TargetCheckpoint | None = None,
                device: str | torch.device = "cpu", dtype: str | torch.dtype = "float32",
                use_target_embedding: bool = False, load_target_head: bool = True) -> LoadedDraft:
    cfg = checkpoint.config
    dtype = resolve_dtype(dtype)
    with torch.device("meta"):
        model = Eagle3Draft(cfg, fc_bias=checkpoint.has("fc.bias"),
                            has_input_norm=checkpoint.has("input_norm.weight"),
                            has_fc_norm=checkpoint.has("fc_norm.0.weight"))
    model = model.to_empty(device=device)
    notes: list[str] = []
    if cfg.norm_before_fc and model.input_norm is None:
        raise CheckpointError(f"{checkpoint.path}: norm_before_fc is set but the checkpoint has "
                              "no input_norm.weight")
    if cfg.fc_norm and model.fc_norm is None:
        raise CheckpointError(f"{checkpoint.path}: fc_norm is set but the checkpoint has no "
                              "fc_norm.0.weight")

    embed_source = "draft"
    missing: list[str] = []
    with torch.no_grad():
        for name, param in model.state_dict().items():
            if name == "embed_tokens.weight" and (use_target_embedding
                                                  or not checkpoint.has(name)):
                embed = target.embed() if target is not None else None
                if embed is None:
                    if checkpoint.has(name):
                        notes.append("target embedding requested but unavailable; using the "
                                     "draft's")
                    else:
                        raise CheckpointError(
                            f"{checkpoint.path}: no embed_tokens.weight in the draft; pass "
                            "--target DIR so the target's embedding can be used (the engines "
                            "do the same)")
                else:
                    if tuple(embed.shape) != tuple(param.shape):
                        raise CheckpointError(
                            f"target embedding {tuple(embed.shape)} does not fit the draft "
                            f"{tuple(param.shape)}")
                    param.copy_(embed.to(dtype))
                    embed_source = "target"
                    continue
            if not checkpoint.has(name):
                missing.append(name)
                continue
            tensor = checkpoint.get(name)
            if tuple(tensor.shape) != tuple(param.shape):
                raise CheckpointError(f"{checkpoint.path}: {name} has shape "
                                      f"{tuple(tensor.shape)}, the config implies "
                                      f"{tuple(param.shape)}")
            param.copy_(tensor.to(device=device, dtype=dtype))
    if missing:
        raise CheckpointError(f"{checkpoint.path}: missing tensors: {', '.join(missing[:8])}"
                              + (" ..." if len(missing) > 8 else ""))
    model.to(dtype=dtype)
    d2t, t2d = checkpoint.vocab_maps()
    model.d2t = d2t.to(device=device, dtype=torch.long) if d2t is not None else None
    model.t2d = t2d.to(device=device, dtype=torch.bool) if t2d is not None else None
    if d2t is None and cfg.draft_vocab_size < cfg.vocab_size:
        notes.append("no d2t although draft vocab < target vocab: draft id i is read as target "
                     "id i (what vLLM does with its zero-initialised map)")
    model.eval()

    head = None
    if target is not None and load_target_head:
        pair = target.head()
        if pair is not None:
            norm_w, lm_w = pair
            head = TargetHead(norm_w.to(device=device, dtype=dtype),
                              lm_w.to(device=device, dtype=dtype), target.config.rms_norm_eps)
        else:
            notes.append("target has no final norm / lm_head: reference falls back to data tokens")
    return LoadedDraft(model, checkpoint, target, head, embed_source, notes)


def load_draft(model_dir: str | Path, target_dir: str | Path | None = None, *,
               device: str = "cpu", dtype: str | torch.dtype = "float32",
               use_target_embedding: bool = False) -> LoadedDraft:
    checkpoint = open_draft(model_dir)
    target = open_target(target_dir) if target_dir else None
    return build_draft(checkpoint, target=target, device=device, dtype=dtype,
                       use_target_embedding=use_target_embedding)
