"""P-EAGLE (parallel drafting) draft configs, read for what they share with EAGLE-3.

speculators saves a P-EAGLE draft as `speculators_model_type: "peagle"`, architectures
["PEagleSpeculator"], with `mask_token_id` (src/speculators/models/peagle/config.py:
`PEagleSpeculatorConfig` subclasses `Eagle3SpeculatorConfig`, so the decoder, the aux layer ids,
the norm flags and `speculators_config` are the EAGLE-3 ones). vLLM serves it as method "eagle3"
with `parallel_drafting` on (vllm/transformers_utils/configs/speculators/base.py
`build_vllm_speculative_config`: "peagle" -> {"method": "eagle3", "parallel_drafting": True};
vllm-project/vllm PR #32887). The config checks that only need shapes, layers and steps read it
as the EAGLE-3 config it extends; the drafter, which drafts step by step, still refuses it
(spec_debug.eagle3.config `_refuse_parallel_draft`).
"""

from __future__ import annotations

from typing import Any, Mapping

from spec_debug.eagle3.config import _default_proposal

PEAGLE_TYPE = "peagle"


def is_peagle(raw: Any) -> bool:
    if not isinstance(raw, Mapping):
        return False
    archs = raw.get("architectures")
    names = [str(a) for a in archs] if isinstance(archs, list) else []
    return raw.get("speculators_model_type") == PEAGLE_TYPE or any("peagle" in a.lower() for a in names)


def as_eagle3_config(raw: Any) -> Any:
    """The config as the EAGLE-3 config reader takes it: a speculators P-EAGLE config with its
    type read as eagle3 (same fields); anything else unchanged."""
    if isinstance(raw, Mapping) and raw.get("speculators_model_type") == PEAGLE_TYPE:
        return {**raw, "speculators_model_type": "eagle3"}
    return raw


def speculators_tokens(raw: Any) -> int | None:
    """The K a speculators-format draft (eagle3, peagle, dflash, ...) was exported for: the
    `speculative_tokens` of the proposal method `speculators_config.default_proposal_method`
    names, else of the first (speculators validates the default is one of proposal_methods,
    src/speculators/config.py; spec_debug.eagle3.config reads an EAGLE-3 draft's depth so).
    A draft listing a tree method before its greedy default was read with the tree's K."""
    spec = _speculators_section(raw)
    return _positive_tokens(_default_proposal(spec) if spec is not None else None)


def vllm_served_tokens(raw: Any) -> int | None:
    """The K vLLM serves when the speculator is the served model (`vllm serve <speculator>`):
    `proposal_methods[0].speculative_tokens`, whatever the default names (vllm-project/vllm
    vllm/transformers_utils/configs/speculators/base.py `build_vllm_speculative_config`:
    "Currently we only support one proposal method", it takes the first)."""
    spec = _speculators_section(raw)
    proposals = spec.get("proposal_methods") if spec is not None else None
    return _positive_tokens(proposals[0] if isinstance(proposals, list) and proposals else None)


def _speculators_section(raw: Any) -> Mapping[str, Any] | None:
    if not isinstance(raw, Mapping) or raw.get("speculators_model_type") is None:
        return None
    spec = raw.get("speculators_config")
    return spec if isinstance(spec, Mapping) else None


def _positive_tokens(method: Any) -> int | None:
    value = method.get("speculative_tokens") if isinstance(method, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
