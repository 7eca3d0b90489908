"""Engine conventions as data: how SGLang, vLLM and speculators feed an EAGLE-3 draft.

One row per (engine, aspect, version range[, target architectures]), each with the source it
was read from. A new engine release is a data change here. Pure stdlib: the diagnostics on the
controller (and the hidden_layout probe on the host) use it without torch.

Layer ids are always returned in the "input-to-layer" convention (SGLang PR #25454): id i is
the residual stream entering 0-indexed decoder layer i, i.e. the output of layer i-1; id 0 is
the embedding output and id N (N = number of target layers) is the final layer's output before
the final norm. This is the index of HF `output_hidden_states` (before the final norm).

Version boundaries were read from the released packages, not from merge dates: each boundary
names the first PyPI release whose code has the behaviour and the last one that does not
(sglang wheels, vllm sdists; `pip download sglang==X --no-deps`). Pre-releases and `.postN`
count as their release (`parse_version`); the `.post` releases next to a boundary were checked
too. A row keeps `version_estimated=True` only where no release was read; pass `"latest"` (or
None) for a current main build.

Some behaviour depends on the *target* model class, not only on the engine version (SGLang's
+1 rule lives in each model's `set_eagle3_layers_to_capture`; vLLM picks its model runner by
architecture). Rows with `architectures` hold for those target architectures only and win over
the generic row; the generic rows describe a dense Llama-style target.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Literal, Mapping

Engine = Literal["speculators", "sglang", "vllm"]
ENGINES: tuple[str, ...] = ("speculators", "sglang", "vllm")

NORM_FLAGS: tuple[str, ...] = ("norm_before_residual", "norm_before_fc", "fc_norm", "norm_output")

# How an engine turns configured ids into capture indices (input-to-layer convention).
IdOffset = Literal["raw", "always_plus_one", "plus_one_if_first_is_one",
                   "plus_one_unless_max_is_n"]

# Where the draft config keeps the ids: top-level (speculators, vLLM hf_config) or nested under
# `eagle_config` (EAGLE/SpecForge LlamaForCausalLMEagle3 configs). vLLM's model runner V2 reads
# a third spelling, `eagle_config.layer_ids`, and never the SpecForge nested key.
TOP_LEVEL_KEY = "eagle_aux_hidden_state_layer_ids"
NESTED_KEY = "eagle_config.eagle_aux_hidden_state_layer_ids"
NESTED_LAYER_IDS_KEY = "eagle_config.layer_ids"
# Key an engine may read to size fc explicitly (an int, not a list).
NUM_AUX_KEY = "num_aux_hidden_states"
# Tencent/AngelSlim's own key, in the output-of convention: its trainers read it from the draft
# config (angelslim/compressor/speculative/train/trainer/online_eagle3_trainer.py,
# `getattr(draft_model_config, "aux_hidden_states_layer_ids", None)`) and capture
# `hidden_states[layer_id + embed_offset]` with embed_offset = 1 (train/models/target/
# target_model_wrapper.py `_extract_auxiliary_hidden_states`), i.e. input-to id + 1. The
# config is a transformers PretrainedConfig (train/models/draft/draft_model_factory.py
# DraftModelConfig.from_file), so save_pretrained writes the key back into the draft's
# config.json. No engine reads it: SGLang reads eagle_config's ids, vLLM the top-level or
# eagle_config ids (the config_keys rows below), so such a draft is served the default layers.
ANGELSLIM_KEY = "aux_hidden_states_layer_ids"

Aspect = Literal[
    "id_offset",  # IdOffset
    "config_keys",  # tuple of keys tried in order; () = never reads the config
    "honoured_flags_speculators",  # norm flags honoured for speculators-format configs
    "honoured_flags_eagle",  # norm flags honoured for EAGLE/SpecForge-format (plain HF) configs
    "flag_defaults",  # dict: value assumed when a flag key is absent from the config
    "captures_embedding",  # can id 0 (embedding output) be captured
    "captures_final",  # can id N (final layer output, pre-norm) be captured
    "fc_fan_in",  # fc fan-in in units of H: an int (fixed), None (= len(configured ids)), or
    #               a tuple of config keys read in order (NUM_AUX_KEY: the int; an id-list key:
    #               its length), 3 when none is set
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
    architectures: frozenset[str] | None = None
    """Target architectures (HF `architectures[0]`) this row is specific to; None = generic."""
    unquantized_only: bool = False
    """The row holds for an unquantized target only (a quantized one falls to the next row)."""


# ---------------------------------------------------------------------------------------------
# Version boundaries, each the first release with the behaviour (the previous release read
# lacks it). Releases read: sglang 0.4.4-0.4.9, 0.4.8.post1, 0.5.1-0.5.23 (0.5.12.post1);
# vllm 0.9.2-0.33.0 (0.15.x has no sdist; 0.17.1, 0.18.1 read).
# ---------------------------------------------------------------------------------------------
# The first release of each engine with EAGLE-3 at all; before it the engine serves no EAGLE-3
# draft, whatever its config (eagle3_release_failure). vLLM: vllm-project/vllm#16937 "[V1][Spec Decode]
# EAGLE-3 Support" (model_executor/models/llama_eagle3.py, aux hidden states from models/llama.py)
# shipped in 0.8.5: 0.8.4's SpeculativeConfig knows only eagle, medusa, mlp_speculator,
# draft_model and ngram, so method "eagle3" fails its constructor (PyPI sdists' vllm/config.py;
# the launch check's _VLLM_EAGLE3_SINCE). SGLang: sgl-project/sglang#4247 "Support EAGLE 3"
# (llama_eagle3.py, the EAGLE3 algorithm) was merged after the 0.4.4.post1 tag and shipped in
# 0.4.4.post2 (sgl-project/sglang#4669 "bump v0.4.4.post2": "for EAGLE 3 #4247"); 0.4.4 and
# 0.4.4.post1 list no EAGLE3 among the upper-case argparse `choices` of --speculative-algorithm.
# One constant for every check (the launch check imports these): compared with the .postN kept
# (release_surely_before), as parse_version alone would read 0.4.4.post1 as 0.4.4.post2.
VLLM_EAGLE3 = "0.8.5"
SGLANG_EAGLE3 = "0.4.4.post2"
_EAGLE3_SINCE = {"vllm": VLLM_EAGLE3, "sglang": SGLANG_EAGLE3}
_EAGLE3_PR = {"vllm": "vllm-project/vllm#16937", "sglang": "sgl-project/sglang#4247"}
_ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang"}
# model_runner.py reads hf_config.eagle_config['eagle_aux_hidden_state_layer_ids'] (0.4.8.post1:
# models/llama.py set_eagle3_layers_to_capture() takes no ids, always [2, N//2, N-3]).
SGLANG_AUX_IDS_FROM_CONFIG = "0.4.9"
# llama_eagle3.py: fc fan-in from num_aux_hidden_states / len(eagle_config ids) (PR #24663),
# multi-layer drafts, fc_norm (or legacy use_aux_norm) and norm_output read (0.5.11: fc is
# target_hidden_size * 3 and no norm flag is read).
SGLANG_MULTI_LAYER_DRAFT = "0.5.12"
# llama_eagle3.py builds one decoder layer before this and refuses any other count at startup
# (0.5.11 LlamaForCausalLMEagle3 `__init__`: raise ValueError("EAGLE3 currently only supports 1
# layer"); 0.5.12 and 0.5.23 build `range(config.num_hidden_layers)`; PyPI wheels read).
# models/deepseek_v2.py and glm4_moe_lite.py: +1 only when the first id is 1 (PR #25454;
# 0.5.12.post1 still adds 1). Every other model file still adds 1 in 0.5.23.
SGLANG_PLUS_ONE_FIX = "0.5.13"
# llama_eagle3.py reads norm_before_fc (eagle_config or top level) and gpt_oss.py captures the
# embedding and final boundaries, ids used raw when max(ids) == N (PR #32334; absent in 0.5.16).
SGLANG_NORM_BEFORE_FC = "0.5.17"
# models/llama.py captures through layer_boundary (`capture_output`), which handles residual
# None before layer 0; 0.5.21 still does `hidden_states + residual` there (TypeError for id 0).
# The DeepSeek family keeps its own loop (models/deepseek_v2.py, glm4_moe_lite.py), which the
# generic rows below cover too: by mid-2026 main (a walkthrough of sglang 70df09b, 2026-07-11,
# quotes it) it captures through LayerCommunicator.prepare_attn_and_capture_last_layer_outputs,
# the residual after prepare_attn, which is the embedding output when residual is None, so id 0
# is captured there no later than this release (no release tag of that change was read: the
# boundary may be conservative for those targets, never too early). Before it, deepseek_v2.py
# appended `hidden_states + residual` before layer i (sgl-project/sglang#14280's diff).
SGLANG_EMBED_CAPTURE = "0.5.22"

# transformers_utils/configs/speculators/ (algos.py update_eagle3) and llama_eagle3.py
# `norm_before_residual` (PR #21345); 0.10.0 has neither, so it cannot load speculators configs.
VLLM_SPECULATORS_CONFIG = "0.10.1"
# llama_eagle3.py LlamaModel builds `range(num_hidden_layers)` decoder layers (0.11.1; 0.11.0
# and 0.10.1 build one, `layers.{start_layer_id}`, and load_weights looks a
# stored `layers.1.*` up in params_dict: a KeyError at startup; PyPI wheels read).
VLLM_MULTI_LAYER_DRAFT = "0.11.1"
# v1/worker/gpu_model_runner.py `_get_eagle3_aux_layers_from_config`, top-level key (PR #25961).
VLLM_AUX_IDS_FROM_CONFIG = "0.11.1"
# models/llama.py uses EagleModelMixin `_maybe_add_hidden_state`: id 0 before layer 0 and id k
# after layer k-1, so id N = final output pre-norm; llama_eagle3.py reads norm_before_fc
# (0.17.1: `hidden_states + residual` before layer idx, id N never reached, id 0 a TypeError).
VLLM_MIXIN = "0.18.0"
# configs/speculators/algos.py copies norm_before_fc (PR #38111; absent in 0.18.1).
VLLM_NORM_BEFORE_FC_SPECULATORS = "0.19.0"
# gpu_model_runner.py (V1) also reads eagle_config['eagle_aux_hidden_state_layer_ids'];
# llama_eagle3.py reads fc_norm, norm_output and sizes fc from num_aux_hidden_states /
# len(eagle_config ids); config/vllm.py gains the default model runner V2 (MRv2) for listed
# architectures (0.21.0: none of these).
VLLM_V1_NESTED_IDS = "0.22.0"
# config/vllm.py DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES adds LlamaForCausalLM/MistralForCausalLM
# (0.22.0: Qwen3ForCausalLM only).
VLLM_MRV2_LLAMA = "0.23.0"
# DeepseekV2ForCausalLM joins the MRv2 default list.
VLLM_MRV2_DEEPSEEK_V2 = "0.24.0"
# config/vllm.py `_is_default_v2_model_runner_model` no longer refuses a quantized target
# (vllm-project/vllm#44446, "Migration to support quantized model by default"; 0.22.0 and
# 0.23.0 return False for `model_config.is_quantized`, so a listed target with a
# quantization_config ran the V1 runner there).
VLLM_MRV2_QUANTIZED = "0.24.0"
# MRv2 default for every non-MoE target; algos.py copies fc_norm/norm_output (PR #46488);
# deepseek_v2.py captures `end_layer` (id N) after the loop (PR #46788) (0.24.0: none).
VLLM_MRV2_DENSE = "0.25.0"
# MRv2 (v1/worker/gpu/spec_decode/eagle/eagle3_utils.py) also reads eagle_config['layer_ids'].
VLLM_MRV2_LAYER_IDS_KEY = "0.27.0"
# MRv2 is the default for every target (the architecture gate is gone; 0.28.0 still has it):
# vllm-project/vllm#53183 "Use MRV2 for all models by default" (merged 2026-08-26, after the
# 0.28 branch; #55139 reports it on a 0.28.1rc1.dev334 main build) deletes
# DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES for `_get_v1_model_runner_unsupported_features`. V1
# stays only for features MRv2 lacks and, on ROCm, config/vllm.py ROCM_DEFAULT_MRV1_ARCHITECTURES
# (DeepseekV32ForCausalLM, DeepseekV4ForCausalLM, GlmMoeDsaForCausalLM), which this table,
# blind to the platform, does not model.
VLLM_MRV2_ALL = "0.29.0"
# models/qwen3_eagle3.py (Eagle3Qwen3ForCausalLM) sizes fc from num_aux_layers /
# num_aux_hidden_states / the top-level or nested ids (0.23.0: qwen3 drafts use llama_eagle3).
# Added with its registry entry and the speculators routing of a transformer_layer_config
# model_type qwen3 by vllm-project/vllm#43132 (opened 2026-05-19; the routing fix of the closed
# #44322, 2026-06-02, folded in), between 0.22.1 (2026-06-05) and 0.24.0 (2026-07-01,
# aws/deep-learning-containers#6329); the 0.23/0.24 side is the released packages' reading.
VLLM_QWEN3_DRAFTER = "0.24.0"

# Target classes whose capture rule differs from the Llama path (the class named in the
# target's config.json `architectures`).
SGLANG_DEEPSEEK_FAMILY = frozenset({
    # deepseek_v2.py EntryClass; mistral_large_3.py subclasses DeepseekV3ForCausalLM;
    # kimi_k25.py delegates to a DeepseekV3ForCausalLM language model; glm4_moe_lite.py
    # carries the same rule; GLM-5's GlmMoeDsaForCausalLM (glm4_moe.py) subclasses
    # DeepseekV2ForCausalLM and keeps its set_eagle3_layers_to_capture (Glm4MoeForCausalLM's,
    # beside it, adds 1 like llama.py).
    "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM",
    "MistralLarge3ForCausalLM", "KimiK25ForConditionalGeneration", "Glm4MoeLiteForCausalLM",
    "GlmMoeDsaForCausalLM"})
SGLANG_GPT_OSS = frozenset({"GptOssForCausalLM"})
# SGLang's model_executor/model_runner.py calls `self.model.set_eagle3_layers_to_capture(...)` on
# the target for --speculative-algorithm EAGLE3 (every release read, 0.4.6 .. 0.5.23); a target
# class without the method stops the server at startup with an AttributeError. Each class below
# is a plain nn.Module whose model file gained the method in the release named (PyPI wheels read:
# 0.4.6, 0.4.8, 0.4.8.post1, 0.4.9, 0.4.10, 0.5.0rc0-rc2, 0.5.1 and its .post1-.post3, 0.5.2,
# 0.5.3, 0.5.4 and its .post1-.post3, 0.5.5 and its .post1-.post3, 0.5.6, 0.5.7; 0.5.8,
# 0.5.8.post1, 0.5.9, 0.5.10, 0.5.10.post1, 0.5.11, 0.5.12, 0.5.12.post1, 0.5.13, 0.5.15, 0.5.23;
# for longcat_flash.py also 0.5.5 .. 0.5.5.post3 and 0.5.6):
# (model file, first release with it, the release before it read without it). models/deepseek_v2.py's
# EntryClass DeepseekV3ForCausalLM and DeepseekV32ForCausalLM subclass DeepseekV2ForCausalLM;
# qwen3_vl_moe.py's Qwen3VLMoeForConditionalGeneration subclasses qwen3_vl.py's class.
SGLANG_CAPTURE_SINCE: dict[str, tuple[str, str, str]] = {
    "Qwen3ForCausalLM": ("qwen3", "0.4.9", "0.4.8.post1"),
    "Qwen3MoeForCausalLM": ("qwen3_moe", "0.4.9", "0.4.8.post1"),
    "Qwen2ForCausalLM": ("qwen2", "0.5.2", "0.5.1.post3"),
    "Qwen2MoeForCausalLM": ("qwen2_moe", "0.5.2", "0.5.1.post3"),
    "DeepseekV2ForCausalLM": ("deepseek_v2", "0.5.4.post2", "0.5.4.post1"),
    "DeepseekV3ForCausalLM": ("deepseek_v2", "0.5.4.post2", "0.5.4.post1"),
    "DeepseekV32ForCausalLM": ("deepseek_v2", "0.5.4.post2", "0.5.4.post1"),
    "Glm4MoeForCausalLM": ("glm4_moe", "0.5.5", "0.5.4.post3"),
    "MiniMaxM2ForCausalLM": ("minimax_m2", "0.5.5.post1", "0.5.5"),
    "LongcatFlashForCausalLM": ("longcat_flash", "0.5.6", "0.5.5.post3"),
    "Qwen3NextForCausalLM": ("qwen3_next", "0.5.9", "0.5.8.post1"),
    "BailingMoeForCausalLM": ("bailing_moe", "0.5.9", "0.5.8.post1"),
    "BailingMoeV2ForCausalLM": ("bailing_moe", "0.5.9", "0.5.8.post1"),
    "KimiK25ForConditionalGeneration": ("kimi_k25", "0.5.10", "0.5.9"),
    "Qwen3VLForConditionalGeneration": ("qwen3_vl", "0.5.11", "0.5.10.post1"),
    "Qwen3VLMoeForConditionalGeneration": ("qwen3_vl", "0.5.11", "0.5.10.post1"),
    "Gemma3ForCausalLM": ("gemma3_causal", "0.5.12", "0.5.11"),
    "Gemma3ForConditionalGeneration": ("gemma3_mm", "0.5.12", "0.5.11"),
    "Gemma4ForCausalLM": ("gemma4_causal", "0.5.12", "0.5.11"),
    "Gemma4ForConditionalGeneration": ("gemma4_mm", "0.5.12", "0.5.11"),
}
# Target classes whose SGLang model file has no set_eagle3_layers_to_capture in any release read
# (the wheels above, 0.4.9 .. 0.5.23; each a plain nn.Module, or a subclass of one without it):
# mixtral.py, gemma2.py, minicpm.py, minicpm3.py, ernie4.py, glm4v.py and glm4v_moe.py (over it),
# deepseek_v4.py (0.5.15, 0.5.23), llava.py's LlavaForConditionalGeneration and mistral.py's
# Mistral3ForConditionalGeneration over it (Mistral-Small-3.1/3.2), qwen3_omni_moe.py's EntryClass
# Qwen3OmniMoeForConditionalGeneration (Qwen3-Omni: a transformers PreTrainedModel holding `thinker`, a
# Qwen3VLMoeForConditionalGeneration subclass that has the method, without delegating it; wheels
# 0.5.4, 0.5.9, 0.5.12, 0.5.17, 0.5.20, 0.5.22, 0.5.23 read). EAGLE3 stops the server at startup:
# AttributeError up to 0.5.22 (model_executor/model_runner.py), and from 0.5.23 ValueError("Model ... does not
# implement set_eagle3_layers_to_capture, which EAGLE3 aux hidden-state capture requires.")
# (model_executor/model_runner_components/attention_backend_setup.py
# configure_aux_hidden_state_capture).
SGLANG_NO_EAGLE3_CAPTURE: dict[str, str] = {
    "MixtralForCausalLM": "mixtral", "Gemma2ForCausalLM": "gemma2", "MiniCPMForCausalLM": "minicpm",
    "MiniCPM3ForCausalLM": "minicpm3", "Ernie4_5_MoeForCausalLM": "ernie4",
    "Glm4vForConditionalGeneration": "glm4v", "Glm4vMoeForConditionalGeneration": "glm4v_moe",
    "DeepseekV4ForCausalLM": "deepseek_v4", "LlavaForConditionalGeneration": "llava",
    "Mistral3ForConditionalGeneration": "mistral", "Qwen3OmniMoeForConditionalGeneration": "qwen3_omni_moe"}
_SGLANG_NO_EAGLE3_CAPTURE_SOURCE = (
    "sgl-project/sglang python/sglang/srt/models/{module}.py: no set_eagle3_layers_to_capture in any release read "
    "(0.4.9 .. 0.5.23), which EAGLE3 calls on the target at startup (model_executor/model_runner.py: AttributeError; "
    "0.5.23 model_runner_components/attention_backend_setup.py: ValueError)")
_SGLANG_CAPTURE_SINCE_SOURCE = (
    "sgl-project/sglang python/sglang/srt/model_executor/model_runner.py calls set_eagle3_layers_to_capture on the "
    "target, which its model file defines from {since} only ({last} lacks it: AttributeError)")

# Targets whose aux capture never happens on SGLang before SGLANG_QWEN35_CAPTURE: Qwen3.5 (qwen3_5.py) inherits
# Qwen3VLForConditionalGeneration.set_eagle3_layers_to_capture, which writes the id list
# `layers_to_capture` that Qwen3-VL's decoder loop reads, while Qwen3_5ForCausalLM.forward collects
# aux states only from layers flagged `_is_layer_to_capture` (set by set_dflash_layers_to_capture
# alone). No state is captured, and EAGLE3 fails in CUDA graph capture with "ValueError: too many
# values to unpack (expected 2)" (qwen3_vl.py forward): sgl-project/sglang#38307 (open on
# 2026-09-07, "crashes on current main"; #23569 and #25408 closed unmerged). Qwen3-Next
# (qwen3_next.py) flags its layers itself and captures like Llama ([val + 1 for val in ids]).
# 0.5.22 fixed it (PyPI wheels: 0.5.17 .. 0.5.21 as above): qwen3_5.py's Qwen3_5ForCausalLM (the
# language model of both classes; Qwen3_5MoeForCausalLM subclasses it) gains
# set_eagle3_layers_to_capture, which flags each layer `_is_layer_to_capture`, and qwen3_vl.py's
# set_eagle3_layers_to_capture hands it the [val + 1 for val in ids] when the language model has it
# (the shape of sgl-project/sglang#25408); the flagged layers capture at attn_boundary.prepare, the
# layer's input, as llama.py does (0.5.22, 0.5.23 read).
SGLANG_NO_AUX_CAPTURE = frozenset({"Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration"})
SGLANG_QWEN35_CAPTURE = "0.5.22"
_NO_AUX_CAPTURE_SOURCE = (
    "sgl-project/sglang python/sglang/srt/models/qwen3_5.py: Qwen3_5ForConditionalGeneration takes qwen3_vl.py's set_eagle3_layers_to_capture, "
    "which never flags a layer `_is_layer_to_capture` up to 0.5.21, so a Qwen3.5 target captures nothing and EAGLE3 "
    "fails at startup (ValueError: too many values to unpack; sgl-project/sglang#38307); 0.5.22 flags them")
# vLLM refused EAGLE-3 at startup for a target whose hf_text_config.model_type contains none
# of a hard-coded list (SpeculativeConfig._verify_args: `raise ValueError(f"Eagle3 is only
# supported for {eagle3_target_supported} models. ...")`, from 0.17.0 `aux_hidden_states_supported`,
# "eagle3 is only supported for [...] models"; vllm-project/vllm#31254 asks for kimi_k2), until
# vllm-project/vllm#42536 ("Remove verifier model type check in speculative config") left the
# check to the model class (SupportsEagle3): 0.22.0 has no list. The list only grew; PyPI sdists'
# vllm/config.py (vllm/config/__init__.py from 0.10.1, config/speculative.py from 0.11.0) read:
# 0.8.5, 0.9.0, 0.9.2, 0.10.0 `"llama" not in ...model_type` ("Eagle3 is only supported for Llama
# models"); 0.10.1, 0.10.1.1, 0.10.2 [llama, qwen]; 0.11.0, 0.13.0, 0.14.0 [llama, qwen, minicpm,
# gpt_oss]; 0.16.0 + hunyuan_vl,
# hunyuan_v1_dense, afmoe; 0.17.0 + nemotron_h; 0.18.0 + deepseek_v2, deepseek_v3, kimi_k2,
# kimi_k25 (0.17.1 lacks them); 0.19.1 + minimax_m2, gemma4 (0.19.0 lacks them); 0.21.0 + laguna.
# Each entry below is the first release that accepts it, where a read pins it (an entry whose
# first release was not pinned is never refused); a model type matching no entry is refused up
# to 0.21.0. The target model types (architectures[0] -> config model_type) of the targets the
# table knows (config.json model_type; Kimi-K2's DeepseekV3ForCausalLM says kimi_k2, accepted from
# the same release, so the one entry stands for both).
VLLM_TARGET_CHECK_REMOVED = "0.22.0"
_VLLM_ALLOWLIST_SINCE = {"qwen": "0.10.1", "minicpm": "0.11.0", "gpt_oss": "0.11.0",
                         "nemotron_h": "0.17.0", "deepseek_v2": "0.18.0", "deepseek_v3": "0.18.0",
                         "kimi_k2": "0.18.0", "kimi_k25": "0.18.0", "minimax_m2": "0.19.1", "gemma4": "0.19.1"}
# llama: on the list since the first EAGLE-3 release (0.8.5)
_VLLM_ALLOWLIST_UNPINNED = ("llama", "hunyuan_vl", "hunyuan_v1_dense", "afmoe", "laguna")
VLLM_TARGET_MODEL_TYPES = {
    "LlamaForCausalLM": "llama", "Qwen2ForCausalLM": "qwen2", "Qwen3ForCausalLM": "qwen3",
    "Qwen2MoeForCausalLM": "qwen2_moe", "Qwen3MoeForCausalLM": "qwen3_moe", "Qwen3NextForCausalLM": "qwen3_next",
    "GptOssForCausalLM": "gpt_oss", "MiniCPMForCausalLM": "minicpm", "MiniCPM3ForCausalLM": "minicpm3",
    "DeepseekV2ForCausalLM": "deepseek_v2", "DeepseekV3ForCausalLM": "deepseek_v3",
    "DeepseekV32ForCausalLM": "deepseek_v32",
    "MiniMaxM2ForCausalLM": "minimax_m2", "Glm4MoeForCausalLM": "glm4_moe", "Glm4MoeLiteForCausalLM": "glm4_moe_lite",
    "GlmMoeDsaForCausalLM": "glm_moe_dsa", "MixtralForCausalLM": "mixtral", "MistralForCausalLM": "mistral",
    "Ernie4_5_MoeForCausalLM": "ernie4_5_moe", "Gemma3ForCausalLM": "gemma3_text",
    "Gemma2ForCausalLM": "gemma2", "Phi3ForCausalLM": "phi3"}
_VLLM_ALLOWLIST_SOURCE = (
    "vllm-project/vllm vllm/config/speculative.py SpeculativeConfig._verify_args: EAGLE-3 only for a target"
    " model type containing one of its list (vllm 0.8.5 .. 0.21.0, in vllm/config.py up to 0.10.2; llama alone up to"
    " 0.10.0; removed in 0.22.0 by vllm-project/vllm#42536)")


# Target classes vLLM loads without the SupportsEagle3 interface (model_executor/models/
# interfaces.py, a runtime_checkable Protocol: `supports_eagle3(model)` is `isinstance(model,
# SupportsEagle3)`), so an EAGLE-3 draft never starts over them, whatever its layer ids: the V1
# runner raises RuntimeError("Model does not support EAGLE3 interface but aux_hidden_state_outputs
# was requested") in v1/worker/gpu_model_runner.py (vllm 0.18.0, 0.22.0, 0.33.0), and MRv2
# raises RuntimeError("Model does not support EAGLE3 interface") in v1/worker/gpu/spec_decode/
# eagle/eagle3_utils.py set_eagle3_aux_hidden_state_layers (0.33.0). The check is per model
# class (architectures[0] through model_executor/models/registry.py), not per model type: from
# 0.22.0 (vllm-project/vllm#42536 dropped the model-type list) it is the only gate, and before
# it Qwen2MoeForCausalLM passed the list ("qwen" is in qwen2_moe) to fail here. Each class below
# lacks the interface in every release read (PyPI sdists 0.18.0, 0.22.0 and 0.33.0: glm4_moe.py,
# glm4_moe_lite.py, mixtral.py, qwen2_moe.py, gemma2.py, gemma3.py, ernie45_moe.py declare
# SupportsLoRA/SupportsPP/MixtureOfExperts only; glm4_1v.py's GLM-4.1V/4.5V classes and gemma3_mm.py's
# Gemma-3 (4B and up) class SupportsMultiModal, SupportsLoRA, SupportsPP[, SupportsMRoPE];
# longcat_flash.py and bailing_moe.py (Ling, BailingMoeV2 a bare subclass) SupportsLoRA, SupportsPP:
# targets SpecForge trains EAGLE-3 drafts for, configs/gemma3-27b-eagle3.json,
# longcat-flash-eagle3.json, ling-flash-2.0-eagle3.json, that SGLang serves from the release in
# SGLANG_CAPTURE_SINCE). Classes that gained it between those releases
# are VLLM_EAGLE3_INTERFACE_LATE's. The PyPI wheel 0.34.0 keeps every class above without it, and
# adds Liquid's and Zyphra's hybrid (conv/SSM + attention) targets without it too: lfm3.py's
# Lfm3ForCausalLM (HasInnerState, SupportsLoRA, SupportsPP, IsHybrid, SupportsQuant), lfm3_vl.py's
# Lfm3VlForConditionalGeneration and zaya.py's ZayaForCausalLM (HasInnerState, IsHybrid), new in
# 0.34.0 (releases before it have no such architecture at all), beside lfm2.py's Lfm2ForCausalLM,
# lfm2_moe.py's Lfm2MoeForCausalLM and lfm2_vl.py's (registry "Lfm2VlForConditionalGeneration"),
# without it in 0.18.0, 0.22.0, 0.33.0 and 0.34.0. (0.34.0's other new text target,
# ricursive.py's RicursiveForCausalLM, is SupportsEagle3 over EagleModelMixin's usual capture.)
VLLM_NO_EAGLE3_INTERFACE = frozenset({
    "Glm4MoeForCausalLM", "Glm4MoeLiteForCausalLM", "MixtralForCausalLM", "Qwen2MoeForCausalLM",
    "Gemma2ForCausalLM", "Gemma3ForCausalLM", "Ernie4_5_MoeForCausalLM",
    "Glm4vForConditionalGeneration", "Glm4vMoeForConditionalGeneration", "Gemma3ForConditionalGeneration",
    "LongcatFlashForCausalLM", "BailingMoeForCausalLM", "BailingMoeV2ForCausalLM",
    "Lfm2ForCausalLM", "Lfm2MoeForCausalLM", "Lfm2VlForConditionalGeneration", "Lfm3ForCausalLM",
    "Lfm3VlForConditionalGeneration", "ZayaForCausalLM"})
_VLLM_NO_INTERFACE_SOURCE = (
    "vllm-project/vllm vllm/v1/worker/gpu_model_runner.py and v1/worker/gpu/spec_decode/eagle/eagle3_utils.py:"
    " RuntimeError \"Model does not support EAGLE3 interface\" for a target class without SupportsEagle3"
    " (model_executor/models/interfaces.py; vllm 0.18.0, 0.22.0, 0.33.0 read)")
# Target classes that gained SupportsEagle3 in a vLLM release: (model file, the last release
# without it, the first with it; consecutive PyPI releases, every sdist between 0.22.0 and 0.33.0
# read). qwen3_next.py's Qwen3NextModel(nn.Module, EagleModelMixin) collects aux states from 0.22.0,
# but Qwen3NextForCausalLM(nn.Module, HasInnerState, SupportsLoRA, SupportsPP, ..., IsHybrid) declares
# no SupportsEagle3 in 0.18.0, 0.22.0, 0.22.1 and 0.23.0; 0.24.0 adds it (and every release up to
# 0.33.0 keeps it). qwen3_omni_moe_thinker.py's Qwen3OmniMoeThinkerForConditionalGeneration (registry
# "Qwen3OmniMoeForConditionalGeneration") is SupportsMultiModal, SupportsPP, SupportsMRoPE ... without
# it up to 0.28.0 and adds it in 0.29.0 (kept up to 0.33.0). A release before the first with it is
# refused at startup as VLLM_NO_EAGLE3_INTERFACE's are (Qwen3-Next passes the model-type list before
# 0.22.0: "qwen" is in qwen3_next). DeepSeek-V4's DeepseekV4ForCausalLM (registry "vllm.models.deepseek_v4",
# models/deepseek_v4/nvidia/model.py from 0.22.0; model_executor/models/deepseek_v4.py in 0.20.0 and
# 0.21.0, whose model-type list matches no entry of deepseek_v4 either) declares SupportsEagle3 from
# 0.25.0 (0.22.0 .. 0.24.0 read without it). The file is named from vllm/.
VLLM_EAGLE3_INTERFACE_LATE: dict[str, tuple[str, str, str]] = {
    "Qwen3NextForCausalLM": ("model_executor/models/qwen3_next.py", "0.23.0", "0.24.0"),
    "Qwen3OmniMoeForConditionalGeneration": ("model_executor/models/qwen3_omni_moe_thinker.py", "0.28.0", "0.29.0"),
    "DeepseekV4ForCausalLM": ("models/deepseek_v4/nvidia/model.py", "0.24.0", "0.25.0")}
_VLLM_LATE_INTERFACE_SOURCE = (
    "vllm-project/vllm vllm/{module}: no SupportsEagle3 up to {last}, present from "
    "{first}; without it v1/worker/gpu_model_runner.py raises RuntimeError \"Model does not support EAGLE3 "
    "interface\" at startup")


def vllm_interface_late(target_architecture: str | None, version: str | None) -> tuple[str, str, str] | None:
    """(model file, last release without SupportsEagle3, first with it) when this vLLM release
    predates the first with it for the target class (VLLM_EAGLE3_INTERFACE_LATE), else None: an
    unknown or unparsable release, or a source-tree build that may reach it (release_surely_before)."""
    late = VLLM_EAGLE3_INTERFACE_LATE.get(target_architecture or "")
    if late is None or version is None:
        return None
    return late if release_surely_before(version, late[2], DEV_REACH["vllm"]) else None


def vllm_late_interface_failure(target_architecture: str, version: str, late: tuple[str, str, str]) -> "CaptureFailure":
    """What vllm_interface_late's refusal says (the layer and launch checks)."""
    module, last, first = late
    return CaptureFailure(
        f"vLLM {version} cannot serve an EAGLE-3 draft over a {target_architecture} target: its "
        f"{module} class does not implement SupportsEagle3 there (without it up to "
        f"{last}, with it from {first}), which the server requires of the target: RuntimeError \"Model does not "
        "support EAGLE3 interface ...\" at startup (v1/worker/gpu_model_runner.py), so no layer ids are ever read",
        f"upgrade vLLM to {first} or later and re-run this check with that release")


