"""An EAGLE-3 draft's own config.json keys written into vLLM's --speculative-config.

`--speculative-config '{"method": "eagle3", ..., "eagle_aux_hidden_state_layer_ids": [1, 16, 29]}'`
reads as if it set the target layers the draft is fed. No vLLM release has that key (nor
eagle_config, draft_vocab_size, norm_before_residual ...) in SpeculativeConfig (vllm/config/
speculative.py 0.20.0 .. 0.33.0 read): vLLM reads the ids from the draft's config.json
(`draft_model_config.hf_config`, SpeculativeConfig.compute_hash and the runners). From 0.14 the
config is `@config` with extra="forbid" (pydantic "Unexpected keyword argument": the server does
not start); 0.9 .. 0.13 drop the key without a word and serve the checkpoint's ids. The key is too
far from every SpeculativeConfig key for the misspelling rule, so the audit said nothing."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command


def _cmd(extra: str) -> str:
    return ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
            f"'{{\"method\": \"eagle3\", \"model\": \"org/llama-eagle3\", \"num_speculative_tokens\": 3, {extra}}}'")


def _lines(extra: str, version: str | None) -> list[str]:
    return [p for p in effective_spec(parse_launch_command(_cmd(extra)), engine_version=version).problems
            if "draft's config.json" in p]


@pytest.mark.parametrize(("extra", "key"), [
    ("\"eagle_aux_hidden_state_layer_ids\": [1, 16, 29]", "eagle_aux_hidden_state_layer_ids"),
    ("\"eagle_config\": {\"eagle_aux_hidden_state_layer_ids\": [1, 16, 29]}", "eagle_config"),
    ("\"norm_before_residual\": true", "norm_before_residual"),
    ("\"draft_vocab_size\": 32000", "draft_vocab_size"),
])
def test_a_draft_config_key_is_refused_from_0_14(extra, key):
    assert _lines(extra, "0.33.0") == [
        f"--speculative-config \"{key}\" is a key of the draft's config.json, not of vLLM's SpeculativeConfig: "
        "vLLM reads it from the draft checkpoint only; vLLM 0.33.0 refuses it (pydantic: \"Unexpected keyword "
        "argument\") and the server does not start (write it in the draft's config.json and drop it here)"]


def test_releases_0_9_to_0_13_drop_it_and_an_unknown_release_is_told_both():
    extra = "\"eagle_aux_hidden_state_layer_ids\": [1, 16, 29]"
    assert len(_lines(extra, "0.12.0")) == 1
    assert "vLLM 0.12.0 drops it without a word" in _lines(extra, "0.12.0")[0]
    assert "0.9 to 0.13 drop it without a word" in _lines(extra, None)[0]


def test_the_speculative_config_keys_themselves_say_nothing():
    assert _lines("\"draft_tensor_parallel_size\": 1", "0.33.0") == []
