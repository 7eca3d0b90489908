"""Engine conventions: the table is complete, its version boundaries are the released ones
(read from the sglang wheels and vllm sdists on PyPI, see the module docstring), and the
questions the diagnostics ask get the right answers for the incidents in EAGLE3.md sections 3
and 6."""

from __future__ import annotations

import pytest

from spec_debug.eagle3 import engines
from spec_debug.eagle3.engines import (
    CONVENTIONS, ENGINES, ignored_norm_flags, parse_version, serve_plan, served_layer_ids,
    trained_layer_ids,
)

ASPECTS = ("id_offset", "config_keys", "honoured_flags_speculators", "honoured_flags_eagle",
           "flag_defaults", "captures_embedding", "captures_final", "fc_fan_in")
PROBE_VERSIONS = [None, "0.1", "0.4.4", "0.4.8.post1", "0.4.9", "0.5.4.post1", "0.5.11",
                  "0.5.12", "0.5.12.post1", "0.5.13", "0.5.16", "0.5.17", "0.5.21", "0.5.22",
                  "0.8.5", "0.10.0", "0.10.1", "0.11.1rc1", "v0.14.0", "0.17.1", "0.18.0",
                  "0.19.0", "0.22.0", "0.23.0", "0.24.0", "0.25.0", "0.27.0", "0.29.0", "1.0",
                  "latest"]
DEEPSEEK = "DeepseekV3ForCausalLM"


def speculators_config(ids=(2, 30, 58), **flags):
    return {"speculators_model_type": "eagle3", "eagle_aux_hidden_state_layer_ids": list(ids),
            "norm_before_residual": False, **flags}


def specforge_config(ids=(1, 29, 57), **extra):
    return {"architectures": ["LlamaForCausalLMEagle3"],
            "eagle_config": {"eagle_aux_hidden_state_layer_ids": list(ids)}, **extra}


def test_every_version_has_exactly_one_generic_row_and_one_row_per_architecture():
    assert all(row.source for row in CONVENTIONS)
    archs = {a for row in CONVENTIONS if row.architectures for a in row.architectures}
    for engine in ENGINES:
        for aspect in ASPECTS:
            for version in PROBE_VERSIONS:
                parsed = parse_version(version)
                rows = [r for r in CONVENTIONS if r.engine == engine and r.aspect == aspect
                        and engines._in_range(parsed, r)]
                assert len([r for r in rows if r.architectures is None]) == 1, (
                    engine, aspect, version)
                for arch in archs:
                    hits = [r for r in rows if r.architectures and arch in r.architectures]
                    assert len(hits) <= 1, (engine, aspect, version, arch)


def test_every_boundary_was_read_from_a_release():
    # No row is a merge-date estimate any more; a bounded row names the releases it was read in.
    assert not [r for r in CONVENTIONS if r.version_estimated]
    for row in CONVENTIONS:
        if row.engine != "speculators" and (row.since or row.until):
            assert f"{row.engine} 0." in row.source or "vllm 0." in row.source, row


def test_version_parsing():
    assert parse_version("v0.5.4.post1") == (0, 5, 4)
    assert parse_version("0.11.1rc2") == (0, 11, 1)
    assert parse_version("0.10.0") == parse_version("0.10")
    assert parse_version("0.9.2") < parse_version("0.10")
    assert parse_version("latest") > parse_version("99.0")
    # source checkouts without version metadata are dev trees, i.e. the newest code
    assert parse_version("0.0.0.dev0") == parse_version("dev") == parse_version("latest")
    with pytest.raises(ValueError):
        parse_version("banana")


def test_defaults_hit_the_same_tensors_for_n61():
    # EAGLE3.md section 3 worked example: all defaults feed inputs to layers 2, 30, 58.
    no_ids = {"speculators_model_type": "eagle3"}
    for engine in ENGINES:
        assert served_layer_ids(engine, None, no_ids, 61) == [2, 30, 58]
        assert served_layer_ids(engine, None, no_ids, 61, DEEPSEEK) == [2, 30, 58]


