"""A speculative option newer than the running SGLang release stops the server at argparse.

Before: the launch audit knew the release of only a few options (EAGLE3, topk choices, multi-layer
EAGLE), so `--speculative-draft-model-revision` on SGLang 0.5.1 or `--speculative-adaptive` on
0.5.10.post1 passed clean (and the adaptive rules even said how the server would move its steps),
while argparse exits with "unrecognized arguments".

PyPI wheels read (python/sglang/srt/server_args.py; `A[...]` fields from 0.5.14, arg_groups/fields/
spec.py in 0.5.23), each option's first release and the release before it read without it."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

BASE = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path org/llama-eagle3 --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 4 ")
# (option as written, first release with it, the release before it read without it)
OPTIONS = [
    ("--speculative-draft-model-revision abc123", "speculative-draft-model-revision", "0.5.2", "0.5.1.post3"),
    ("--speculative-attention-mode decode", "speculative-attention-mode", "0.5.2", "0.5.1.post3"),
    ("--speculative-draft-load-format auto", "speculative-draft-load-format", "0.5.3.post2", "0.5.3.post1"),
    ("--speculative-moe-runner-backend triton", "speculative-moe-runner-backend", "0.5.4.post3", "0.5.4.post2"),
    ("--speculative-moe-a2a-backend none", "speculative-moe-a2a-backend", "0.5.6.post1", "0.5.6"),
    ("--speculative-draft-attention-backend fa3", "speculative-draft-attention-backend", "0.5.7", "0.5.6.post2"),
    ("--speculative-draft-model-quantization fp8", "speculative-draft-model-quantization", "0.5.7", "0.5.6.post2"),
    ("--speculative-adaptive", "speculative-adaptive", "0.5.11", "0.5.10.post1"),
    ("--speculative-use-rejection-sampling", "speculative-use-rejection-sampling", "0.5.14", "0.5.13.post1"),
]


def _unrecognized(flags: str, version: str | None) -> list[str]:
    eff = effective_spec(parse_launch_command(BASE + flags), engine_version=version)
    return [p for p in eff.problems if "unrecognized arguments" in p]


@pytest.mark.parametrize(("flags", "name", "since", "before"), OPTIONS)
def test_an_option_the_release_lacks_stops_the_server(flags, name, since, before):
    assert _unrecognized(flags, before) == [
        f"--{name}: SGLang {before} has no such option (added in {since}): argparse exits with 'unrecognized "
        f"arguments' and the server does not start (upgrade SGLang to {since} or later, or drop the flag)"]


@pytest.mark.parametrize(("flags", "name", "since", "before"), OPTIONS)
def test_the_release_with_it_a_later_one_an_unknown_one_or_a_source_build_say_nothing(flags, name, since, before):
    for version in (since, "0.5.23", None, f"{before}.dev12+g0123abc"):
        assert _unrecognized(flags, version) == []


def test_the_rules_of_an_option_the_release_lacks_are_not_applied():
    # no "adaptive: starts at ..." plan and no rejection-sampling refusal for a server argparse stops
    eff = effective_spec(parse_launch_command(BASE + "--speculative-adaptive"), engine_version="0.5.9")
    assert eff.adaptive is False and not any("adaptive:" in o for o in eff.overrides)
    tree = BASE.replace("--speculative-eagle-topk 1", "--speculative-eagle-topk 4").replace(
        "--speculative-num-draft-tokens 4", "--speculative-num-draft-tokens 8")
    eff = effective_spec(parse_launch_command(tree + "--speculative-use-rejection-sampling"), engine_version="0.5.13")
    assert not any("requires --speculative-eagle-topk=1" in p for p in eff.problems)
    eff = effective_spec(parse_launch_command(tree + "--speculative-use-rejection-sampling"), engine_version="0.5.14")
    assert any("requires --speculative-eagle-topk=1" in p for p in eff.problems)


def test_vllm_commands_are_not_read_against_sglang_options():
    cmd = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
           "'{\"method\": \"eagle3\", \"model\": \"org/d\", \"num_speculative_tokens\": 3}'")
    assert [p for p in effective_spec(parse_launch_command(cmd), engine_version="0.5.1").problems
            if "no such option" in p] == []