VLLM_NO_INTERFACE_FIX = ("serve the draft with an engine whose model for this target captures aux hidden states "
                         "(SGLang: a set_eagle3_layers_to_capture in its model file), or serve the target without "
                         "EAGLE-3")


def vllm_no_interface_fix(target_architecture: str | None) -> str:
    """What to do about a target class vLLM never serves EAGLE-3 over (VLLM_NO_EAGLE3_INTERFACE),
    in SGLang's terms where its model file was read: the generic "an engine that captures" sent
    Mixtral, Gemma-2 and ERNIE-MoE users to SGLang, whose files for them have no
    set_eagle3_layers_to_capture in any release read (SGLANG_NO_EAGLE3_CAPTURE), and did not say
    from which SGLang release a GLM-4.5 or Qwen2-MoE target is served (SGLANG_CAPTURE_SINCE)."""
    arch = target_architecture or ""
    if arch in SGLANG_NO_EAGLE3_CAPTURE:
        return (f"serve the target without EAGLE-3: SGLang's models/{SGLANG_NO_EAGLE3_CAPTURE[arch]}.py has no "
                "set_eagle3_layers_to_capture in any release read (0.4.9 .. 0.5.23) either, so neither engine "
                "serves this draft")
    if arch in SGLANG_CAPTURE_SINCE:
        module, since, _ = SGLANG_CAPTURE_SINCE[arch]
        return (f"serve the draft with SGLang {since} or later, whose models/{module}.py captures its aux hidden "
                "states (set_eagle3_layers_to_capture), or serve the target without EAGLE-3")
    return VLLM_NO_INTERFACE_FIX


