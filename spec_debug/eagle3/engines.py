"""Engine conventions as data: how SGLang, vLLM and speculators feed an EAGLE-3 draft.

One row per (engine, aspect, version range), each with the source it was read from. A new
engine release is a data change here. Pure stdlib: the diagnostics on the controller use it
without torch.

Layer ids are always returned in the "input-to-layer" convention (SGLang PR #25454): id i is
the residual stream entering 0-indexed decoder layer i, i.e. the output of layer i-1; id 0 is
the embedding output and id N (N = number of target layers) is the final layer's output before
the final norm. This is the index of HF `output_hidden_states` (before the final norm).

Version boundaries: each row names the PR that changed the behaviour. Where the first release
containing that PR was not read from a changelog, the row says `version_estimated=True`; pass
`"latest"` (or None) for a current main build.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, Mapping

Engine = Literal["speculators", "sglang", "vllm"]
ENGINES: tuple[str, ...] = ("speculators", "sglang", "vllm")

NORM_FLAGS: tuple[str, ...] = ("norm_before_residual", "norm_before_fc", "fc_norm", "norm_output")

# How an engine turns configured ids into capture indices (input-to-layer convention).
IdOffset = Literal["raw", "always_plus_one", "plus_one_if_first_is_one"]

# Where the draft config keeps the ids: top-level (speculators, vLLM hf_config) or nested under
# `eagle_config` (EAGLE/SpecForge LlamaForCausalLMEagle3 configs).
TOP_LEVEL_KEY = "eagle_aux_hidden_state_layer_ids"
NESTED_KEY = "eagle_config.eagle_aux_hidden_state_layer_ids"

Aspect = Literal[
    "id_offset",  # IdOffset
    "config_keys",  # tuple of keys tried in order; () = never reads the config
    "honoured_flags_speculators",  # norm flags honoured for speculators-format configs
    "honoured_flags_eagle",  # norm flags honoured for EAGLE/SpecForge-format (plain HF) configs
    "flag_defaults",  # dict: value assumed when a flag key is absent from the config
    "captures_embedding",  # can id 0 (embedding output) be captured
    "captures_final",  # can id N (final layer output, pre-norm) be captured
    "fc_fan_in",  # int: fixed fan-in of fc in units of H, or None = len(layer ids)
]

_INF: tuple[int, ...] = (10**9,)


@dataclass(frozen=True)
class ConventionRow:
    """One fact about one engine over a half-open version range [since, until)."""

    engine: str
    aspect: str
    value: Any
    since: str | None  # inclusive; None = since the engine first supported EAGLE-3
    until: str | None  # exclusive; None = still true in the newest version read
    source: str
    version_estimated: bool = False
    note: str = ""


# ---------------------------------------------------------------------------------------------
# Version boundaries. `*_EST` ones are estimates: the PR's merge date mapped to the next release.
# ---------------------------------------------------------------------------------------------
# SGLang PR #25454 (merged 2026-05-16): +1 only when the first configured id is 1.
SGLANG_PLUS_ONE_FIX_EST = "0.5.12"
# SGLang PR #24663 (merged 2026-05-11): fc fan-in from len(eagle_config ids) instead of 3.
SGLANG_DYNAMIC_FAN_IN_EST = "0.5.12"
# SGLang PR #32334 (merged 2026-07-24): honour norm_before_fc / load input_norm.weight.
SGLANG_NORM_BEFORE_FC_EST = "0.5.14"
# vLLM PR #21345 (merged 2025-07): speculators-format configs; norm_before_residual read.
VLLM_SPECULATORS_CONFIG = "0.10.0"
# vLLM PR #25961 (merged 2025-10): aux layer ids read from the draft config (top-level).
VLLM_AUX_IDS_FROM_CONFIG = "0.11.1"
# Nested eagle_config ids read by gpu_model_runner `_get_eagle3_aux_layers_from_config`.
VLLM_NESTED_IDS_EST = "0.14.0"
# vLLM PR #38111 (merged 2026-03-29): norm_before_fc propagated for speculators configs.
VLLM_NORM_BEFORE_FC_EST = "0.19.0"
# vLLM PR #46488 (merged 2026-06-23): norm_output and fc_norm propagated for speculators configs.
VLLM_NORM_OUTPUT_EST = "0.23.0"
# vLLM EagleModelMixin `_maybe_add_hidden_state`: id 0 and id N capturable (TorchSpec #87,
# vLLM PR #46788 migrating DeepSeek/Kimi to it).
VLLM_MIXIN_EST = "0.23.0"

_ALL_FLAGS = frozenset(NORM_FLAGS)
_SPECULATORS_DEFAULTS = {f: False for f in NORM_FLAGS}

CONVENTIONS: tuple[ConventionRow, ...] = (
    # ---------------- speculators: the reference (what the checkpoint means) ----------------
    ConventionRow("speculators", "id_offset", "raw", None, None,
                  "vllm-project/speculators src/speculators/train/utils `resolve_target_layer_ids`;"
                  " scripts/launch_vllm.py hands the ids to vLLM extract_hidden_states raw"),
    ConventionRow("speculators", "config_keys", (TOP_LEVEL_KEY,), None, None,
                  "speculators src/speculators/models/eagle3/config.py Eagle3SpeculatorConfig"),
    ConventionRow("speculators", "honoured_flags_speculators", _ALL_FLAGS, None, None,
                  "speculators src/speculators/models/eagle3/core.py, model_definitions.py"),
    ConventionRow("speculators", "honoured_flags_eagle", _ALL_FLAGS, None, None,
                  "speculators src/speculators/convert/eagle/eagle3_converter.py keeps the flags"),
    ConventionRow("speculators", "flag_defaults", _SPECULATORS_DEFAULTS, None, None,
                  "speculators models/eagle3/config.py: every norm flag defaults to False"),
    ConventionRow("speculators", "captures_embedding", True, None, None,
                  "datagen goes through vLLM EagleModelMixin (id 0 = embedding output)",
                  note="never used by the speculators defaults"),
    ConventionRow("speculators", "captures_final", True, None, None,
                  "speculators scripts/launch_vllm.py --include-last-layer appends id N"),
    ConventionRow("speculators", "fc_fan_in", None, None, None,
                  "speculators models/eagle3/core.py: fc in = len(eagle_aux_hidden_state_layer_ids)*H"),
    # ---------------- SGLang ----------------
    ConventionRow("sglang", "id_offset", "always_plus_one", None, SGLANG_PLUS_ONE_FIX_EST,
                  "sgl-project/sglang python/sglang/srt/models/llama.py set_eagle3_layers_to_capture"
                  " ([v+1 for v in ids]); https://github.com/sgl-project/sglang/pull/25454",
                  version_estimated=True),
    ConventionRow("sglang", "id_offset", "plus_one_if_first_is_one", SGLANG_PLUS_ONE_FIX_EST, None,
                  "https://github.com/sgl-project/sglang/pull/25454 (merged 2026-05-16)",
                  version_estimated=True),
    ConventionRow("sglang", "config_keys", (NESTED_KEY,), None, None,
                  "sglang python/sglang/srt/model_executor/model_runner.py reads only"
                  " hf_config.eagle_config['eagle_aux_hidden_state_layer_ids'] (try/except ->"
                  " default [2, N//2, N-3])"),
    ConventionRow("sglang", "honoured_flags_speculators", frozenset(), None,
                  SGLANG_NORM_BEFORE_FC_EST,
                  "sglang python/sglang/srt/models/llama_eagle3.py (commit 03d5a777): residual ="
                  " hidden_states then hidden_norm, no norm flags", version_estimated=True),
    ConventionRow("sglang", "honoured_flags_speculators", frozenset({"norm_before_fc"}),
                  SGLANG_NORM_BEFORE_FC_EST, None,
                  "https://github.com/sgl-project/sglang/pull/32334 (merged 2026-07-24)",
                  version_estimated=True),
    ConventionRow("sglang", "honoured_flags_eagle", frozenset(), None, SGLANG_NORM_BEFORE_FC_EST,
                  "sglang llama_eagle3.py (commit 03d5a777)", version_estimated=True),
    ConventionRow("sglang", "honoured_flags_eagle", frozenset({"norm_before_fc"}),
                  SGLANG_NORM_BEFORE_FC_EST, None,
                  "https://github.com/sgl-project/sglang/pull/32334", version_estimated=True),
    ConventionRow("sglang", "flag_defaults", _SPECULATORS_DEFAULTS, None, None,
                  "sglang llama_eagle3.py: the unflagged path is the norm-after-residual one"),
    ConventionRow("sglang", "captures_embedding", True, None, None,
                  "sglang models/llama.py captures before layer i for every i in the loop,"
                  " including i = 0 where residual is None (see NickL77/BaldEagle#18)",
                  note="inferred from the capture loop"),
    ConventionRow("sglang", "captures_final", False, None, None,
                  "sglang models/llama.py: the capture loop only runs before layers; the final"
                  " boundary was added for GPT-OSS only in"
                  " https://github.com/sgl-project/sglang/pull/32334"),
    ConventionRow("sglang", "fc_fan_in", 3, None, SGLANG_DYNAMIC_FAN_IN_EST,
                  "sglang llama_eagle3.py: fc = Linear(target_hidden_size * 3, H);"
                  " https://github.com/sgl-project/sglang/pull/24663", version_estimated=True),
    ConventionRow("sglang", "fc_fan_in", None, SGLANG_DYNAMIC_FAN_IN_EST, None,
                  "https://github.com/sgl-project/sglang/pull/24663 (merged 2026-05-11): num_aux"
                  " from eagle_config ids", version_estimated=True),
    # ---------------- vLLM ----------------
    ConventionRow("vllm", "id_offset", "raw", None, None,
                  "vllm-project/vllm vllm/v1/worker/gpu_model_runner.py"
                  " `_get_eagle3_aux_layers_from_config` returns the ids unchanged"),
    ConventionRow("vllm", "config_keys", (), None, VLLM_AUX_IDS_FROM_CONFIG,
                  "vllm models/llama.py get_eagle3_aux_hidden_state_layers() = (2, N//2, N-3)"
                  " always; https://github.com/vllm-project/vllm/pull/25961"),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY,), VLLM_AUX_IDS_FROM_CONFIG,
                  VLLM_NESTED_IDS_EST,
                  "https://github.com/vllm-project/vllm/pull/25961 (top-level hf_config key;"
                  " speculators configs copied there by configs/speculators/algos.py)",
                  version_estimated=True),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY, NESTED_KEY), VLLM_NESTED_IDS_EST, None,
                  "vllm gpu_model_runner.py `_get_eagle3_aux_layers_from_config` also reads"
                  " eagle_config['eagle_aux_hidden_state_layer_ids']", version_estimated=True),
    ConventionRow("vllm", "honoured_flags_speculators", frozenset(), None, VLLM_SPECULATORS_CONFIG,
                  "vllm models/llama_eagle3.py before https://github.com/vllm-project/vllm/pull/21345"),
    ConventionRow("vllm", "honoured_flags_speculators", frozenset({"norm_before_residual"}),
                  VLLM_SPECULATORS_CONFIG, VLLM_NORM_BEFORE_FC_EST,
                  "vllm transformers_utils/configs/speculators/algos.py update_eagle3 copies only"
                  " norm_before_residual; https://github.com/vllm-project/vllm/pull/21345",
                  version_estimated=True),
    ConventionRow("vllm", "honoured_flags_speculators",
                  frozenset({"norm_before_residual", "norm_before_fc"}),
                  VLLM_NORM_BEFORE_FC_EST, VLLM_NORM_OUTPUT_EST,
                  "https://github.com/vllm-project/vllm/pull/38111 (merged 2026-03-29)",
                  version_estimated=True),
    ConventionRow("vllm", "honoured_flags_speculators", _ALL_FLAGS, VLLM_NORM_OUTPUT_EST, None,
                  "https://github.com/vllm-project/vllm/pull/46488 (merged 2026-06-23)",
                  version_estimated=True),
    ConventionRow("vllm", "honoured_flags_eagle", frozenset({"norm_before_residual"}), None,
                  VLLM_NORM_OUTPUT_EST,
                  "vllm models/llama_eagle3.py reads getattr(config, flag, False) from the draft"
                  " hf_config; fc_norm/norm_output model support per"
                  " https://github.com/vllm-project/vllm/pull/46488", version_estimated=True,
                  note="norm_before_fc model-code support date unknown; counted as not honoured"),
    ConventionRow("vllm", "honoured_flags_eagle", _ALL_FLAGS, VLLM_NORM_OUTPUT_EST, None,
                  "vllm models/llama_eagle3.py getattr(config, flag, False)",
                  version_estimated=True),
    ConventionRow("vllm", "flag_defaults", {**_SPECULATORS_DEFAULTS, "norm_before_residual": True},
                  None, None,
                  "vllm configs/speculators/algos.py update_eagle3:"
                  " config_dict.get('norm_before_residual', True)",
                  note="applies to speculators-format configs that lack the key"),
    ConventionRow("vllm", "captures_embedding", False, None, VLLM_MIXIN_EST,
                  "older per-model loops append hidden_states + residual before layer idx; residual"
                  " is None before layer 0 (https://github.com/vllm-project/vllm/pull/46788)",
                  version_estimated=True, note="inferred"),
    ConventionRow("vllm", "captures_embedding", True, VLLM_MIXIN_EST, None,
                  "vllm EagleModelMixin._maybe_add_hidden_state appends id 0 before layer 0"
                  " (https://github.com/lightseekorg/TorchSpec/issues/87)", version_estimated=True),
    ConventionRow("vllm", "captures_final", False, None, VLLM_MIXIN_EST,
                  "https://github.com/vllm-project/vllm/pull/46788: id N captures nothing on the"
                  " per-model loops", version_estimated=True),
    ConventionRow("vllm", "captures_final", True, VLLM_MIXIN_EST, None,
                  "vllm EagleModelMixin appends id k after layer k-1, so id N = final output"
                  " pre-norm (https://github.com/lightseekorg/TorchSpec/issues/87)",
                  version_estimated=True),
    ConventionRow("vllm", "fc_fan_in", 3, None, None,
                  "vllm models/llama_eagle3.py (commit 00bd1493): fc in = target_hidden_size * 3",
                  note="newest versions not read"),
)


# ---------------------------------------------------------------------------------------------
# Versions
# ---------------------------------------------------------------------------------------------
def parse_version(version: str | None) -> tuple[int, ...]:
    """'v0.5.4.post1' -> (0, 5, 4); '0.11.1rc2' -> (0, 11, 1); None/'latest'/'main' -> newest.

    Pre-releases count as their release: close enough for behaviour boundaries.
    """
    if version is None or version.strip().lower() in {"", "latest", "main", "head", "nightly"}:
        return _INF
    text = version.strip().lower().lstrip("v")
    parts: list[int] = []
    for piece in text.split("."):
        match = re.match(r"\d+", piece)
        if not match:
            break
        parts.append(int(match.group()))
        if match.end() != len(piece):  # '1rc2', '4+cu121': stop after the number
            break
    if not parts:
        raise ValueError(f"cannot read engine version {version!r} (expected e.g. 0.5.4 or latest)")
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()  # 0.10.0 == 0.10
    return tuple(parts)


def _in_range(version: tuple[int, ...], row: ConventionRow) -> bool:
    low = parse_version(row.since) if row.since else ()
    high = parse_version(row.until) if row.until else None
    return version >= low and (high is None or version < high)


def convention_row(engine: str, aspect: str, version: str | None = None) -> ConventionRow:
    """The row that holds `aspect` for `engine` at `version` (newest when version is None)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    parsed = parse_version(version)
    for row in CONVENTIONS:
        if row.engine == engine and row.aspect == aspect and _in_range(parsed, row):
            return row
    raise LookupError(f"no {aspect!r} row for {engine} {version or 'latest'}")


