"""SGLang cannot serve an EAGLE-3 draft on a Qwen3.5 target (round 26 review).

sgl-project/sglang python/sglang/srt/models/qwen3_5.py: Qwen3_5ForConditionalGeneration
subclasses Qwen3VLForConditionalGeneration and takes its set_eagle3_layers_to_capture, which
writes `layers_to_capture` for Qwen3-VL's decoder loop; Qwen3_5ForCausalLM.forward collects aux
states only from layers flagged `_is_layer_to_capture`, which only set_dflash_layers_to_capture
sets. Nothing is captured and EAGLE3 fails in CUDA graph capture with "ValueError: too many
values to unpack (expected 2)" (sgl-project/sglang#38307, open; #23569 and #25408 closed
unmerged). The table said SGLang served such a draft its layers [2, 32, 61].
"""

from __future__ import annotations

from spec_debug.eagle3 import engines

# A SpecForge draft for Qwen3.5-27B (64 layers), ids in its nested eagle_config
DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "num_hidden_layers": 1,
         "hidden_size": 5120, "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 31, 60]}}


def test_sglang_captures_nothing_of_a_qwen35_target():
    for arch in ("Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration"):
        plan = engines.serve_plan("sglang", "0.5.20", DRAFT, 64, arch)
        assert plan.layer_ids == [] and plan.unreachable == plan.requested
        assert any("sglang#38307" in source for source in plan.sources)
        failure = engines.capture_failure("sglang", arch, "0.5.20")  # hardening65: 0.5.22 captures
        assert failure and "38307" in failure.reason and "vLLM" in failure.fix


def test_vllm_and_other_sglang_targets_still_capture():
    assert engines.capture_failure("vllm", "Qwen3_5ForConditionalGeneration") is None
    assert engines.serve_plan("vllm", "0.30.0", DRAFT, 64, "Qwen3_5ForConditionalGeneration").layer_ids
    for arch in ("Qwen3NextForCausalLM", "Qwen3ForCausalLM", None):
        assert engines.capture_failure("sglang", arch) is None
        assert engines.serve_plan("sglang", "0.5.20", DRAFT, 64, arch).layer_ids


def test_drafter_eval_with_sglang_semantics_says_why_nothing_is_served():
    from spec_debug.eagle3.api import _resolve_layout
    from spec_debug.eagle3.config import parse_draft_config
    from spec_debug.eagle3.data import DataInfo

    cfg = parse_draft_config(dict(DRAFT, vocab_size=248320, draft_vocab_size=32000, intermediate_size=17408,
                                  num_attention_heads=40, num_key_value_heads=8, rms_norm_eps=1e-6))
    dump = DataInfo("specforge", 1, 4, 5120, (2, 32, 61, 64), True, True)
    resolved, notes = _resolve_layout(cfg, dump, 64, None, "sglang", "0.5.20", "Qwen3_5ForConditionalGeneration")
    assert resolved.layer_ids == (2, 32, 61)
    assert any("sglang#38307" in note for note in notes), notes