def vllm_no_interface_reason(target_architecture: str, version: str | None) -> str:
    """The line for a target class in VLLM_NO_EAGLE3_INTERFACE (the layer and launch checks)."""
    on = f"vLLM {version}" if version else "vLLM"
    return (f"{on} cannot serve an EAGLE-3 draft over a {target_architecture} target: that model class does "
            "not implement SupportsEagle3 (vllm/model_executor/models/interfaces.py), which every vLLM release "
            "read (0.18.0, 0.22.0, 0.33.0) requires of the target: the server raises RuntimeError \"Model does "
            "not support EAGLE3 interface ...\" at startup (v1/worker/gpu_model_runner.py; model runner V2: "
            "v1/worker/gpu/spec_decode/eagle/eagle3_utils.py), after the model-type list of "
            "vllm/config/speculative.py up to 0.21.0, so no layer ids are ever read")


def vllm_refused_target(version: str | None, target_architecture: str | None) -> tuple[str, str] | None:
    """(the target's model type, the first release that accepts it) when this vLLM release
    refuses EAGLE-3 for the target at startup (_VLLM_ALLOWLIST_SINCE), else None: an unknown
    release (the newest, which has no list), an architecture the table cannot type, or a
    model type some entry whose first release is unpinned matches."""
    model_type = VLLM_TARGET_MODEL_TYPES.get(target_architecture or "")
    if version is None or model_type is None:
        return None
    if any(entry in model_type for entry in _VLLM_ALLOWLIST_UNPINNED):
        return None
    firsts = [since for entry, since in _VLLM_ALLOWLIST_SINCE.items() if entry in model_type]
    first = min(firsts, key=version_key) if firsts else VLLM_TARGET_CHECK_REMOVED
    if not release_surely_before(version, first, DEV_REACH["vllm"]):
        return None
    return model_type, first


# vLLM deepseek_v2.py (and the models that wrap it) keep their own capture loop, never the
# EagleModelMixin one (DeepSeek-V3.2 and GLM-5 up to 0.28.0: VLLM_DEEPSEEK_DSA below). GLM-5's
# GlmMoeDsaForCausalLM is deepseek_v2.py's too (registry.py: "GlmMoeDsaForCausalLM":
# ("deepseek_v2", "GlmMoeDsaForCausalLM"), a DeepseekV2ForCausalLM subclass that adds nothing).
VLLM_DEEPSEEK_FAMILY = frozenset({
    "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM",
    "MistralLarge3ForCausalLM", "KimiK25ForConditionalGeneration", "GlmMoeDsaForCausalLM"})
