"""The SD004 'flags not read' note (e617468), reviewed on more scripts (session 12 review).

A wrapper script that passes its own arguments to the server (`exec python3 -m
sglang.launch_server --model-path "$MODEL" "$@"`) has its speculative flags given by its caller:
the note did not fire, as `$@` was not read as an expansion. And a flag that takes several values
(vLLM `--lora-modules a=$A $B`, `--served-model-name`) had its second value read as a word where
flags go.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


WRAPPER = """#!/bin/bash
set -e
MODEL=$1
shift
exec python3 -m sglang.launch_server --model-path "$MODEL" --port 30000 "$@"
"""


@pytest.mark.parametrize("script", [WRAPPER, WRAPPER.replace('"$@"', "${@}"), WRAPPER.replace('"$@"', "$*")])
def test_a_wrapper_passing_its_arguments_says_they_were_not_read(script):
    findings = _findings(script)
    assert [f.code for f in findings] == ["SD004"]
    assert "the script's own arguments" in findings[0].evidence[0]


@pytest.mark.parametrize("command", [
    "vllm serve m --enable-lora --lora-modules sql=$SQL_LORA $CHAT_LORA",
    "vllm serve m --served-model-name m $ALIAS --port 8000",
    "python3 -m sglang.launch_server --model-path m --enable-lora --lora-paths $A $B",
])
def test_the_values_of_a_flag_with_several_values_are_no_flags(command):
    assert _findings(command) == []


def test_a_word_after_another_flag_still_is():
    findings = _findings("vllm serve m --lora-modules a=b --port 8000 $EXTRA_ARGS")
    assert [f.code for f in findings] == ["SD004"] and "$EXTRA_ARGS" in findings[0].evidence[0]