def test_sglang_adds_one_on_llama_targets_in_every_release():
    # models/llama.py still does [val + 1 for val in layer_ids] in sglang 0.5.23: input-to ids
    # written by speculators are one layer late on a Llama target, old and new.
    cfg = specforge_config(ids=(2, 30, 58))
    for version in ("0.4.9", "0.5.13", "0.5.23", "latest"):
        assert served_layer_ids("sglang", version, cfg, 61) == [3, 31, 59]
        assert served_layer_ids("sglang", version, cfg, 61, "LlamaForCausalLM") == [3, 31, 59]
    # SpecForge output-of ids [1, 29, 57]: +1 is what they mean.
    assert served_layer_ids("sglang", "latest", specforge_config(), 61) == [2, 30, 58]


def test_sglang_plus_one_fix_is_deepseek_only_and_first_released_in_0_5_13():
    # PR #25454: Kimi-K2.5 eagle3-mla ids start at 2; deepseek_v2.py stops adding 1 in 0.5.13.
    cfg = specforge_config(ids=(2, 30, 58))
    assert served_layer_ids("sglang", "0.5.12", cfg, 61, DEEPSEEK) == [3, 31, 59]
    assert served_layer_ids("sglang", "0.5.12.post1", cfg, 61, DEEPSEEK) == [3, 31, 59]
    for arch in (DEEPSEEK, "KimiK25ForConditionalGeneration", "Glm4MoeLiteForCausalLM"):
        assert served_layer_ids("sglang", "0.5.13", cfg, 61, arch) == [2, 30, 58]
    # output-of ids (first id 1) still get the +1
    assert served_layer_ids("sglang", "0.5.13", specforge_config(), 61, DEEPSEEK) == [2, 30, 58]


def test_sglang_reads_only_the_nested_key_and_only_from_0_4_9():
    plan = serve_plan("sglang", "latest", speculators_config(ids=(3, 20, 40)), 61)
    assert plan.used_default and plan.layer_ids == [2, 30, 58]
    old = serve_plan("sglang", "0.4.8.post1", specforge_config(ids=(5, 20, 40)), 61)
    assert old.used_default and old.layer_ids == [2, 30, 58]
    assert served_layer_ids("sglang", "0.4.9", specforge_config(ids=(5, 20, 40)), 61) == [6, 21, 41]


def test_gpt_oss_final_boundary_on_sglang():
    # PR #32334: nvidia gpt-oss-120b Eagle3 ids [24, 30, 36] on a 36-layer target were shifted
    # to [25, 31, 37] (37 does not exist: a width mismatch); 0.5.17 uses them raw.
    cfg = specforge_config(ids=(24, 30, 36))
    old = serve_plan("sglang", "0.5.16", cfg, 36, "GptOssForCausalLM")
    assert old.requested == [25, 31, 37] and old.unreachable == [37] and old.fan_in_mismatch
    new = serve_plan("sglang", "0.5.17", cfg, 36, "GptOssForCausalLM")
    assert new.layer_ids == [24, 30, 36] and not new.unreachable and not new.fan_in_mismatch
    # ids that do not reach N keep the +1 (nvidia gpt-oss-120b-Eagle3-long-context [1, 17, 32])
    assert served_layer_ids("sglang", "0.5.17", specforge_config(ids=(1, 17, 32)), 36,
                            "GptOssForCausalLM") == [2, 18, 33]


def test_sglang_embedding_capture_crashed_before_0_5_22():
    cfg = specforge_config(ids=(-1, 29, 57))  # output-of id -1 = input to layer 0 after +1
    assert serve_plan("sglang", "0.5.21", cfg, 61).unreachable == [0]
    assert serve_plan("sglang", "0.5.22", cfg, 61).layer_ids == [0, 30, 58]