# From 0.29.0 the registry maps DeepSeek-V3.2 and GLM-5 (DSA) to vllm.models.deepseek_v32: on CUDA its
# __init__.py imports nvidia/model.py's DeepseekV32ForCausalLM (a DeepseekV2ForCausalLM, so
# SupportsEagle3, with model_cls = DeepseekV32Model) for both, whose loop captures `hidden_states if
# residual is None else hidden_states + residual` before layer idx and nothing after the last layer:
# id 0 is the embedding output, id N is never reached (0.29.0 .. 0.33.0 read). ROCm (amd/model.py from
# 0.31.0, deepseek_v2.py before), XPU and CPU keep other files, which this table, blind to the
# platform, does not model.
VLLM_DEEPSEEK_DSA = frozenset({"DeepseekV32ForCausalLM", "GlmMoeDsaForCausalLM"})
VLLM_DEEPSEEK_DSA_MODULE = "0.29.0"
# vLLM's DeepSeek-V4 (vllm/models/deepseek_v4/, not deepseek_v2.py) and its VL class (registry
# "DeepseekV4ForConditionalGeneration", common/vl_model.py from 0.30.0, over the same language model).
# DeepSeek-V4.1 (registry "DeepseekV41ForCausalLM" -> vllm.models.deepseek_v41 from 0.30.0; 0.30.0 ..
# 0.34.0 read) keeps
# V4's rule: nvidia/model.py DeepseekV4Model hands `capture_previous_aux=idx in
# aux_hidden_state_layers` to layer idx, which captures the post of layer idx-1, and layer 0 (its
# `residual is None` branch, the embedding) captures nothing, so id 0 is dropped from the aux list;
# `_collapse` captures end_layer (id N); amd/model.py: `idx + 1` after layer idx and end_layer.
VLLM_DEEPSEEK_V4 = frozenset({"DeepseekV4ForCausalLM", "DeepseekV4ForConditionalGeneration", "DeepseekV41ForCausalLM"})
# config/vllm.py DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES adds DeepseekV4ForCausalLM (0.27.0 lacks it; on
# ROCm default_v2_model_runner_architectures() takes it out again, which this table does not model)
VLLM_MRV2_DEEPSEEK_V4 = "0.28.0"
# MoE targets absent from vLLM's MRv2 default list run the V1 runner until 0.29: config/vllm.py
# `_is_default_v2_model_runner_model` wants the architecture listed and `not model_config.is_moe`
# (is_moe: num_experts / num_local_experts / n_routed_experts / moe_num_experts > 0) unless the
# MoE class itself is listed (DeepseekV2ForCausalLM, Qwen2MoeForCausalLM). Besides the DeepSeek-V3
# family, the MoE targets EAGLE-3 drafts are trained for (SpecForge configs/: qwen3-30B-A3B,
# gpt-oss, qwen3-next, glm4.5, llama4; Mixtral) are such classes: they read the SpecForge nested
# key through V1 there, which the generic (MRv2, top level only) row missed.
VLLM_V1_MOE_TARGETS = (VLLM_DEEPSEEK_FAMILY - {"DeepseekV2ForCausalLM"}) | frozenset({
    "Qwen3MoeForCausalLM", "Qwen3NextForCausalLM", "Qwen3VLMoeForConditionalGeneration",
    "GptOssForCausalLM", "MixtralForCausalLM", "Glm4MoeForCausalLM", "Glm4vMoeForConditionalGeneration",
    "Llama4ForConditionalGeneration", "Llama4ForCausalLM", "MiniMaxM2ForCausalLM", "Ernie4_5_MoeForCausalLM",
    # Hybrid (linear-attention) targets, dense ones too: the same function returns False for
    # `model_config.is_hybrid` unless the class is listed (a check vllm-project/vllm#48290 says
    # still applies after #44443 made dense targets MRv2); vLLM 0.27.1 runs a Qwen3.5 target
    # with V1 for this reason (its architecture is not in the list)
    "Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration"})

_ALL_FLAGS = frozenset(NORM_FLAGS)
_SPECULATORS_DEFAULTS = {f: False for f in NORM_FLAGS}
_FAN_IN_FROM_CONFIG = (NUM_AUX_KEY, NESTED_KEY)
_SGLANG_FLAGS_0512 = frozenset({"fc_norm", "norm_output"})
_SGLANG_FLAGS_0517 = frozenset({"fc_norm", "norm_output", "norm_before_fc"})

