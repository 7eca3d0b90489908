"""vLLM's FlexibleArgumentParser is argparse with allow_abbrev left on (vllm/utils/argparse_utils.py
never passes allow_abbrev=False, 0.9.0 .. 0.33.0): a unique prefix of an option is that option,
and a prefix of two options makes argparse exit with "ambiguous option" (CPython
Lib/argparse.py `_parse_optional`). The audit reads a command the way vLLM does."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

# vLLM's `--spec-*` shorthands (vLLM PR #42476) for the docs' EAGLE-3 example
# (docs/features/speculative_decoding/eagle.md: meta-llama/Llama-3.1-8B-Instruct with
# yuhuili/EAGLE3-LLaMA3.1-Instruct-8B).
SERVE = "vllm serve meta-llama/Llama-3.1-8B-Instruct --spec-method eagle3 --spec-model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "


def test_a_unique_prefix_is_the_option_it_abbreviates():
    cfg = parse_launch_command(SERVE + "--spec-tok 5 --max-model 8k --tensor-par 2")
    assert (cfg.num_steps, cfg.context_length, cfg.tp) == (5, 8000, 2)
    # --speculative is --speculative-config (the V0 --speculative-model no longer exists)
    cfg = parse_launch_command("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative "
                               "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
                               "\"num_speculative_tokens\": 3}'")
    assert (cfg.algorithm, cfg.num_steps) == ("EAGLE3", 3)
    # and the dotted form: FlexibleArgumentParser appends one `--speculative '{...}'`
    cfg = parse_launch_command("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative.method eagle3 "
                               "--speculative.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
                               "--speculative.num_speculative_tokens 4")
    assert (cfg.algorithm, cfg.num_steps) == ("EAGLE3", 4)


def test_a_prefix_of_two_options_is_refused_as_vllm_refuses_it():
    with pytest.raises(LaunchParseError, match="--spec-m is ambiguous: it could match --spec-method, --spec-model"):
        parse_launch_command("vllm serve meta-llama/Llama-3.1-8B-Instruct --spec-m eagle3 --spec-tokens 3")
    with pytest.raises(LaunchParseError, match="--max-num is ambiguous"):
        parse_launch_command(SERVE + "--spec-tokens 3 --max-num 256")


def test_the_full_flag_written_later_wins_over_its_abbreviation():
    assert parse_launch_command(SERVE + "--spec-tok 5 --spec-tokens 2").num_steps == 2