def convention(engine: str, aspect: str, version: str | None = None) -> Any:
    return convention_row(engine, aspect, version).value


# ---------------------------------------------------------------------------------------------
# Draft config access (a raw config.json dict, or anything with a `.raw` dict, e.g. DraftConfig)
# ---------------------------------------------------------------------------------------------
def _raw(draft_config: Any) -> Mapping[str, Any]:
    raw = getattr(draft_config, "raw", draft_config)
    if not isinstance(raw, Mapping):
        raise TypeError("draft_config must be a config.json mapping or have a .raw mapping")
    return raw


def is_speculators_format(draft_config: Any) -> bool:
    return "speculators_model_type" in _raw(draft_config)


def configured_layer_ids(draft_config: Any, keys: tuple[str, ...]) -> list[int] | None:
    """The first non-empty id list found under `keys` (engines treat [] like absent)."""
    raw = _raw(draft_config)
    for key in keys:
        if key == TOP_LEVEL_KEY:
            value = raw.get(TOP_LEVEL_KEY)
        else:
            nested = raw.get("eagle_config")
            value = nested.get(TOP_LEVEL_KEY) if isinstance(nested, Mapping) else None
        if value:
            return [int(v) for v in value]
    return None


def default_layer_ids(num_target_layers: int) -> list[int]:
    """[2, N//2, N-3], input-to convention: EAGLE, SGLang, vLLM and speculators all default to it
    (EAGLE3.md section 3; SafeAILab/EAGLE#308)."""
    n = num_target_layers
    return [2, n // 2, n - 3]


@dataclass(frozen=True)
class ServedLayers:
    """What an engine version captures for a draft, with the reasons."""

    engine: str
    version: str | None
    configured: list[int] | None  # ids as found in the config under the keys the engine reads
    config_key: str | None  # which key they came from, None = default used
    requested: list[int]  # capture indices after the offset rule (input-to convention)
    layer_ids: list[int]  # those the engine can actually capture, in order
    unreachable: list[int]  # requested but never captured (id 0 / id N / out of range)
    used_default: bool
    fc_fan_in: int | None  # fixed fan-in (units of H); None = follows len(layer ids)
    fan_in_mismatch: bool  # captured count differs from the fc fan-in the engine builds
    sources: list[str]


def serve_plan(engine: str, version: str | None, draft_config: Any,
               num_target_layers: int) -> ServedLayers:
    """Which target tensors an engine version feeds this draft, and why."""
    n = num_target_layers
    sources: list[str] = []
    keys_row = convention_row(engine, "config_keys", version)
    sources.append(keys_row.source)
    configured, config_key = None, None
    for key in keys_row.value:
        configured = configured_layer_ids(draft_config, (key,))
        if configured is not None:
            config_key = key
            break
    if configured is None:
        requested = default_layer_ids(n)
        used_default = True
    else:
        offset_row = convention_row(engine, "id_offset", version)
        sources.append(offset_row.source)
        rule = offset_row.value
        plus_one = rule == "always_plus_one" or (
            rule == "plus_one_if_first_is_one" and configured[0] == 1)
        requested = [i + 1 if plus_one else i for i in configured]
        used_default = False
    embed_ok = convention(engine, "captures_embedding", version)
    final_ok = convention(engine, "captures_final", version)

    def reachable(i: int) -> bool:
        if i < 0 or i > n:
            return False
        if i == 0:
            return bool(embed_ok)
        if i == n:
            return bool(final_ok)
        return True

    layer_ids = [i for i in requested if reachable(i)]
    unreachable = [i for i in requested if not reachable(i)]
    fan_row = convention_row(engine, "fc_fan_in", version)
    fan_in = fan_row.value
    expected = fan_in if fan_in is not None else (len(configured) if configured else 3)
    return ServedLayers(
        engine=engine, version=version, configured=configured, config_key=config_key,
        requested=requested, layer_ids=layer_ids, unreachable=unreachable,
        used_default=used_default, fc_fan_in=fan_in,
        fan_in_mismatch=len(layer_ids) != expected, sources=sources + [fan_row.source],
    )


def served_layer_ids(engine: str, version: str | None, draft_config: Any,
                     num_target_layers: int) -> list[int]:
    """Input-to-layer ids of the target tensors the engine feeds the draft, in slot order."""
    return serve_plan(engine, version, draft_config, num_target_layers).layer_ids


def trained_layer_ids(draft_config: Any, num_target_layers: int) -> list[int]:
    """What the checkpoint means (input-to convention), read the way its trainer wrote it.

    speculators configs: top-level ids, raw. EAGLE/SpecForge configs: nested ids in SpecForge's
    output-of convention, which SGLang turned into input-to with +1 (PR #25454: first id 1 means
    output-of); a nested list starting at 2 is already input-to.
    """
    if is_speculators_format(draft_config):
        ids = configured_layer_ids(draft_config, (TOP_LEVEL_KEY,))
        return ids if ids is not None else default_layer_ids(num_target_layers)
    ids = configured_layer_ids(draft_config, (NESTED_KEY, TOP_LEVEL_KEY))
    if ids is None:
        return default_layer_ids(num_target_layers)
    return [i + 1 for i in ids] if ids[0] == 1 else ids


# ---------------------------------------------------------------------------------------------
# Norm flags
# ---------------------------------------------------------------------------------------------
def reference_norm_flags(draft_config: Any) -> dict[str, bool]:
    """The flags as the checkpoint's trainer meant them (absent = False, speculators default)."""
    raw = _raw(draft_config)
    return {flag: bool(raw.get(flag, False)) for flag in NORM_FLAGS}


def effective_norm_flags(engine: str, version: str | None, draft_config: Any) -> dict[str, bool]:
    """The flags an engine version actually runs this draft with."""
    raw = _raw(draft_config)
    aspect = ("honoured_flags_speculators" if is_speculators_format(raw)
              else "honoured_flags_eagle")
    honoured = convention(engine, aspect, version)
    defaults = convention(engine, "flag_defaults", version)
    flags: dict[str, bool] = {}
    for flag in NORM_FLAGS:
        if flag not in honoured:
            # Not read at all: the engine runs its unflagged code path.
            flags[flag] = False
        elif flag in raw:
            flags[flag] = bool(raw[flag])
        else:
            flags[flag] = bool(defaults.get(flag, False)) if is_speculators_format(raw) else False
    return flags


def ignored_norm_flags(engine: str, version: str | None, draft_config: Any) -> list[str]:
    """Flags whose effective value in the engine differs from what the checkpoint means."""
    meant = reference_norm_flags(draft_config)
    served = effective_norm_flags(engine, version, draft_config)
    return [flag for flag in NORM_FLAGS if meant[flag] != served[flag]]


def rows_for(engine: str) -> list[ConventionRow]:
    return [row for row in CONVENTIONS if row.engine == engine]