_SGL = "sgl-project/sglang python/sglang/srt/"
_VLLM = "vllm-project/vllm vllm/"

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
    ConventionRow("sglang", "id_offset", "always_plus_one", None, None,
                  _SGL + "models/llama.py set_eagle3_layers_to_capture: [val + 1 for val in"
                  " layer_ids] (sglang 0.4.9 .. 0.5.23; likewise qwen2/qwen3/qwen3_moe/glm4_moe/"
                  "minimax_m2/...)"),
    ConventionRow("sglang", "id_offset", "plus_one_if_first_is_one", SGLANG_PLUS_ONE_FIX, None,
                  _SGL + "models/deepseek_v2.py set_eagle3_layers_to_capture: +1 only if"
                  " layer_ids[0] == 1 (sglang 0.5.13; 0.5.12.post1 adds 1);"
                  " https://github.com/sgl-project/sglang/pull/25454",
                  architectures=SGLANG_DEEPSEEK_FAMILY),
    ConventionRow("sglang", "id_offset", "plus_one_unless_max_is_n", SGLANG_NORM_BEFORE_FC, None,
                  _SGL + "models/gpt_oss.py: ids used raw when max(ids) == N, else +1 (sglang"
                  " 0.5.17; 0.5.16 adds 1); https://github.com/sgl-project/sglang/pull/32334",
                  architectures=SGLANG_GPT_OSS),
    ConventionRow("sglang", "config_keys", (), None, SGLANG_AUX_IDS_FROM_CONFIG,
                  _SGL + "models/llama.py set_eagle3_layers_to_capture() takes no ids: always"
                  " [2, N//2, N-3] (sglang 0.4.6 .. 0.4.8.post1)"),
    ConventionRow("sglang", "config_keys", (NESTED_KEY,), SGLANG_AUX_IDS_FROM_CONFIG, None,
                  _SGL + "model_executor/model_runner.py (sglang 0.4.9 .. 0.5.15), then"
                  " model_runner_components/spec_aux_hidden_state.py (0.5.16 .. 0.5.23): only"
                  " hf_config.eagle_config['eagle_aux_hidden_state_layer_ids'] (try/except ->"
                  " default [2, N//2, N-3])"),
    ConventionRow("sglang", "honoured_flags_speculators", frozenset(), None,
                  SGLANG_MULTI_LAYER_DRAFT,
                  _SGL + "models/llama_eagle3.py (sglang 0.4.6 .. 0.5.11): residual ="
                  " hidden_states then hidden_norm, no norm flag read",
                  note="SGLang has no speculators-format loader; the rows say what its"
                       " LlamaForCausalLMEagle3 reads from the same top-level keys"),
    ConventionRow("sglang", "honoured_flags_speculators", _SGLANG_FLAGS_0512,
                  SGLANG_MULTI_LAYER_DRAFT, SGLANG_NORM_BEFORE_FC,
                  _SGL + "models/llama_eagle3.py (sglang 0.5.12): getattr(config, 'fc_norm' |"
                  " 'use_aux_norm') and getattr(config, 'norm_output')"),
    ConventionRow("sglang", "honoured_flags_speculators", _SGLANG_FLAGS_0517,
                  SGLANG_NORM_BEFORE_FC, None,
                  _SGL + "models/llama_eagle3.py (sglang 0.5.17 .. 0.5.23) also reads"
                  " norm_before_fc; norm_before_residual is never read;"
                  " https://github.com/sgl-project/sglang/pull/32334"),
    ConventionRow("sglang", "honoured_flags_eagle", frozenset(), None, SGLANG_MULTI_LAYER_DRAFT,
                  _SGL + "models/llama_eagle3.py (sglang 0.4.6 .. 0.5.11): no norm flag read"),
    ConventionRow("sglang", "honoured_flags_eagle", _SGLANG_FLAGS_0512,
                  SGLANG_MULTI_LAYER_DRAFT, SGLANG_NORM_BEFORE_FC,
                  _SGL + "models/llama_eagle3.py (sglang 0.5.12): fc_norm (or use_aux_norm),"
                  " norm_output"),
    ConventionRow("sglang", "honoured_flags_eagle", _SGLANG_FLAGS_0517, SGLANG_NORM_BEFORE_FC, None,
                  _SGL + "models/llama_eagle3.py (sglang 0.5.17): norm_before_fc from eagle_config"
                  " or top level; https://github.com/sgl-project/sglang/pull/32334"),
    ConventionRow("sglang", "flag_defaults", _SPECULATORS_DEFAULTS, None, None,
                  "sglang llama_eagle3.py: the unflagged path is the norm-after-residual one"),
    ConventionRow("sglang", "captures_embedding", False, None, SGLANG_EMBED_CAPTURE,
                  _SGL + "models/llama.py (sglang 0.4.6 .. 0.5.21): `if i in layers_to_capture:"
                  " aux_hidden_states.append(hidden_states + residual)` before layer i; residual"
                  " is None before layer 0, so id 0 fails the first forward (TypeError)",
                  note="read on models/llama.py; other model files keep their own loops"),
    ConventionRow("sglang", "captures_embedding", True, SGLANG_EMBED_CAPTURE, None,
                  _SGL + "models/llama.py (sglang 0.5.22) captures through"
                  " layers/layer_boundary/stage.py, which copies the embeddings when residual"
                  " is None"),
    ConventionRow("sglang", "captures_embedding", True, SGLANG_NORM_BEFORE_FC, None,
                  _SGL + "models/gpt_oss.py (sglang 0.5.17): boundary 0 is the embedding output",
                  architectures=SGLANG_GPT_OSS),
    ConventionRow("sglang", "captures_final", False, None, None,
                  _SGL + "models/llama.py: the capture runs only before layers (0.4.6 .. 0.5.23);"
                  " final_norm takes no capture"),
    ConventionRow("sglang", "captures_final", True, SGLANG_NORM_BEFORE_FC, None,
                  _SGL + "models/gpt_oss.py (sglang 0.5.17): boundary i + 1 after block i, so"
                  " id N; https://github.com/sgl-project/sglang/pull/32334",
                  architectures=SGLANG_GPT_OSS),
    ConventionRow("sglang", "fc_fan_in", 3, None, SGLANG_MULTI_LAYER_DRAFT,
                  _SGL + "models/llama_eagle3.py (sglang 0.4.6 .. 0.5.11): fc ="
                  " Linear(hidden_size_in * 3, H)"),
    ConventionRow("sglang", "fc_fan_in", _FAN_IN_FROM_CONFIG, SGLANG_MULTI_LAYER_DRAFT, None,
                  _SGL + "models/llama_eagle3.py (sglang 0.5.12): num_aux_hidden_states, else"
                  " len(eagle_config ids), else 3; https://github.com/sgl-project/sglang/pull/24663"),
    # ---------------- vLLM ----------------
    ConventionRow("vllm", "id_offset", "raw", None, None,
                  _VLLM + "v1/worker/gpu_model_runner.py `_get_eagle3_aux_layers_from_config` and"
                  " v1/worker/gpu/spec_decode/eagle/eagle3_utils.py return the ids unchanged"
                  " (vllm 0.11.1 .. 0.33.0)"),
    ConventionRow("vllm", "config_keys", (), None, VLLM_AUX_IDS_FROM_CONFIG,
                  _VLLM + "v1/worker/gpu_model_runner.py (vllm 0.9.2 .. 0.11.0): always the model's"
                  " get_eagle3_aux_hidden_state_layers() = (2, N//2, N-3);"
                  " https://github.com/vllm-project/vllm/pull/25961"),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY,), VLLM_AUX_IDS_FROM_CONFIG,
                  VLLM_V1_NESTED_IDS,
                  _VLLM + "v1/worker/gpu_model_runner.py (vllm 0.11.1 .. 0.21.0): top-level"
                  " hf_config key only (speculators configs copied there by"
                  " transformers_utils/configs/speculators/algos.py)"),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY, NESTED_KEY), VLLM_V1_NESTED_IDS,
                  VLLM_MRV2_DENSE,
                  _VLLM + "v1/worker/gpu_model_runner.py (V1 runner, vllm 0.22.0): top level, then"
                  " eagle_config['eagle_aux_hidden_state_layer_ids']",
                  note="the V1 runner is the default here for targets outside"
                       " config/vllm.py DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES (and, in 0.22/0.23,"
                       " for quantized ones); the env"
                       " VLLM_USE_V2_MODEL_RUNNER overrides the choice"),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY,), VLLM_MRV2_DENSE,
                  VLLM_MRV2_LAYER_IDS_KEY,
                  _VLLM + "config/vllm.py (vllm 0.25.0): model runner V2 is the default for non-MoE"
                  " targets; its v1/worker/gpu/spec_decode/eagle/eagle3_utils.py"
                  " get_eagle3_aux_layers_from_config reads the top-level key only",
                  note="MoE targets outside the MRv2 default list still run V1 (top level +"
                       " nested) until 0.29"),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY, NESTED_LAYER_IDS_KEY),
                  VLLM_MRV2_LAYER_IDS_KEY, None,
                  _VLLM + "v1/worker/gpu/spec_decode/eagle/eagle3_utils.py (vllm 0.27.0 .. 0.33.0):"
                  " top level, then eagle_config['layer_ids']; never the SpecForge nested key."
                  " config/vllm.py makes MRv2 the default for every target from 0.29.0",
                  note="VLLM_USE_V2_MODEL_RUNNER=0 (or an MRv2-unsupported feature) selects V1,"
                       " which reads the top-level and the SpecForge nested key"),
    # MRv2 default for dense listed architectures before every dense target had it; 0.22/0.23
    # also wanted the target unquantized (a quantized one falls to the generic V1 row).
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY,), VLLM_V1_NESTED_IDS, VLLM_MRV2_QUANTIZED,
                  _VLLM + "config/vllm.py DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES has"
                  " Qwen3ForCausalLM and `_is_default_v2_model_runner_model` wants"
                  " `not model_config.is_quantized` (vllm 0.22.0, 0.23.0); MRv2 reads the"
                  " top-level key only",
                  note="a quantized target (quantization_config) runs the V1 runner here",
                  architectures=frozenset({"Qwen3ForCausalLM"}), unquantized_only=True),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY,), VLLM_MRV2_QUANTIZED, VLLM_MRV2_DENSE,
                  _VLLM + "config/vllm.py DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES has"
                  " Qwen3ForCausalLM (vllm 0.24.0), quantized or not"
                  " (https://github.com/vllm-project/vllm/pull/44446); MRv2 reads the top-level"
                  " key only",
                  architectures=frozenset({"Qwen3ForCausalLM"})),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY,), VLLM_MRV2_LLAMA, VLLM_MRV2_QUANTIZED,
                  _VLLM + "config/vllm.py DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES has"
                  " LlamaForCausalLM/MistralForCausalLM and `_is_default_v2_model_runner_model`"
                  " wants `not model_config.is_quantized` (vllm 0.23.0)",
                  note="a quantized target (quantization_config) runs the V1 runner here",
                  architectures=frozenset({"LlamaForCausalLM", "MistralForCausalLM"}),
                  unquantized_only=True),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY,), VLLM_MRV2_QUANTIZED, VLLM_MRV2_DENSE,
                  _VLLM + "config/vllm.py DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES has"
                  " LlamaForCausalLM/MistralForCausalLM (vllm 0.24.0), quantized or not"
                  " (https://github.com/vllm-project/vllm/pull/44446)",
                  architectures=frozenset({"LlamaForCausalLM", "MistralForCausalLM"})),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY, NESTED_KEY), VLLM_V1_NESTED_IDS,
                  VLLM_MRV2_DEEPSEEK_V2,
                  _VLLM + "v1/worker/gpu_model_runner.py: MoE targets run V1 (vllm 0.22.0, 0.23.0)",
                  architectures=frozenset({"DeepseekV2ForCausalLM"})),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY,), VLLM_MRV2_DEEPSEEK_V2,
                  VLLM_MRV2_LAYER_IDS_KEY,
                  _VLLM + "config/vllm.py DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES has"
                  " DeepseekV2ForCausalLM (vllm 0.24.0); MRv2 reads the top-level key only",
                  architectures=frozenset({"DeepseekV2ForCausalLM"})),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY, NESTED_KEY), VLLM_V1_NESTED_IDS,
                  VLLM_MRV2_DEEPSEEK_V4,
                  _VLLM + "config/vllm.py (vllm 0.25.0 .. 0.27.0): DeepseekV4ForCausalLM, a MoE target"
                  " (n_routed_experts), is not in DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES, so it runs the V1"
                  " runner (top level + nested key); 0.28.0 lists it (MRv2: top level, then"
                  " eagle_config['layer_ids'])",
                  architectures=frozenset({"DeepseekV4ForCausalLM"})),
    ConventionRow("vllm", "config_keys", (TOP_LEVEL_KEY, NESTED_KEY), VLLM_V1_NESTED_IDS,
                  VLLM_MRV2_ALL,
                  _VLLM + "config/vllm.py (vllm 0.22.0 .. 0.28.0): MoE targets outside"
                  " DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES run the V1 runner (top level + nested"
                  " key); 0.29.0 drops the architecture gate",
                  architectures=VLLM_V1_MOE_TARGETS),
    ConventionRow("vllm", "honoured_flags_speculators", frozenset(), None, VLLM_SPECULATORS_CONFIG,
                  "vllm-project/vllm: vllm 0.9.2 .. 0.10.0 have no"
                  " vllm/transformers_utils/configs/speculators (no speculators-format loader); https://github.com/vllm-project/vllm/pull/21345"),
    ConventionRow("vllm", "honoured_flags_speculators", frozenset({"norm_before_residual"}),
                  VLLM_SPECULATORS_CONFIG, VLLM_NORM_BEFORE_FC_SPECULATORS,
                  _VLLM + "transformers_utils/configs/speculators/algos.py update_eagle3 (vllm"
                  " 0.10.1 .. 0.18.1) copies only norm_before_residual"),
    ConventionRow("vllm", "honoured_flags_speculators",
                  frozenset({"norm_before_residual", "norm_before_fc"}),
                  VLLM_NORM_BEFORE_FC_SPECULATORS, VLLM_MRV2_DENSE,
                  _VLLM + "configs/speculators/algos.py (vllm 0.19.0 .. 0.24.0) also copies"
                  " norm_before_fc; https://github.com/vllm-project/vllm/pull/38111",
                  note="llama_eagle3.py reads fc_norm/norm_output from 0.22.0 but algos.py drops"
                       " them for speculators configs until 0.25.0"),
    ConventionRow("vllm", "honoured_flags_speculators", _ALL_FLAGS, VLLM_MRV2_DENSE, None,
                  _VLLM + "configs/speculators/algos.py (vllm 0.25.0 .. 0.33.0) copies fc_norm and"
                  " norm_output; https://github.com/vllm-project/vllm/pull/46488"),
    ConventionRow("vllm", "honoured_flags_eagle", frozenset(), None, VLLM_SPECULATORS_CONFIG,
                  _VLLM + "model_executor/models/llama_eagle3.py (vllm 0.9.2 .. 0.10.0): no norm flag read"),
    ConventionRow("vllm", "honoured_flags_eagle", frozenset({"norm_before_residual"}),
                  VLLM_SPECULATORS_CONFIG, VLLM_MIXIN,
                  _VLLM + "model_executor/models/llama_eagle3.py (vllm 0.10.1 .. 0.17.1):"
                  " getattr(config, 'norm_before_residual', False)"),
    ConventionRow("vllm", "honoured_flags_eagle",
                  frozenset({"norm_before_residual", "norm_before_fc"}), VLLM_MIXIN,
                  VLLM_V1_NESTED_IDS,
                  _VLLM + "model_executor/models/llama_eagle3.py (vllm 0.18.0 .. 0.21.0):"
                  " getattr(config, 'norm_before_fc', False)"),
    ConventionRow("vllm", "honoured_flags_eagle", _ALL_FLAGS, VLLM_V1_NESTED_IDS, None,
                  _VLLM + "model_executor/models/llama_eagle3.py (vllm 0.22.0 .. 0.33.0): fc_norm,"
                  " norm_output; norm_before_fc also from eagle_config"),
    ConventionRow("vllm", "flag_defaults", {**_SPECULATORS_DEFAULTS, "norm_before_residual": True},
                  None, None,
                  _VLLM + "transformers_utils/configs/speculators/algos.py update_eagle3:"
                  " config_dict.get('norm_before_residual', True) (vllm 0.10.1 .. 0.33.0)",
                  note="applies to speculators-format configs that lack the key"),
    ConventionRow("vllm", "captures_embedding", False, None, VLLM_MIXIN,
                  _VLLM + "model_executor/models/llama.py (vllm 0.9.2 .. 0.17.1): `if idx in"
                  " aux_hidden_state_layers: aux_hidden_states.append(hidden_states + residual)`"
                  " before layer idx; residual is None before layer 0 (TypeError)"),
    ConventionRow("vllm", "captures_embedding", True, VLLM_MIXIN, None,
                  _VLLM + "model_executor/models/interfaces.py EagleModelMixin"
                  "._maybe_add_hidden_state, called with id 0 before layer 0 by models/llama.py"
                  " (vllm 0.18.0); https://github.com/lightseekorg/TorchSpec/issues/87"),
    ConventionRow("vllm", "captures_embedding", True, VLLM_DEEPSEEK_DSA_MODULE, None,
                  "vllm-project/vllm vllm/models/deepseek_v32/nvidia/model.py DeepseekV32Model.forward (vllm"
                  " 0.29.0 .. 0.33.0, CUDA): `if idx in self.aux_hidden_state_layers` appends `hidden_states if"
                  " residual is None else hidden_states + residual` before layer idx, so id 0 is the embedding"
                  " output",
                  architectures=VLLM_DEEPSEEK_DSA),
    ConventionRow("vllm", "captures_embedding", False, None, None,
                  _VLLM + "model_executor/models/deepseek_v2.py (vllm 0.18.0 .. 0.33.0): `idx in"
                  " aux_hidden_state_layers` -> hidden_states + residual before layer idx; residual"
                  " is None before layer 0",
                  architectures=VLLM_DEEPSEEK_FAMILY - VLLM_DEEPSEEK_DSA),
    ConventionRow("vllm", "captures_embedding", False, None, VLLM_DEEPSEEK_DSA_MODULE,
                  _VLLM + "model_executor/models/deepseek_v2.py (vllm 0.18.0 .. 0.28.0, the registry's module"
                  " for DeepSeek-V3.2 and GLM-5 there): `idx in aux_hidden_state_layers` -> hidden_states +"
                  " residual before layer idx; residual is None before layer 0",
                  architectures=VLLM_DEEPSEEK_DSA),
    # DeepSeek-V4 keeps its own loop (hyper-connections: the state is rebuilt by mhc_post): id k after
    # layer k-1, nothing before layer 0, id N after the loop; SupportsEagle3 from 0.25.0
    # (VLLM_EAGLE3_INTERFACE_LATE), the VL class (0.30.0) over the same language model
    ConventionRow("vllm", "captures_embedding", False, None, None,
                  "vllm-project/vllm vllm/models/deepseek_v4/nvidia/model.py DeepseekV4Model.forward (vllm 0.25.0"
                  " .. 0.33.0): `if idx + 1 in self.aux_hidden_state_layers` after layer idx only, no capture"
                  " before layer 0, so id 0 is never captured; models/deepseek_v41/nvidia/model.py (vllm 0.30.0 .."
                  " 0.34.0, DeepSeek-V4.1): layer 0 captures no previous post",
                  architectures=VLLM_DEEPSEEK_V4),
    ConventionRow("vllm", "captures_final", True, None, None,
                  "vllm-project/vllm vllm/models/deepseek_v4/nvidia/model.py DeepseekV4Model.forward (vllm 0.25.0"
                  " .. 0.33.0): the last layer's `idx + 1` is end_layer, and `if self.end_layer in"
                  " self.aux_hidden_state_layers` reuses it before hc_head and the final norm",
                  architectures=VLLM_DEEPSEEK_V4),
    ConventionRow("vllm", "captures_final", False, None, VLLM_MIXIN,
                  _VLLM + "model_executor/models/llama.py (vllm 0.9.2 .. 0.17.1): captures only before"
                  " layers, so id N is never reached; https://github.com/vllm-project/vllm/pull/46788"),
    ConventionRow("vllm", "captures_final", True, VLLM_MIXIN, None,
                  _VLLM + "models/llama.py (vllm 0.18.0): EagleModelMixin id k after layer k-1, so"
                  " id N = final output pre-norm"),
    ConventionRow("vllm", "captures_final", False, VLLM_DEEPSEEK_DSA_MODULE, None,
                  "vllm-project/vllm vllm/models/deepseek_v32/nvidia/model.py DeepseekV32Model.forward (vllm"
                  " 0.29.0 .. 0.33.0, CUDA): captures before layers only, no `end_layer` capture after the loop,"
                  " so id N is never reached",
                  architectures=VLLM_DEEPSEEK_DSA),
    ConventionRow("vllm", "captures_final", False, None, VLLM_MRV2_DENSE,
                  _VLLM + "model_executor/models/deepseek_v2.py (vllm 0.18.0 .. 0.24.0): no capture"
                  " after the last layer; https://github.com/vllm-project/vllm/pull/46788",
                  architectures=VLLM_DEEPSEEK_FAMILY),
    ConventionRow("vllm", "captures_final", True, VLLM_MRV2_DENSE, None,
                  _VLLM + "model_executor/models/deepseek_v2.py (vllm 0.25.0): `if self.end_layer"
                  " in self.aux_hidden_state_layers` after the loop",
                  architectures=VLLM_DEEPSEEK_FAMILY - VLLM_DEEPSEEK_DSA),
    ConventionRow("vllm", "captures_final", True, VLLM_MRV2_DENSE, VLLM_DEEPSEEK_DSA_MODULE,
                  _VLLM + "model_executor/models/deepseek_v2.py (vllm 0.25.0 .. 0.28.0, the registry's module"
                  " for DeepSeek-V3.2 and GLM-5 there): `if self.end_layer in self.aux_hidden_state_layers`"
                  " after the loop",
                  architectures=VLLM_DEEPSEEK_DSA),
    ConventionRow("vllm", "fc_fan_in", 3, None, VLLM_V1_NESTED_IDS,
                  _VLLM + "model_executor/models/llama_eagle3.py (vllm 0.9.2 .. 0.21.0): fc in ="
                  " target_hidden_size * 3"),
    ConventionRow("vllm", "fc_fan_in", _FAN_IN_FROM_CONFIG, VLLM_V1_NESTED_IDS, None,
                  _VLLM + "model_executor/models/llama_eagle3.py (vllm 0.22.0 .. 0.33.0):"
                  " num_aux_hidden_states, else len(eagle_config ids), else 3; the top-level ids"
                  " are not counted",
                  note="the Eagle3Qwen3ForCausalLM drafter (qwen3_eagle3.py, 0.24.0) also counts"
                       " the top-level ids; see serve_plan"),
)


