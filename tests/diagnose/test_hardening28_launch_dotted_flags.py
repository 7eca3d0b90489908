"""vLLM's dotted flags, read once: `--speculative-config.method eagle3` (the launch audit) and
`--hf-overrides.rope_scaling.factor=4` (the config the server loads) go through one reading of
FlexibleArgumentParser.parse_args (vllm-project/vllm vllm/utils/argparse_utils.py): `_` turned
into `-` before the first `.`, the value after the first `=` or the next word, a `+` key's text
split at commas into a list, two lists of one key joined, the text read as JSON or kept as text.
The two readers disagreed: the config reader skipped `--hf_overrides.` and kept only the last
of two `+` lists, the audit kept `a,b` as one string and read a dotted key with no value as
`true` (the algorithm audited as 'TRUE').
"""

from __future__ import annotations

import shlex

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command, vllm_dotted_flags
from spec_debug.diagnose.steps.common import served_config

TARGET = {"architectures": ["LlamaForCausalLM"], "max_position_embeddings": 8192}
SPEC = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.method eagle3 "
        "--speculative-config.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
        "--speculative-config.num_speculative_tokens 3")


def test_an_underscored_hf_overrides_flag_is_applied():
    # vLLM turns `_` into `-` up to the first `.`: this is --hf-overrides.max_position_embeddings
    argv = shlex.split("vllm serve m --hf_overrides.max_position_embeddings=131072")
    assert served_config(dict(TARGET), argv)["max_position_embeddings"] == 131072


def test_two_plus_lists_of_one_key_are_joined():
    argv = shlex.split("vllm serve m --hf-overrides.architectures+ LlamaForCausalLM "
                       "--hf-overrides.architectures+=Eagle3LlamaForCausalLM")
    assert served_config(dict(TARGET), argv)["architectures"] == ["LlamaForCausalLM", "Eagle3LlamaForCausalLM"]


def test_a_plus_key_of_the_speculative_config_is_a_list():
    cfg = parse_launch_command(SPEC + " --speculative-config.draft_tags+ a,b")
    assert cfg.speculative_config["draft_tags"] == ["a", "b"]


@pytest.mark.parametrize("tail", [" --speculative-config.method", " --speculative-config.method --port 8000"])
def test_a_dotted_key_with_no_value_is_one_clear_error(tail):
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(SPEC.replace("--speculative-config.method eagle3 ", "") + tail)
    assert "--speculative-config.method has no value" in caught.value.message


def test_values_with_equals_signs_json_and_repeats_read_as_vllm_reads_them():
    argv = shlex.split("vllm serve m --hf-overrides.rope_scaling='{\"rope_type\": \"yarn\"}' "
                       "--hf-overrides.rope_scaling.factor=4 --hf-overrides.note=a=b "
                       "--hf-overrides.max_position_embeddings 1 --hf-overrides.max_position_embeddings 2")
    assert vllm_dotted_flags(argv) == {"hf-overrides": {
        "rope_scaling": {"rope_type": "yarn", "factor": 4}, "note": "a=b", "max_position_embeddings": 2}}
    with pytest.raises(LaunchParseError):
        vllm_dotted_flags(["vllm", "serve", "m", "--hf-overrides.factor"])
    # the config reader: a dotted flag vLLM fails on changes nothing it loads
    assert served_config(dict(TARGET), ["vllm", "serve", "m", "--hf-overrides.factor"]) == TARGET