def test_vllm_config_keys_by_release():
    top = speculators_config(ids=(3, 9, 20))
    assert served_layer_ids("vllm", "0.11.0", top, 61) == [2, 30, 58]
    assert served_layer_ids("vllm", "0.11.1", top, 61) == [3, 9, 20]
    assert served_layer_ids("vllm", "latest", top, 61) == [3, 9, 20]
    # the SpecForge nested key: ignored until the V1 runner read it in 0.22.0 (raw: the
    # output-of ids land one layer early) ...
    assert served_layer_ids("vllm", "0.21.0", specforge_config(), 61) == [2, 30, 58]
    assert served_layer_ids("vllm", "0.22.0", specforge_config(), 61) == [1, 29, 57]
    # ... while the model runner V2, the default for dense Llama targets from 0.23.0 and for
    # every target from 0.29.0, never reads it (v1/worker/gpu/spec_decode/eagle/eagle3_utils.py)
    assert served_layer_ids("vllm", "0.23.0", specforge_config(), 61, "LlamaForCausalLM") == [
        2, 30, 58]
    assert served_layer_ids("vllm", "0.25.0", specforge_config(), 61) == [2, 30, 58]
    assert served_layer_ids("vllm", "latest", specforge_config(), 61) == [2, 30, 58]
    # MoE targets outside the MRv2 default list (DeepSeek-V3, Kimi) ran V1 until 0.29.0
    assert served_layer_ids("vllm", "0.28.0", specforge_config(), 61, DEEPSEEK) == [1, 29, 57]
    assert served_layer_ids("vllm", "0.29.0", specforge_config(), 61, DEEPSEEK) == [2, 30, 58]
    # MRv2 reads eagle_config.layer_ids from 0.27.0
    layer_ids = {"eagle_config": {"layer_ids": [4, 30, 57]}}
    assert served_layer_ids("vllm", "0.26.0", layer_ids, 61) == [2, 30, 58]
    plan = serve_plan("vllm", "0.27.0", layer_ids, 61)
    assert plan.layer_ids == [4, 30, 57] and plan.config_key == engines.NESTED_LAYER_IDS_KEY


def test_final_and_embedding_reachability_on_vllm():
    cfg = speculators_config(ids=(2, 30, 61))
    old = serve_plan("vllm", "0.17.1", cfg, 61)
    assert old.layer_ids == [2, 30] and old.unreachable == [61] and old.fan_in_mismatch
    new = serve_plan("vllm", "0.18.0", cfg, 61)
    assert new.layer_ids == [2, 30, 61] and not new.fan_in_mismatch
    # DeepSeek/Kimi keep their own loop: id N from 0.25.0 (PR #46788), id 0 never
    assert serve_plan("vllm", "0.24.0", cfg, 61, DEEPSEEK).unreachable == [61]
    assert serve_plan("vllm", "0.25.0", cfg, 61, DEEPSEEK).layer_ids == [2, 30, 61]
    embed = speculators_config(ids=(0, 30, 58))
    assert serve_plan("vllm", "0.17.1", embed, 61).unreachable == [0]
    assert serve_plan("vllm", "latest", embed, 61).layer_ids == [0, 30, 58]
    assert serve_plan("vllm", "latest", embed, 61, DEEPSEEK).unreachable == [0]


def test_fc_fan_in_by_release():
    four = speculators_config(ids=(2, 46, 91, 93))
    assert serve_plan("vllm", "0.21.0", four, 94).fc_fan_in == 3
    # llama_eagle3.py >= 0.22 sizes fc from num_aux_hidden_states or the *nested* ids: a
    # speculators config's top-level ids do not count, so 4 ids still meet a 3-wide fc ...
    plan = serve_plan("vllm", "latest", four, 94)
    assert plan.fc_fan_in == 3 and plan.fan_in_mismatch
    # ... unless the Eagle3Qwen3ForCausalLM drafter (0.24.0) builds it
    qwen = {**four, "transformer_layer_config": {"model_type": "qwen3"}}
    assert serve_plan("vllm", "0.23.0", qwen, 94).fc_fan_in == 3
    assert not serve_plan("vllm", "0.24.0", qwen, 94).fan_in_mismatch
    nested_four = specforge_config(ids=(2, 46, 91, 93))
    assert serve_plan("vllm", "0.22.0", nested_four, 94).fc_fan_in == 4
    assert serve_plan("sglang", "0.5.11", nested_four, 94).fc_fan_in == 3
    plan = serve_plan("sglang", "0.5.12", nested_four, 94)  # +1 pushes 93 to N: not captured
    assert plan.fc_fan_in == 4 and plan.unreachable == [94] and plan.fan_in_mismatch
    sized = specforge_config(ids=(1, 29, 57), num_aux_hidden_states=4)
    assert serve_plan("sglang", "latest", sized, 61).fc_fan_in == 4


def test_slots_come_in_layer_order_and_repeats_are_captured_once():
    # the capture runs in the layer loop, whatever order the config lists
    plan = serve_plan("vllm", "latest", speculators_config(ids=(58, 2, 30)), 61)
    assert plan.layer_ids == [2, 30, 58] and plan.requested == [58, 2, 30]
    dup = serve_plan("vllm", "latest", speculators_config(ids=(2, 2, 30)), 61)
    assert dup.layer_ids == [2, 30] and dup.fan_in_mismatch