# ---------------------------------------------------------------------------------------------
# Versions
# ---------------------------------------------------------------------------------------------
# setuptools_scm's version for a checkout without tags (a shallow clone, a fork): vLLM built that
# way reports 0.1.dev1+gb22b798.d20241006.cu126 or 0.1.dev7557+g977180c (vllm-project/vllm#9119,
# #20664) whatever its age; no 0.1 release was a .dev one
_UNTAGGED_BUILD = re.compile(r"0\.1\.dev\d+")


def parse_version(version: str | None) -> tuple[int, ...]:
    """'v0.5.4.post1' -> (0, 5, 4); '0.11.1rc2' -> (0, 11, 1); None/'latest'/'main' -> newest.

    Pre-releases count as their release: close enough for behaviour boundaries. A source
    checkout without version metadata reports 'dev' (vllm/version.py) or 0.0.0.dev0
    (sglang/version.py); both engines treat 0.0 as a dev tree, so it counts as the newest, as
    does setuptools_scm's 0.1.devN of a checkout without tags.
    """
    if version is None or version.strip().lower() in {"", "latest", "main", "head", "nightly",
                                                      "dev"}:
        return _INF
    text = version.strip().lower().lstrip("v")
    if _UNTAGGED_BUILD.match(text):
        return _INF
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
    if parts == [0]:
        return _INF  # 0.0.0.dev0: a dev tree (vllm/version.py `__version_tuple__[0:2] == (0, 0)`)
    return tuple(parts)


def unplaceable_version(version: str) -> str | None:
    """Why this table cannot place `version`: "unreadable" (a fork's label, a typo: parse_version
    refuses it) or "untagged" (setuptools-scm's 0.1.devN of a checkout without tags), else None.
    Either way the caller takes the newest conventions and says so with version_line."""
    try:
        parse_version(version)
    except ValueError:
        return "unreadable"
    return "untagged" if _UNTAGGED_BUILD.match(version.strip().lower().lstrip("v")) else None


def version_line(name: str, problem: str, labelled: str) -> str:
    """The one line said about an unplaceable version (`labelled`: it and where it came from);
    the engine step and the drafter_eval probe (on the host) say the same."""
    if problem == "untagged":
        return (f"{name} {labelled} is a source build without release tags (setuptools-scm's "
                "0.1.devN): its conventions are taken for the newest release")
    return (f"{name} version {labelled} is not a release number: its conventions are taken for "
            "the newest release")


VERSION_PROVIDE = {"unreadable": "--var engine_version=X.Y.Z (e.g. 0.5.4; the release the build is based on)",
                   "untagged": "--var engine_version=X.Y.Z (the release the build is based on)"}


def _in_range(version: tuple[int, ...], row: ConventionRow) -> bool:
    low = parse_version(row.since) if row.since else ()
    high = parse_version(row.until) if row.until else None
    return version >= low and (high is None or version < high)


def convention_row(engine: str, aspect: str, version: str | None = None,
                   target_architecture: str | None = None) -> ConventionRow:
    """The row that holds `aspect` for `engine` at `version` (newest when version is None).

    A row for `target_architecture` wins over the generic row of the same version range.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    parsed = parse_version(version)
    generic = None
    for row in CONVENTIONS:
        if row.engine != engine or row.aspect != aspect or not _in_range(parsed, row):
            continue
        if row.unquantized_only and is_quantized(target_architecture):
            continue
        if row.architectures is None:
            generic = generic or row
        elif target_architecture in row.architectures:
            return row
    if generic is None:
        raise LookupError(f"no {aspect!r} row for {engine} {version or 'latest'}")
    return generic


def convention(engine: str, aspect: str, version: str | None = None,
               target_architecture: str | None = None) -> Any:
    return convention_row(engine, aspect, version, target_architecture).value


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


def _lookup(raw: Mapping[str, Any], key: str) -> Any:
    """`a.b` reads raw['a']['b']; a missing or non-mapping parent reads as absent."""
    node: Any = raw
    for part in key.split("."):
        if not isinstance(node, Mapping):
            return None
        node = node.get(part)
    return node


def _int_list(value: Any) -> list[int] | None:
    """[2, 30, 58] (ints or digit strings) -> ints; anything else reads as absent, the way
    vLLM's `isinstance(layer_ids, (list, tuple))` test treats it."""
    if not isinstance(value, (list, tuple)) or not value:
        return None
    ids: list[int] = []
    for v in value:
        if isinstance(v, bool):
            return None
        try:
            ids.append(int(v))
        except (TypeError, ValueError):
            return None
    return ids


# The id-list keys the engines read (what a hand edit may misspell), by dotted name. AngelSlim's
# key is left out: SpecForge's run argument aux_hidden_state_layer_ids is one letter from it
# and means another convention.
_LAYER_ID_KEYS = (TOP_LEVEL_KEY, NESTED_KEY)


def misspelled_layer_ids(draft_config: Any) -> tuple[str, str, list[int]] | None:
    """(the key as written, the key it misspells, its ids) for a config that holds its aux
    layer ids only under a near-miss of a trainer's key (a hand edit:
    `eagle_aux_hidden_state_layer_id`, `eagle_aux_hiden_state_layer_ids`). No engine reads such
    a key (each looks its own keys up by exact name), so the engine serves its default layers
    while the checkpoint was trained on these; None when a real key holds ids."""
    raw = _raw(draft_config)
    if configured_layer_ids(raw, (*_LAYER_ID_KEYS, ANGELSLIM_KEY)) is not None:
        return None
    for parent in ("", "eagle_config."):
        node = _lookup(raw, parent[:-1]) if parent else raw
        if not isinstance(node, Mapping):
            continue
        known = [key[len(parent):] for key in _LAYER_ID_KEYS
                 if key.startswith(parent) and "." not in key[len(parent):]]
        for name, value in node.items():
            ids = _int_list(value)
            close = difflib.get_close_matches(str(name), known, n=1, cutoff=0.93)  # ~2 letters
            if ids is not None and close and name not in known:
                return parent + str(name), parent + close[0], ids
    return None


def configured_layer_ids(draft_config: Any, keys: tuple[str, ...]) -> list[int] | None:
    """The first non-empty id list found under `keys` (engines treat [] like absent)."""
    raw = _raw(draft_config)
    for key in keys:
        ids = _int_list(_lookup(raw, key))
        if ids is not None:
            return ids
    return None


class TargetArchitecture(str):
    """A target's ``architectures[0]`` that also knows whether the target is quantized, which
    vLLM 0.22/0.23 weigh with the class to pick the model runner (and so the layer-id keys).
    A str, so every caller that passes the class name on passes this too."""

    quantized: bool = False

    def __new__(cls, name: str, quantized: bool = False) -> "TargetArchitecture":
        made = super().__new__(cls, name)
        made.quantized = quantized
        return made

    def __reduce__(self) -> tuple:  # pickles (parallel workers) keep the flag
        return (TargetArchitecture, (str(self), self.quantized))


# vllm config/model.py `_parse_quant_hf_config`: hf_config.quantization_config, else
# compression_config (older compressed-tensors checkpoints), else the text config's
# quantization_config (a multimodal wrapper); `is_quantized` is then `quantization is not None`.
_QUANT_KEYS = ("quantization_config", "compression_config")


def _quantization_config(target_config: Mapping[str, Any]) -> Any:
    text = target_config.get("text_config")
    for node in (target_config, text if isinstance(text, Mapping) else {}):
        for key in _QUANT_KEYS:
            if isinstance(node.get(key), Mapping) and node[key]:
                return node[key]
    return None


def is_quantized(target_architecture: Any) -> bool:
    return bool(getattr(target_architecture, "quantized", False))


def target_architecture(target_config: Mapping[str, Any] | None,
                        launch_quantization: str | None = None) -> str | None:
    """``architectures[0]`` of a target config.json: the model class the engine loads, which
    picks its capture rules (SGLang adds 1 to the ids on a Llama target, not on DeepSeek).
    The top level, not text_config: a multimodal wrapper loads its text model through it.
    Returned as a TargetArchitecture that carries whether the target is served quantized: the
    config names a quantization, or the launch line's `--quantization`/`-q` does
    (`launch_quantization`; vLLM's ModelConfig.quantization takes the flag, and `is_quantized`
    reads that field, so a bf16 checkpoint quantized online counts too)."""
    config = target_config or {}
    archs = config.get("architectures")
    if not (isinstance(archs, list) and archs and isinstance(archs[0], str)):
        return None
    online = bool(launch_quantization and launch_quantization.strip())
    return TargetArchitecture(archs[0], online or _quantization_config(config) is not None)


