"""Flags written after a bare `--` on the server's command line.

argparse ends option parsing at `--`: every later word is a positional (CPython Lib/argparse.py
`_parse_known_args`), and neither server takes positionals to hold them, so
`python -m sglang.launch_server -- --model-path M ...` or `vllm serve M -- --speculative-config
...` exits with an argparse error and the server never starts. The audit read `--` as a flag
named "" and went on: for SGLang it said `--` was an ambiguous abbreviation of every option,
for vLLM it audited the speculative config after `--` as if the server ran with it. It now says
the flags after `--` are not read, and a `--` before the server (`uv run -- python -m ...`)
still reads as before."""

from __future__ import annotations

import argparse

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError

SPEC = '{"method": "eagle3", "model": "/d", "num_speculative_tokens": 3}'


def test_argparse_reads_no_option_after_end_marker():
    parser = argparse.ArgumentParser(exit_on_error=False, add_help=False)
    parser.add_argument("--model-path")
    _, unknown = parser.parse_known_args(["--", "--model-path", "m"])
    assert "--model-path" in unknown


def test_sglang_flags_after_end_marker_do_not_start_a_server():
    with pytest.raises(LaunchParseError) as info:
        parse_launch_command("python -m sglang.launch_server -- --model-path m --speculative-algorithm EAGLE3")
    assert str(info.value).startswith(
        "sglang: --model-path comes after a bare '--', which ends the options: argparse reads every word after "
        "it as a positional, not a flag, so it exits with 'unrecognized arguments' and the server does not start")
    assert "ambiguous" not in str(info.value)


def test_vllm_speculative_config_after_end_marker_is_not_read():
    with pytest.raises(LaunchParseError) as info:
        parse_launch_command(["vllm", "serve", "m", "--", "--speculative-config", SPEC])
    assert str(info.value).startswith("vllm: --speculative-config comes after a bare '--'")


def test_end_marker_before_the_server_still_reads():
    cfg = parse_launch_command("uv run -- python -m sglang.launch_server --model-path m "
                               "--speculative-algorithm EAGLE3 --speculative-draft-model-path d")
    assert (cfg.engine, cfg.target_model, cfg.draft_model, cfg.algorithm) == ("sglang", "m", "d", "EAGLE3")


def test_trailing_end_marker_is_not_an_ambiguous_flag():
    cfg = parse_launch_command("python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --")
    assert (cfg.target_model, cfg.algorithm) == ("m", "EAGLE3")
    assert "" not in cfg.flags
