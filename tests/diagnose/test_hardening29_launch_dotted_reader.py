"""vLLM's dotted flags read once, as vLLM reads them (vllm-project/vllm vllm/utils/argparse_utils.py,
FlexibleArgumentParser.parse_args): the audit's speculative config and `vllm_dotted_flags` (the
config reader's) are one reading now.

- Each flag *as written* (`--speculative-config`, `-sc`, `--speculative`) gathers its dotted keys
  into a dict of its own (`dict_args[key]`), appended as one JSON value in the order of its first
  dotted key; argparse maps them all to --speculative-config and the last wins whole. The audit
  merged every spelling's keys into one dict and kept the last-written value of each key.
- A dotted key's value is the next word whatever it is (`value_str = processed_args[i + 1]`): a
  flag there is the value, and the flag's own value is left a stray word. The audit's flag reader
  took `--port 8000` as a flag with its value and the dotted key as valueless.
- A value that is not JSON is read as human_readable_int before it is kept as text (`80g`, `128K`).
"""

from __future__ import annotations

import shlex

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command, read_flags, vllm_dotted_flags
from spec_debug.diagnose.steps import launch_step
from spec_debug.diagnose.steps.common import served_config
from spec_debug.probes.registry import ProbeContext

SPEC = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.method eagle3 "
        "--speculative-config.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
        "--speculative-config.num_speculative_tokens 1 ")


def _evidence(command: str) -> str:
    facts = launch_step.parse({"source": "cli", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    return "\n".join(line for f in launch_step.check(ctx) if f.code == "SD102" for line in f.evidence)


def test_a_later_spelling_replaces_the_dotted_keys_of_another_whole():
    # vLLM appends `--speculative-config '{method, model, k: 1}'` then `-sc '{"k": 2}'`: the last wins
    command = SPEC + "-sc.num_speculative_tokens 2"
    cfg = parse_launch_command(command)
    assert cfg.speculative_config == {"num_speculative_tokens": 2}
    assert cfg.speculative_config == vllm_dotted_flags(shlex.split(command))["sc"]
    evidence = _evidence(command)
    assert "the dotted keys of --speculative-config are replaced by those of -sc" in evidence
    assert "num_speculative_tokens but no draft model" in evidence
    # one spelling given twice: its last value, the other keys kept
    cfg = parse_launch_command(SPEC + "--speculative-config.num_speculative_tokens 2")
    assert (cfg.num_steps, cfg.algorithm) == (2, "EAGLE3")


def test_the_order_is_each_spellings_first_dotted_key_not_its_last():
    # --speculative-config's keys come first (its first key is first), --speculative's last: k = 2
    command = SPEC + "--speculative.num_speculative_tokens 2 --speculative-config.num_speculative_tokens 3"
    assert parse_launch_command(command).speculative_config == {"num_speculative_tokens": 2}


def test_a_flag_after_a_dotted_key_is_its_value():
    # vLLM: method = "--port", and 8000 is a stray word (argparse: unrecognized arguments)
    assert read_flags(["--speculative-config.method", "--port", "8000"]) == (
        {"speculative-config.method": "--port"}, ["8000"])
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(SPEC.replace("--speculative-config.method eagle3 ", "")
                             + "--speculative-config.method --port 8000")
    assert "takes the next word, --port, as its value" in caught.value.message


def test_human_readable_values_are_integers():
    cfg = parse_launch_command(SPEC + "--speculative-config.max_model_len 32k")
    assert cfg.speculative_config["max_model_len"] == 32000
    target = {"architectures": ["LlamaForCausalLM"], "max_position_embeddings": 8192}
    argv = shlex.split("vllm serve m --hf-overrides.max_position_embeddings 128K --hf-overrides.note 1.5K")
    served = served_config(dict(target), argv)
    # binary suffixes take no decimals: human_readable_int raises, so the text is kept
    assert (served["max_position_embeddings"], served["note"]) == (131072, "1.5K")


def test_a_spec_tokens_value_nested_past_the_json_reader_is_one_clear_error():
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command("vllm serve m --spec-method eagle3 --spec-model d --spec-tokens " + "[" * 5000)
    assert "num_speculative_tokens must be an integer" in caught.value.message


def test_a_short_spellings_dotted_key_is_named_with_one_dash():
    evidence = _evidence("vllm serve m --speculative-config '{\"method\": \"eagle3\", \"model\": \"d\", "
                         "\"num_speculative_tokens\": 3}' -sc.num_speculative_tokens 2")
    assert "replaced by the dotted keys -sc.num_speculative_tokens " in evidence


def test_a_dotted_key_that_ends_a_cut_ps_line_points_at_the_full_line():
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(SPEC + "--speculative-config.draft_tensor_parallel_size")
    assert "has no value" in caught.value.message and "ps -ww" in caught.value.hint