def default_layer_ids(num_target_layers: int) -> list[int]:
    """[2, N//2, N-3], input-to convention: EAGLE, SGLang, vLLM and speculators all default to it
    (EAGLE3.md section 3; SafeAILab/EAGLE#308)."""
    n = num_target_layers
    return [2, n // 2, n - 3]


def _engine_view(engine: str, raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """The config the engine's model code sees. vLLM builds the hf_config of a speculators
    checkpoint from `transformer_layer_config` plus the keys update_eagle3 copies (vllm
    transformers_utils/configs/speculators/algos.py); other top-level keys never reach it."""
    if engine != "vllm" or not is_speculators_format(raw):
        return raw
    inner = raw.get("transformer_layer_config")
    view: dict[str, Any] = dict(inner) if isinstance(inner, Mapping) else {}
    if raw.get(TOP_LEVEL_KEY):
        view[TOP_LEVEL_KEY] = raw[TOP_LEVEL_KEY]
    return view


# vllm model_executor/models/qwen3_eagle3.py (0.24.0 .. 0.33.0): num_aux_layers, then
# num_aux_hidden_states, then the top-level or nested ids.
_VLLM_QWEN3_FAN_IN = ("num_aux_layers", NUM_AUX_KEY, TOP_LEVEL_KEY, NESTED_KEY)
_INT_KEYS = frozenset({"num_aux_layers", NUM_AUX_KEY})


def _fan_in_from_keys(keys: tuple[str, ...], view: Mapping[str, Any]) -> int:
    for key in keys:
        value = _lookup(view, key)
        if key in _INT_KEYS:
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value
        else:
            ids = _int_list(value)
            if ids is not None:
                return len(ids)
    return 3


def _is_vllm_qwen3_drafter(view: Mapping[str, Any]) -> bool:
    archs = view.get("architectures") or ()
    return view.get("model_type") == "qwen3" or "Eagle3Qwen3ForCausalLM" in archs


# The eagle3 drafter module each engine loads for a draft architecture (the engine's model
# registry); any other EAGLE-3 architecture runs models/llama_eagle3.py. vLLM
# model_executor/models/registry.py _SPECULATIVE_DECODING_MODELS (0.24.0 .. 0.33.0):
# Eagle3Qwen3ForCausalLM / PeagleQwen3ForCausalLM -> qwen3_eagle3, Eagle3DeepseekV2ForCausalLM /
# Eagle3DeepseekV3ForCausalLM -> deepseek_eagle3; SGLang python/sglang/srt/models/deepseek_eagle3.py
# EntryClass [Eagle3DeepseekV2ForCausalLM, Eagle3DeepseekV3ForCausalLM] (the V3 class a bare
# alias of V2: its own MLA layer, which reads no norm flag).
DRAFTER_MODULES = {
    "vllm": {"Eagle3Qwen3ForCausalLM": "qwen3_eagle3", "PeagleQwen3ForCausalLM": "qwen3_eagle3",
             "Eagle3DeepseekV2ForCausalLM": "deepseek_eagle3", "Eagle3DeepseekV3ForCausalLM": "deepseek_eagle3"},
    "sglang": {"Eagle3DeepseekV2ForCausalLM": "deepseek_eagle3", "Eagle3DeepseekV3ForCausalLM": "deepseek_eagle3"},
}


# Norm flags each non-Llama drafter module reads at all (the version rows describe llama_eagle3.py
# and qwen3_eagle3.py, which read the same ones). vLLM model_executor/models/deepseek_eagle3.py
# (main, read 2026-12): norm_before_residual, fc_norm, norm_output from the config, no norm_before_fc
# (no input_norm is built); SGLang python/sglang/srt/models/deepseek_eagle3.py: none, its first
# layer always takes the residual before hidden_norm and fc is applied bare.
_DRAFTER_FLAGS = {
    ("vllm", "deepseek_eagle3"): frozenset({"norm_before_residual", "fc_norm", "norm_output"}),
    ("sglang", "deepseek_eagle3"): frozenset(),
}


def version_key(version: str | None) -> tuple[tuple[int, ...], int]:
    """parse_version plus the `.postN` it drops (SGLang ships in post releases: 0.4.4.post2
    brought EAGLE-3, 0.5.6.post1 changed the auto-chosen parameters)."""
    post = re.search(r"\.post(\d+)", version or "")
    return parse_version(version), int(post.group(1)) if post else 0


# the engine's share of a source-tree build's reach (release_surely_before)
DEV_REACH = {"sglang": "patch", "vllm": "minor"}


def release_surely_before(version: str, since: str, dev_may_reach: str) -> bool:
    """The engine build `version` certainly predates the release `since` (which added what is
    checked), so a feature is never refused on a guess: a pre-release of `since` (0.5.7rc1,
    0.24.0rc2) counts as it, an unreadable version as the newest, and a build from a source tree
    (setuptools_scm's X.Y.Z.devN+g...: commits after the X.Y.Z-1 tag) may hold what came up to the
    next release: `dev_may_reach` "patch" (SGLang ships features in patch releases: 0.5.6.post3.dev120
    is compared as 0.5.7) or "minor" (vLLM ships them in minor releases: 0.23.1.dev3 as 0.24)."""
    try:
        release = parse_version(version)
    except ValueError:
        return False
    if re.search(r"dev\d*", version.lower()):
        if dev_may_reach == "minor":
            major, minor = (release + (0, 0))[:2]
            version = f"{major}.{minor + 1}"
        else:
            major, minor, patch = (release + (0, 0, 0))[:3]
            version = f"{major}.{minor}.{patch + 1}"
    try:
        return version_key(version) < version_key(since)
    except ValueError:
        return False


def _before(version: str | None, release: str) -> bool:
    """The version is older than `release`; one the table cannot read (a fork's label) counts
    as the newest, as unplaceable_version says."""
    try:
        return parse_version(version) < parse_version(release)
    except ValueError:
        return False


def builds_one_draft_layer(engine: str, version: str | None) -> bool:
    """This release's llama_eagle3.py builds a single decoder layer whatever the draft config's
    num_hidden_layers (SGLANG_MULTI_LAYER_DRAFT, VLLM_MULTI_LAYER_DRAFT); None: the newest."""
    since = {"sglang": SGLANG_MULTI_LAYER_DRAFT, "vllm": VLLM_MULTI_LAYER_DRAFT}.get(engine)
    return since is not None and _before(version, since)


def drafter_module(engine: str, draft_config: Any, version: str | None = None) -> str:
    """The engine's eagle3 model file (stem) that runs this draft: vLLM routes a Qwen3 draft
    (a speculators one by its transformer_layer_config) to qwen3_eagle3 the way the fan-in
    rule above reads it; otherwise the draft's `architectures[0]` in DRAFTER_MODULES.
    `version` (None: the newest): vLLM before VLLM_QWEN3_DRAFTER has no qwen3_eagle3.py and
    runs a Qwen3 draft (model_type qwen3, the speculators conversion's transformer_layer_config)
    with llama_eagle3.py, the way serve_plan's fan-in rule already gates it."""
    raw = _raw(draft_config)
    view = _engine_view(engine, raw)
    if engine == "vllm" and _is_vllm_qwen3_drafter(view):
        return "llama_eagle3" if _before(version, VLLM_QWEN3_DRAFTER) else "qwen3_eagle3"
    archs = raw.get("architectures") or view.get("architectures") or ()
    arch = archs[0] if isinstance(archs, list) and archs and isinstance(archs[0], str) else ""
    return DRAFTER_MODULES.get(engine, {}).get(arch, "llama_eagle3")


@dataclass(frozen=True)
class ServedLayers:
    """What an engine version captures for a draft, with the reasons."""

    engine: str
    version: str | None
    configured: list[int] | None  # ids as found in the config under the keys the engine reads
    config_key: str | None  # which key they came from, None = default used
    requested: list[int]  # capture indices after the offset rule (input-to convention)
    layer_ids: list[int]  # those the engine actually captures, in slot (= layer) order
    unreachable: list[int]  # requested but never captured (id 0 / id N / out of range)
    used_default: bool
    fc_fan_in: int | None  # fan-in (units of H) the engine builds fc with; None = len(layer ids)
    fan_in_mismatch: bool  # captured count differs from the fc fan-in the engine builds
    sources: list[str]
    target_architecture: str | None = None


def _offset(rule: str, configured: list[int], n: int) -> list[int]:
    if rule == "always_plus_one":
        plus_one = True
    elif rule == "plus_one_if_first_is_one":
        plus_one = configured[0] == 1
    elif rule == "plus_one_unless_max_is_n":
        plus_one = max(configured) != n
    else:
        plus_one = False
    return [i + 1 for i in configured] if plus_one else list(configured)


def serve_plan(engine: str, version: str | None, draft_config: Any,
               num_target_layers: int, target_architecture: str | None = None) -> ServedLayers:
    """Which target tensors an engine version feeds this draft, and why.

    `target_architecture` (the target config.json `architectures[0]`) selects the rows that
    differ by target class; without it the generic (Llama-path) rows apply.
    """
    n = num_target_layers
    arch = target_architecture
    raw = _raw(draft_config)
    view = _engine_view(engine, raw)
    sources: list[str] = []
    keys_row = convention_row(engine, "config_keys", version, arch)
    sources.append(keys_row.source)
    configured, config_key = None, None
    for key in keys_row.value:
        configured = configured_layer_ids(view, (key,))
        if configured is not None:
            config_key = key
            break
    if configured is None:
        requested = default_layer_ids(n)
        used_default = True
    else:
        offset_row = convention_row(engine, "id_offset", version, arch)
        sources.append(offset_row.source)
        requested = _offset(offset_row.value, configured, n)
        used_default = False
    embed_ok = convention(engine, "captures_embedding", version, arch)
    final_ok = convention(engine, "captures_final", version, arch)
    too_old = eagle3_release_failure(engine, version)
    captures = too_old is None and capture_failure(engine, arch, version) is None
    if too_old is not None:
        sources.append(f"{_EAGLE3_PR[engine]}: the first {_ENGINE_NAMES[engine]} release with "
                       f"EAGLE-3 is {_EAGLE3_SINCE[engine]}")
    elif not captures:
        if engine == "vllm":
            late = VLLM_EAGLE3_INTERFACE_LATE.get(arch or "")
            sources.append(_VLLM_NO_INTERFACE_SOURCE if arch in VLLM_NO_EAGLE3_INTERFACE else
                           _VLLM_LATE_INTERFACE_SOURCE.format(module=late[0], last=late[1], first=late[2])
                           if late is not None and vllm_refused_target(version, arch) is None else
                           _VLLM_ALLOWLIST_SOURCE)
        else:
            gained = SGLANG_CAPTURE_SINCE.get(arch or "", ("", "", ""))
            sources.append(_NO_AUX_CAPTURE_SOURCE if arch in SGLANG_NO_AUX_CAPTURE else
                           _SGLANG_NO_EAGLE3_CAPTURE_SOURCE.format(module=SGLANG_NO_EAGLE3_CAPTURE[arch])
                           if arch in SGLANG_NO_EAGLE3_CAPTURE else
                           _SGLANG_CAPTURE_SINCE_SOURCE.format(since=gained[1], last=gained[2]))

    def reachable(i: int) -> bool:
        if i < 0 or i > n or not captures:
            return False
        if i == 0:
            return bool(embed_ok)
        if i == n:
            return bool(final_ok)
        return True

    # Every engine captures inside one forward pass (`if i in layers_to_capture` in the layer
    # loop; vLLM >= 0.30 also sorts a set), so the slots come out in layer order and a
    # repeated id is captured once, whatever order the config lists.
    layer_ids = sorted({i for i in requested if reachable(i)})
    unreachable = list(dict.fromkeys(i for i in requested if not reachable(i)))
    fan_row = convention_row(engine, "fc_fan_in", version, arch)
    rule = fan_row.value
    if (engine == "vllm" and isinstance(rule, tuple) and _is_vllm_qwen3_drafter(view)
            and parse_version(version) >= parse_version(VLLM_QWEN3_DRAFTER)):
        rule = _VLLM_QWEN3_FAN_IN
    fan_in = _fan_in_from_keys(rule, view) if isinstance(rule, tuple) else rule
    expected = fan_in if fan_in is not None else (len(configured) if configured else 3)
    return ServedLayers(
        engine=engine, version=version, configured=configured, config_key=config_key,
        requested=requested, layer_ids=layer_ids, unreachable=unreachable,
        used_default=used_default, fc_fan_in=fan_in,
        fan_in_mismatch=len(layer_ids) != expected, sources=sources + [fan_row.source],
        target_architecture=arch,
    )


@dataclass(frozen=True)
class CaptureFailure:
    """Why an engine captures no aux hidden state of a target (`reason`) and the way out
    (`fix`). Checks read the two fields; str() is the one line ("reason; fix") notes print."""

    reason: str
    fix: str

    def __str__(self) -> str:
        return f"{self.reason}; {self.fix}"


def eagle3_release_failure(engine: str, version: str | None) -> CaptureFailure | None:
    """Why this engine release serves no EAGLE-3 draft at all (a release before its first
    EAGLE-3 one, VLLM_EAGLE3 / SGLANG_EAGLE3, its .postN counted), else None (None and a label
    the table cannot place count as the newest; a source-tree build as the release it may reach,
    the way the launch check reads it: release_surely_before)."""
    since = _EAGLE3_SINCE.get(engine)
    if since is None or version is None or not release_surely_before(version, since, DEV_REACH[engine]):
        return None
    name = _ENGINE_NAMES[engine]
    return CaptureFailure(
        f"{name} {version} has no EAGLE-3 at all (added in {since}, {_EAGLE3_PR[engine]}): it "
        "serves no EAGLE-3 draft and refuses the algorithm at startup",
        f"upgrade {name} to {since} or later and re-run this check with that release")


def capture_failure(engine: str, target_architecture: str | None,
                    version: str | None = None) -> CaptureFailure | None:
    """Why this engine captures no aux hidden state of this target at all (every release read;
    with `version`, also vLLM's target allowlist of that release, vllm_refused_target), else
    None: the draft cannot be served as EAGLE-3 there, whatever its layer ids."""
    no_interface = engine == "vllm" and target_architecture in VLLM_NO_EAGLE3_INTERFACE
    if engine == "vllm":
        refused = vllm_refused_target(version, target_architecture)
        if refused is not None:
            model_type, first = refused
            listed = (f"{model_type} is on it from {first}" if first != VLLM_TARGET_CHECK_REMOVED
                      else f"no entry of it matches {model_type} up to 0.21.0; 0.22.0 dropped the list, "
                           "vllm-project/vllm#42536")
            reason = (f"vLLM {version} refuses EAGLE-3 for a {target_architecture} target at startup: "
                      "SpeculativeConfig accepts only target model types on its list (ValueError \"... is only "
                      f"supported for [...] models\", vllm/config/speculative.py; {listed}), so no layer ids are "
                      "ever read")
            if no_interface:
                # the list's way out, "upgrade vLLM to 0.22.0", ends at the interface refusal
                return CaptureFailure(reason + "; nor does any later release: that model class does not implement "
                                      "SupportsEagle3 (vllm/model_executor/models/interfaces.py; 0.18.0, 0.22.0, "
                                      "0.33.0 read), which the server requires of the target at startup",
                                      vllm_no_interface_fix(target_architecture))
            return CaptureFailure(reason, f"upgrade vLLM to {first} or later and re-run this check with that release")
    if no_interface:
        return CaptureFailure(vllm_no_interface_reason(target_architecture, version),
                              vllm_no_interface_fix(target_architecture))
    late = vllm_interface_late(target_architecture, version) if engine == "vllm" else None
    if late is not None:
        return vllm_late_interface_failure(str(target_architecture), str(version), late)
    gained = SGLANG_CAPTURE_SINCE.get(target_architecture or "") if engine == "sglang" else None
    if (gained is not None and version is not None
            and release_surely_before(version, gained[1], DEV_REACH["sglang"])):
        module, since, last = gained
        return CaptureFailure(
            f"SGLang {version} cannot serve an EAGLE-3 draft over a {target_architecture} target: its "
            f"models/{module}.py has no set_eagle3_layers_to_capture, which model_executor/model_runner.py calls "
            f"on the target for EAGLE3, so the server stops at startup (AttributeError; added in {since}, "
            f"{last} lacks it) and no layer ids are ever read",
            f"upgrade SGLang to {since} or later and re-run this check with that release")
    if engine == "sglang" and target_architecture in SGLANG_NO_EAGLE3_CAPTURE:
        on = f"SGLang {version}" if version else "SGLang"
        return CaptureFailure(
            f"{on} cannot serve an EAGLE-3 draft over a {target_architecture} target: its "
            f"models/{SGLANG_NO_EAGLE3_CAPTURE[target_architecture]}.py has no set_eagle3_layers_to_capture in any "
            "release read (0.4.9 .. 0.5.23), which SGLang calls on the target for EAGLE3, so the server stops at "
            "startup (AttributeError; 0.5.23: ValueError \"... does not implement set_eagle3_layers_to_capture\") "
            "and no layer ids are ever read",
            "serve the target without EAGLE-3: vLLM's model class for it does not implement SupportsEagle3 either "
            "(0.18.0, 0.22.0, 0.33.0 read), so neither engine serves this draft"
            if target_architecture in VLLM_NO_EAGLE3_INTERFACE else
            f"serve the draft with vLLM {VLLM_EAGLE3_INTERFACE_LATE[target_architecture][2]} or later, whose model "
            "class for this target implements SupportsEagle3 from that release, or serve the target without EAGLE-3"
            if target_architecture in VLLM_EAGLE3_INTERFACE_LATE else
            "serve the draft with vLLM, whose model class for this target implements SupportsEagle3 (0.33.0 read), "
            "or serve the target without EAGLE-3")
    if (engine == "sglang" and target_architecture in SGLANG_NO_AUX_CAPTURE and version is not None
            and release_surely_before(version, SGLANG_QWEN35_CAPTURE, DEV_REACH["sglang"])):
        return CaptureFailure(
            f"SGLang {version} captures no aux hidden state of a {target_architecture} target: EAGLE3 fails at "
            "startup (ValueError: too many values to unpack, sgl-project/sglang#38307)",
            f"upgrade SGLang to {SGLANG_QWEN35_CAPTURE} or later (its qwen3_5.py flags the layers to capture), serve "
            "the draft with vLLM, or the target's own MTP head with --speculative-algorithm NEXTN")
    return None


def served_layer_ids(engine: str, version: str | None, draft_config: Any,
                     num_target_layers: int, target_architecture: str | None = None) -> list[int]:
    """Input-to-layer ids of the target tensors the engine feeds the draft, in slot order."""
    return serve_plan(engine, version, draft_config, num_target_layers,
                      target_architecture).layer_ids


# trained_layer_ids' default: the caller names no target, so nested ids keep the reading that
# holds whatever the target (first id 1 or -1 output-of, else input-to)
_NO_TARGET: Any = object()


def sglang_adds_one(ids: list[int], num_target_layers: int, target_architecture: str | None,
                    version: str | None = None) -> bool:
    """SGLang's own reading of eagle_config ids on this target at this release (None: the
    newest): True when its model file adds 1 to them (the id_offset rows)."""
    rule = convention("sglang", "id_offset", version, target_architecture)
    return _offset(rule, ids, num_target_layers) != list(ids)


def trained_layer_ids(draft_config: Any, num_target_layers: int, *,
                      target_architecture: Any = _NO_TARGET,
                      sglang_version: str | None = None) -> list[int]:
    """What the checkpoint means (input-to convention), read the way its trainer wrote it.

    speculators configs: top-level ids, raw. AngelSlim configs: its own key, output-of, so +1
    (ANGELSLIM_KEY); it wins over any engine key beside it, which only says what is served.
    EAGLE/SpecForge configs: nested ids in SpecForge's output-of convention, which SGLang turned
    into input-to with +1 (PR #25454: first id 1 means output-of); a nested list starting at 2
    is already input-to. A first id of -1 is output-of too: -1 + 1 = 0, the embedding output,
    the only reading an engine gives it (models/llama.py `[val + 1 for val in layer_ids]`), and
    the spelling find_layer_fix proposes for an embedding-trained draft on SGLang's Llama path;
    read raw it would be a layer no engine captures. A plain config's top-level ids (no nested
    ones) are read raw, as in a speculators config: the key is vLLM's, which never adds 1.

    A nested list starting at 0 or 1 is read the way SGLang reads it on the target the caller
    names (`target_architecture`, None = unknown, the Llama path; `sglang_version`, None = the
    newest, which the layer check uses, as a config does not say its release): the nested key is
    SGLang's, SpecForge captures through SGLang's set_eagle3_layers_to_capture, and
    find_layer_fix writes its SGLang fix there in SGLang's reading. So [0, 28, 56] is output-of (layer-inputs [1, 29, 57]) on a Llama target, where
    models/llama.py adds 1 to every id, and layer-inputs [0, 28, 56] (the embedding first) on a
    DeepSeek-family target from 0.5.13, where deepseek_v2.py adds 1 only to a list starting at
    1 (PR #25454); gpt_oss.py reads a list whose largest id is N raw, a first 1 included.
    Without a named target a first 0 stays input-to (the embedding), as before.

    Without ids every trainer's default is [2, N//2, N-3] input-to, AngelSlim's too from v0.3.0
    ([1, N//2 - 1, N - 4] output-of, target_model_wrapper.py `_get_default_aux_layer_ids`).
    AngelSlim v0.2.x counted from len(hidden_states) = N + 1 instead ([2, (N+1)//2, N-2]
    input-to; tag v0.2.0, replaced in Tencent/AngelSlim#142), but its saved config names no
    AngelSlim version, so that default cannot be told from the config and is not assumed.
    """
    if is_speculators_format(draft_config):
        ids = configured_layer_ids(draft_config, (TOP_LEVEL_KEY,))
        return ids if ids is not None else default_layer_ids(num_target_layers)
    angelslim = configured_layer_ids(draft_config, (ANGELSLIM_KEY,))
    if angelslim is not None:
        return [i + 1 for i in angelslim]
    ids = configured_layer_ids(draft_config, (NESTED_KEY,))
    if ids is None:
        # the top-level key is vLLM's and speculators' (each reads it raw, input-to: vllm
        # v1/worker/gpu_model_runner.py `_get_eagle3_aux_layers_from_config`), and the one
        # find_layer_fix writes for vLLM: SpecForge's output-of reading is the nested key's alone
        ids = configured_layer_ids(draft_config, (TOP_LEVEL_KEY,))
        return ids if ids is not None else default_layer_ids(num_target_layers)
    if ids[0] in (0, 1) and target_architecture is not _NO_TARGET:
        adds = sglang_adds_one(ids, num_target_layers, target_architecture, sglang_version)
        return [i + 1 for i in ids] if adds else ids
    return [i + 1 for i in ids] if ids[0] in (1, -1) else ids


# One target class per SGLang rule for eagle_config ids (the id_offset rows at the newest
# release): the readings trained_layer_ids may take when a caller does not know the target.
NESTED_READING_TARGETS: tuple[tuple[str, str | None], ...] = (
    ("a Llama-path target", None),
    ("a DeepSeek-family target", "DeepseekV3ForCausalLM"),
    ("a gpt-oss target", "GptOssForCausalLM"))


def readings_by_target(draft_config: Any, num_target_layers: int | None
                       ) -> dict[tuple[int, ...], list[str]]:
    """The trained ids a config's layer ids mean on each kind of target (NESTED_READING_TARGETS
    labels, by reading): one entry when the target does not change the reading (a speculators
    config, top-level or AngelSlim ids, a nested list starting at 2 or later), several for a
    plain draft's nested list starting at 0 or 1, which a caller without the target must say it
    read one way (trained_layer_ids without a target: a first 0 is the embedding).
    `num_target_layers` None (no target, a dump that names no layers): only the targets whose
    reading does not hang on the depth (gpt_oss.py reads a list ending at N raw), and only for a
    config that names ids (their default needs the depth)."""
    readings: dict[tuple[int, ...], list[str]] = {}
    if num_target_layers is None and configured_layer_ids(
            draft_config, (TOP_LEVEL_KEY, NESTED_KEY, ANGELSLIM_KEY)) is None:
        return readings
    for label, arch in NESTED_READING_TARGETS:
        if num_target_layers is None and convention("sglang", "id_offset", None, arch) == \
                "plus_one_unless_max_is_n":
            continue
        ids = trained_layer_ids(draft_config, num_target_layers or 0, target_architecture=arch)
        readings.setdefault(tuple(ids), []).append(label)
    return readings


# ---------------------------------------------------------------------------------------------
# Norm flags
# ---------------------------------------------------------------------------------------------
# Engines that read `eagle_config.norm_before_fc` before the top-level key
# (`eagle_config.get("norm_before_fc", getattr(config, "norm_before_fc", False))`): sglang
# models/llama_eagle3.py from 0.5.17, vllm model_executor/models/llama_eagle3.py from 0.22.0
# (0.18.0 .. 0.21.0 read the top level only).
_NESTED_NORM_BEFORE_FC_SINCE = {"speculators": None, "sglang": SGLANG_NORM_BEFORE_FC,
                                "vllm": VLLM_V1_NESTED_IDS}


def _flag_in_config(raw: Mapping[str, Any], flag: str, nested: bool) -> tuple[bool, bool]:
    """(present, value) of a norm flag; `eagle_config.<flag>` first when `nested`."""
    if nested:
        eagle_config = raw.get("eagle_config")
        if isinstance(eagle_config, Mapping) and flag in eagle_config:
            return True, bool(eagle_config[flag])
    if flag in raw:
        return True, bool(raw[flag])
    return False, False


# speculators' config flags are pydantic `bool` fields (models/eagle3/config.py
# Eagle3SpeculatorConfig), read in pydantic's lax mode: a hand-edited "false" or "no" is False
# there, while the engines test the raw value's truthiness (vLLM llama_eagle3.py
# `getattr(config, "norm_before_residual", False)` on the HF config that keeps the string), so
# "false" is True to them. Other strings ("flase", "") are a ValidationError in speculators.
_PYDANTIC_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})
_PYDANTIC_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})


