"""An engine variable on a bare line above the server (`SGLANG_ENABLE_SPEC_V2=1`, no `export`).

The audit reads such a line as meant for the server (a pasted snippet, hardening8), but bash
passes a variable to a child only if it is exported (bash(1) ENVIRONMENT: "the environment for
any simple command ... may be augmented by prefixing it with parameter assignments"; a plain
assignment on its own line sets a shell variable). Before: the spec-v2 finding was told as if
the server surely had the variable. Now its evidence says it was set on a line of its own and
not exported, and how to check the running server's environment. `export` (before or after),
`set -a` and a `VAR=1 cmd` prefix read as before. The decision to keep reading the line as meant
stands: only a note is added.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SERVER = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 "
          "--speculative-eagle-topk 2 --speculative-num-draft-tokens 8\n")
NOTE = "(set on a line of its own above the server and not exported"


def _spec_v2_evidence(text: str) -> list[str]:
    facts = launch_step.parse({"source": "var", "cmdline": text, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return [e for f in launch_step.check(ctx) for e in f.evidence if e.startswith("SGLANG_ENABLE_SPEC_V2=1 with topk 2")]


def test_a_bare_line_is_read_as_meant_with_a_note() -> None:
    cfg = parse_launch_command("SGLANG_ENABLE_SPEC_V2=1\n" + SERVER)
    assert (cfg.env, cfg.unexported) == ({"SGLANG_ENABLE_SPEC_V2": "1"}, ("SGLANG_ENABLE_SPEC_V2",))
    (evidence,) = _spec_v2_evidence("SGLANG_ENABLE_SPEC_V2=1\n" + SERVER)
    assert evidence.startswith("SGLANG_ENABLE_SPEC_V2=1 with topk 2 " + NOTE)
    assert "tr '\\0' '\\n' < /proc/PID/environ" in evidence


@pytest.mark.parametrize("before", [
    "export SGLANG_ENABLE_SPEC_V2=1\n",
    "SGLANG_ENABLE_SPEC_V2=1\nexport SGLANG_ENABLE_SPEC_V2\n",
    "set -a\nSGLANG_ENABLE_SPEC_V2=1\n",
    "set -o allexport\nSGLANG_ENABLE_SPEC_V2=1\n",
    "SGLANG_ENABLE_SPEC_V2=1 ",
])
def test_an_exported_or_prefixed_variable_has_no_note(before: str) -> None:
    cfg = parse_launch_command(before + SERVER)
    assert (cfg.env, cfg.unexported) == ({"SGLANG_ENABLE_SPEC_V2": "1"}, ())
    (evidence,) = _spec_v2_evidence(before + SERVER)
    assert NOTE not in evidence
