"""Engine conventions: the table is complete and the questions diagnostics ask get the right
answers for the incidents in EAGLE3.md sections 3 and 6."""

from __future__ import annotations

import pytest

from spec_debug.eagle3 import engines
from spec_debug.eagle3.engines import (
    CONVENTIONS, ENGINES, ignored_norm_flags, parse_version, serve_plan, served_layer_ids,
    trained_layer_ids,
)

ASPECTS = ("id_offset", "config_keys", "honoured_flags_speculators", "honoured_flags_eagle",
           "flag_defaults", "captures_embedding", "captures_final", "fc_fan_in")
PROBE_VERSIONS = [None, "0.1", "0.4.4", "0.5.4.post1", "0.5.12", "0.8.5", "0.10.0", "0.11.1rc1",
                  "v0.14.0", "0.19.0", "0.23.0", "1.0", "latest"]


def speculators_config(ids=(2, 30, 58), **flags):
    return {"speculators_model_type": "eagle3", "eagle_aux_hidden_state_layer_ids": list(ids),
            "norm_before_residual": False, **flags}


def specforge_config(ids=(1, 29, 57)):
    return {"architectures": ["LlamaForCausalLMEagle3"],
            "eagle_config": {"eagle_aux_hidden_state_layer_ids": list(ids)}}


def test_every_row_has_a_source_and_every_version_exactly_one_row():
    assert all(row.source for row in CONVENTIONS)
    for engine in ENGINES:
        for aspect in ASPECTS:
            for version in PROBE_VERSIONS:
                parsed = parse_version(version)
                hits = [r for r in CONVENTIONS if r.engine == engine and r.aspect == aspect
                        and engines._in_range(parsed, r)]
                assert len(hits) == 1, (engine, aspect, version, hits)


def test_version_parsing():
    assert parse_version("v0.5.4.post1") == (0, 5, 4)
    assert parse_version("0.11.1rc2") == (0, 11, 1)
    assert parse_version("0.10.0") == parse_version("0.10")
    assert parse_version("0.9.2") < parse_version("0.10")
    assert parse_version("latest") > parse_version("99.0")
    with pytest.raises(ValueError):
        parse_version("banana")


def test_defaults_hit_the_same_tensors_for_n61():
    # EAGLE3.md section 3 worked example: all defaults feed inputs to layers 2, 30, 58.
    no_ids = {"speculators_model_type": "eagle3"}
    for engine in ENGINES:
        assert served_layer_ids(engine, None, no_ids, 61) == [2, 30, 58]


def test_speculators_ids_on_old_sglang_are_off_by_one():
    cfg = {"eagle_config": {"eagle_aux_hidden_state_layer_ids": [2, 30, 58]}}
    assert served_layer_ids("sglang", "0.5.4", cfg, 61) == [3, 31, 59]
    assert served_layer_ids("sglang", "latest", cfg, 61) == [2, 30, 58]
    # SpecForge output-of ids: +1 in every SGLang version.
    assert served_layer_ids("sglang", "0.5.4", specforge_config(), 61) == [2, 30, 58]
    assert served_layer_ids("sglang", "latest", specforge_config(), 61) == [2, 30, 58]


def test_sglang_does_not_read_top_level_ids():
    plan = serve_plan("sglang", "latest", speculators_config(ids=(3, 20, 40)), 61)
    assert plan.used_default and plan.layer_ids == [2, 30, 58]


def test_vllm_reads_specforge_nested_ids_raw_off_by_one():
    assert served_layer_ids("vllm", "latest", specforge_config(), 61) == [1, 29, 57]
    # a version that only reads the top-level key falls back to the default
    assert served_layer_ids("vllm", "0.12.0", specforge_config(), 61) == [2, 30, 58]
    # before aux ids were read from the config at all
    assert served_layer_ids("vllm", "0.10.0", speculators_config(ids=(3, 9, 20)), 61) == [2, 30, 58]


def test_final_layer_id_reachability():
    cfg = speculators_config(ids=(2, 30, 61))
    old = serve_plan("vllm", "0.15.0", cfg, 61)
    assert old.layer_ids == [2, 30] and old.unreachable == [61] and old.fan_in_mismatch
    new = serve_plan("vllm", "latest", cfg, 61)
    assert new.layer_ids == [2, 30, 61] and not new.fan_in_mismatch
    embed = serve_plan("vllm", "0.15.0", speculators_config(ids=(0, 30, 58)), 61)
    assert embed.unreachable == [0]


def test_four_aux_ids_mismatch_a_fixed_fan_in():
    plan = serve_plan("vllm", "latest", speculators_config(ids=(2, 46, 91, 93)), 94)
    assert plan.fc_fan_in == 3 and plan.fan_in_mismatch


def test_trained_layer_ids_normalise_conventions():
    assert trained_layer_ids(speculators_config(), 61) == [2, 30, 58]
    assert trained_layer_ids(specforge_config(), 61) == [2, 30, 58]
    assert trained_layer_ids({"speculators_model_type": "eagle3"}, 8) == [2, 4, 5]


def test_sglang_ignores_norm_flags_until_it_learned_norm_before_fc():
    cfg = speculators_config(norm_before_residual=True, norm_before_fc=True, norm_output=True)
    assert ignored_norm_flags("sglang", "0.5.4", cfg) == [
        "norm_before_residual", "norm_before_fc", "norm_output"]
    assert ignored_norm_flags("sglang", "latest", cfg) == ["norm_before_residual", "norm_output"]
    assert ignored_norm_flags("speculators", None, cfg) == []


def test_vllm_norm_flags_by_version():
    cfg = speculators_config(norm_before_residual=True, norm_before_fc=True, norm_output=True,
                             fc_norm=False)
    assert ignored_norm_flags("vllm", "0.9.0", cfg) == [
        "norm_before_residual", "norm_before_fc", "norm_output"]
    assert ignored_norm_flags("vllm", "0.12.0", cfg) == ["norm_before_fc", "norm_output"]
    assert ignored_norm_flags("vllm", "0.20.0", cfg) == ["norm_output"]
    assert ignored_norm_flags("vllm", "latest", cfg) == []


def test_vllm_defaults_norm_before_residual_true_when_key_missing():
    cfg = {"speculators_model_type": "eagle3"}
    assert ignored_norm_flags("vllm", "latest", cfg) == ["norm_before_residual"]
    assert engines.effective_norm_flags("vllm", "latest", cfg)["norm_before_residual"] is True
