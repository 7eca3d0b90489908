"""SGLang's multi-layer EAGLE chain assert (SD102) by release.

Read from the PyPI wheels: `--enable-multi-layer-eagle` arrived in 0.5.7 (0.5.6.post2's
server_args.py has no such option); 0.5.7 .. 0.5.12 run MultiLayerEagleWorker (spec v1) or
MultiLayerEagleWorkerV2, neither asserting anything about the draft tokens; from 0.5.13 the V2
worker always runs and MultiLayerEagleDraftWorker asserts draft tokens == steps + 1. The audit
said 'the server does not start' for every release (was: a false SD102 on 0.5.7 .. 0.5.12, and
on 0.5.6 the real refusal, an unknown option, unsaid).
"""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

TREE = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
        "--speculative-algorithm EAGLE --enable-multi-layer-eagle --speculative-num-steps 3 "
        "--speculative-eagle-topk 2 --speculative-num-draft-tokens 8")


def _chain_problems(version):
    eff = effective_spec(parse_launch_command(TREE), target_architecture="LlamaForCausalLM", engine_version=version)
    return [line for line in eff.problems if "multi-layer" in line]


def test_releases_without_the_assert_start():
    assert _chain_problems("0.5.7") == []
    assert _chain_problems("0.5.12.post1") == []


def test_releases_with_the_assert_refuse():
    for version in ("0.5.13", "0.5.18", None):
        (line,) = _chain_problems(version)
        assert "got 8 and 3" in line and "does not start" in line


def test_a_release_without_the_option_says_so():
    (line,) = _chain_problems("0.5.6.post2")
    assert "no such option (added in 0.5.7)" in line and "unrecognized arguments" in line
