"""A session's vLLM launch written with the 0.22.0 shorthand flags.

vLLM 0.22.0 added `--spec-method`, `--spec-model` and `--spec-tokens` (vllm/engine/arg_utils.py,
PyPI sdist 0.22.0 lines 1463-1466; still in 0.33.0, vllm-project/vllm#42476), and 0.19.0 `-sc` with
its dotted keys. The launch reader (spec_debug.diagnose.launch) reads them, but the session
analyzer's launch facts gated on the word "speculative" and matched only the long spellings, so
`vllm serve ... --spec-method eagle3 --spec-model DRAFT --spec-tokens 1` gave no SD101 (one draft
token: the draft runs one step whatever it was trained for) and `--spec-method eagle` over an EAGLE-3
draft no SD103, where the same launch with --speculative-config gives both."""

from __future__ import annotations

import pytest

from spec_debug.session.spec_facts import launch_observations

TARGET = "vllm serve meta-llama/Llama-3.1-8B-Instruct "


def _codes(command: str) -> list[str]:
    return [o.code for o in launch_observations(command, True)]


@pytest.mark.parametrize("flags", [
    "--spec-method eagle3 --spec-model org/llama-eagle3 --spec-tokens 1",
    "--spec-tokens=1 --spec-method=eagle3 --spec-model=org/llama-eagle3",
    "-sc.method eagle3 -sc.model org/llama-eagle3 -sc.num_speculative_tokens 1",
])
def test_one_draft_token_in_the_short_spellings_is_sd101(flags):
    observations = launch_observations(TARGET + flags, True)
    assert [o.code for o in observations] == ["SD101"]
    assert "1" in observations[0].evidence


@pytest.mark.parametrize("flags", [
    "--spec-method eagle --spec-model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --spec-tokens 3",
    "-sc.method eagle -sc.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B -sc.num_speculative_tokens 3",
])
def test_method_eagle_over_an_eagle3_draft_is_sd103(flags):
    assert _codes(TARGET + flags) == ["SD103"]


@pytest.mark.parametrize("flags", [
    "--spec-method eagle3 --spec-model org/llama-eagle3 --spec-tokens 3",
    "--spec-method eagle3 --spec-model org/llama-eagle3 --spec-tokens 12",
])
def test_a_sound_launch_says_nothing(flags):
    assert _codes(TARGET + flags) == []


def test_a_session_command_is_read_so_and_an_output_keeps_its_one_scan():
    from spec_debug.session.extract import _command_facts

    command = TARGET + "--spec-method eagle3 --spec-model org/llama-eagle3 --spec-tokens 1"
    assert [o.code for o in _command_facts(command).launch] == ["SD101"]
    # an output is gated on "speculative" alone (the analyzer's hot path, every tool result)
    assert launch_observations(command) == []


def test_the_long_spelling_is_read_as_before():
    long = TARGET + "--speculative-config '{\"method\": \"eagle3\", \"model\": \"org/d\", \"num_speculative_tokens\": 1}'"
    assert _codes(long) == ["SD101"]
