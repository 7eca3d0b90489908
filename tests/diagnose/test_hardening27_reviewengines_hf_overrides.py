"""--hf-overrides merged as vLLM merges it (review of round 27).

vLLM's ModelConfig._apply_dict_overrides hands a sub-config's JSON to _update_nested, which
recurses into the dicts inside it: '{"text_config": {"rope_scaling": {"factor": 4}}}' on a
Qwen3-VL target keeps text_config.rope_scaling's rope_type and mrope_section. The round's merge
replaced that inner dict whole, and vLLM's dotted form (--hf-overrides.index_topk_pattern=...) was
not read at all. A value nested past Python's recursion limit (json.loads
recurses per level) raised RecursionError out of the throughput step."""

from __future__ import annotations

from spec_debug.diagnose.steps.throughput_step import served_configs

QWEN3_VL = {"architectures": ["Qwen3VLForConditionalGeneration"], "model_type": "qwen3_vl",
            "text_config": {"num_hidden_layers": 36, "hidden_size": 4096,
                            "rope_scaling": {"rope_type": "default", "mrope_section": [24, 20, 20]}},
            "rope_scaling": {"rope_type": "yarn", "factor": 2.0}}


def _target(*argv: str):
    facts = {"configs": {"target_config": QWEN3_VL, "draft_config": {}}, "launch": {"argv": list(argv)}}
    return served_configs(facts)[1]


def test_a_sub_configs_inner_dict_keeps_the_keys_not_overridden():
    target = _target("vllm", "serve", "Qwen/Qwen3-VL-8B", "--hf-overrides",
                     '{"text_config": {"rope_scaling": {"factor": 4}}}')
    assert target["text_config"]["rope_scaling"] == {"rope_type": "default", "mrope_section": [24, 20, 20],
                                                     "factor": 4}
    assert target["text_config"]["num_hidden_layers"] == 36
    # a top-level dict is set whole, and SGLang sets every key whole
    assert _target("vllm", "serve", "m", "--hf-overrides=" + '{"rope_scaling": {"factor": 4}}')["rope_scaling"] == {
        "factor": 4}
    assert _target("python3", "-m", "sglang.launch_server", "--json-model-override-args",
                   '{"text_config": {"num_hidden_layers": 2}}')["text_config"] == {"num_hidden_layers": 2}


def test_an_override_nested_past_the_recursion_limit_is_no_override():
    deep = "[" * 100_000 + "]" * 100_000
    assert _target("vllm", "serve", "m", "--hf-overrides", deep) == QWEN3_VL
    assert _target("vllm", "serve", "m", "--hf-overrides", "{'architectures': ['X']}") == QWEN3_VL


def test_vllm_dotted_overrides_are_read_and_win():
    # vLLM FlexibleArgumentParser: dotted keys gathered into one dict, appended as the flag's value
    target = _target("vllm", "serve", "m", "--hf-overrides", '{"max_position_embeddings": 65536}',
                     "--hf-overrides.text_config.rope_scaling.factor", "4",
                     "--hf-overrides.index_topk_pattern=FFSFFS", "--hf-overrides.layers+", "1,2")
    assert target["text_config"]["rope_scaling"] == {"rope_type": "default", "mrope_section": [24, 20, 20],
                                                     "factor": 4}
    assert target["index_topk_pattern"] == "FFSFFS" and target["layers"] == ["1", "2"]
    assert "max_position_embeddings" not in target
    assert _target("vllm", "serve", "m", "--hf-overrides.max_position_embeddings") == QWEN3_VL  # no value