def speculators_flag(value: Any) -> bool | None:
    """A config flag as speculators' pydantic config reads it; None when pydantic refuses it
    (a null or an unreadable string). JSON booleans are themselves."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in _PYDANTIC_FALSE | _PYDANTIC_TRUE:
        return value.lower() in _PYDANTIC_TRUE
    return None


def string_norm_flags(draft_config: Any) -> dict[str, str]:
    """Norm flags a speculators config writes as JSON strings ("false"), which speculators
    parses (speculators_flag) and the engines test for truthiness: {flag: the string}."""
    raw = _raw(draft_config)
    if not is_speculators_format(raw):
        return {}
    return {flag: raw[flag] for flag in NORM_FLAGS if isinstance(raw.get(flag), str)}


def misspelled_norm_flags(draft_config: Any) -> dict[str, tuple[str, Any]]:
    """{flag: (the key as written, its value)} for each norm flag a config does not set under
    its own name but under a near-miss of it (a hand edit: `norm_before_residul`). speculators'
    config class and the engines look each flag up by exact name, so such a key is ignored by
    all of them: each runs its default for the flag, whatever the checkpoint was trained with."""
    raw = _raw(draft_config)
    found: dict[str, tuple[str, Any]] = {}
    nodes = [raw] + ([raw["eagle_config"]] if isinstance(raw.get("eagle_config"), Mapping) else [])
    for node in nodes:
        for name, value in node.items():
            if name in NORM_FLAGS or not isinstance(value, (bool, int, str)):
                continue
            close = difflib.get_close_matches(str(name), NORM_FLAGS, n=1, cutoff=0.85)
            if close and close[0] not in raw and close[0] not in found and not (
                    node is not raw and close[0] in node):
                found[close[0]] = (str(name) if node is raw else f"eagle_config.{name}", value)
    return found


def reference_norm_flags(draft_config: Any) -> dict[str, bool]:
    """The flags as the checkpoint's trainer meant them (absent = False, speculators default).

    An EAGLE-format `eagle_config.norm_before_fc` counts, as both engines read it there. A
    speculators config's flag is read as its pydantic config reads it ("false" is False); an
    EAGLE-format one as Python trainers read a config attribute (truthiness)."""
    raw = _raw(draft_config)
    nested = not is_speculators_format(raw)
    misspelled = misspelled_norm_flags(raw)
    flags = {}
    for flag in NORM_FLAGS:
        present, value = _flag_in_config(raw, flag, nested and flag == "norm_before_fc")
        if not nested and flag in raw and speculators_flag(raw[flag]) is not None:
            value = bool(speculators_flag(raw[flag]))
        if not present and flag in misspelled:
            # what the hand edit meant: the value its trainer wrote under the right name
            written = misspelled[flag][1]
            value = bool(speculators_flag(written)) if speculators_flag(written) is not None else bool(written)
        flags[flag] = value
    return flags


def effective_norm_flags(engine: str, version: str | None, draft_config: Any) -> dict[str, bool]:
    """The flags an engine version actually runs this draft with."""
    raw = _raw(draft_config)
    speculators = is_speculators_format(raw)
    aspect = "honoured_flags_speculators" if speculators else "honoured_flags_eagle"
    honoured = convention(engine, aspect, version)
    # an MLA draft runs deepseek_eagle3.py, which reads fewer flags than llama_eagle3.py
    honoured = honoured & _DRAFTER_FLAGS.get((engine, drafter_module(engine, raw, version)), _ALL_FLAGS)
    defaults = convention(engine, "flag_defaults", version)
    since = _NESTED_NORM_BEFORE_FC_SINCE.get(engine)
    reads_nested = (not speculators and
                    (since is None or parse_version(version) >= parse_version(since)))
    flags: dict[str, bool] = {}
    for flag in NORM_FLAGS:
        present, value = _flag_in_config(raw, flag, reads_nested and flag == "norm_before_fc")
        if flag not in honoured:
            # Not read at all: the engine runs its unflagged code path.
            flags[flag] = False
        elif present:
            flags[flag] = value
        else:
            flags[flag] = bool(defaults.get(flag, False)) if speculators else False
    return flags


def ignored_norm_flags(engine: str, version: str | None, draft_config: Any) -> list[str]:
    """Flags whose effective value in the engine differs from what the checkpoint means."""
    meant = reference_norm_flags(draft_config)
    served = effective_norm_flags(engine, version, draft_config)
    return [flag for flag in NORM_FLAGS if meant[flag] != served[flag]]


def rows_for(engine: str) -> list[ConventionRow]:
    return [row for row in CONVENTIONS if row.engine == engine]