def test_malformed_ids_read_as_absent_not_a_traceback():
    for bad in ("2,30,58", 3, [2, "x", 5], [True, 2, 3], None, []):
        cfg = {"speculators_model_type": "eagle3", "eagle_aux_hidden_state_layer_ids": bad}
        assert served_layer_ids("vllm", "latest", cfg, 61) == [2, 30, 58]
    assert served_layer_ids("sglang", "latest", {"eagle_config": "oops"}, 61) == [2, 30, 58]
    assert served_layer_ids("vllm", "latest", speculators_config(ids=("2", "30", "58")), 61) == [
        2, 30, 58]


def test_trained_layer_ids_normalise_conventions():
    assert trained_layer_ids(speculators_config(), 61) == [2, 30, 58]
    assert trained_layer_ids(specforge_config(), 61) == [2, 30, 58]
    assert trained_layer_ids({"speculators_model_type": "eagle3"}, 8) == [2, 4, 5]


def test_sglang_norm_flags_by_release():
    cfg = speculators_config(norm_before_residual=True, norm_before_fc=True, norm_output=True,
                             fc_norm=False)
    every = ["norm_before_residual", "norm_before_fc", "norm_output"]
    assert ignored_norm_flags("sglang", "0.5.11", cfg) == every
    # 0.5.12: fc_norm and norm_output read; 0.5.17: norm_before_fc; norm_before_residual never
    assert ignored_norm_flags("sglang", "0.5.12", cfg) == ["norm_before_residual", "norm_before_fc"]
    assert ignored_norm_flags("sglang", "0.5.16", cfg) == ["norm_before_residual", "norm_before_fc"]
    assert ignored_norm_flags("sglang", "0.5.17", cfg) == ["norm_before_residual"]
    assert ignored_norm_flags("sglang", "latest", cfg) == ["norm_before_residual"]
    assert ignored_norm_flags("speculators", None, cfg) == []


def test_vllm_norm_flags_by_release():
    cfg = speculators_config(norm_before_residual=True, norm_before_fc=True, norm_output=True,
                             fc_norm=False)
    assert ignored_norm_flags("vllm", "0.10.0", cfg) == [
        "norm_before_residual", "norm_before_fc", "norm_output"]
    assert ignored_norm_flags("vllm", "0.10.1", cfg) == ["norm_before_fc", "norm_output"]
    assert ignored_norm_flags("vllm", "0.18.1", cfg) == ["norm_before_fc", "norm_output"]
    assert ignored_norm_flags("vllm", "0.19.0", cfg) == ["norm_output"]
    # the model reads norm_output from 0.22.0 but speculators configs drop it until 0.25.0
    assert ignored_norm_flags("vllm", "0.24.0", cfg) == ["norm_output"]
    assert ignored_norm_flags("vllm", "0.25.0", cfg) == []
    eagle = {"norm_before_residual": True, "norm_before_fc": True, "norm_output": True}
    assert ignored_norm_flags("vllm", "0.17.1", eagle) == ["norm_before_fc", "norm_output"]
    assert ignored_norm_flags("vllm", "0.18.0", eagle) == ["norm_output"]
    assert ignored_norm_flags("vllm", "0.22.0", eagle) == []


def test_nested_norm_before_fc_is_read_where_the_engine_reads_it():
    cfg = specforge_config(eagle_config={"eagle_aux_hidden_state_layer_ids": [1, 29, 57],
                                         "norm_before_fc": True})
    assert engines.reference_norm_flags(cfg)["norm_before_fc"] is True
    assert ignored_norm_flags("sglang", "0.5.17", cfg) == []
    assert ignored_norm_flags("vllm", "0.21.0", cfg) == ["norm_before_fc"]  # top level only
    assert ignored_norm_flags("vllm", "0.22.0", cfg) == []


def test_vllm_defaults_norm_before_residual_true_when_key_missing():
    cfg = {"speculators_model_type": "eagle3"}
    assert ignored_norm_flags("vllm", "latest", cfg) == ["norm_before_residual"]
    assert engines.effective_norm_flags("vllm", "latest", cfg)["norm_before_residual"] is True
