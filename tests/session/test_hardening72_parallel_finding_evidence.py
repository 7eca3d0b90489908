"""Of two calls answered in one message, only the one whose output showed a finding is its evidence.

A Gemini CLI checkpoint whose model turn made two shell calls (`grep -m1 server_args` of the
server log, which prints SGLang's `server_args=ServerArgs(... speculative_num_steps=1 ...)`, and
`nvidia-smi`) gets both answers in one `user` turn of `functionResponse` parts: both commands
carry that message as `result_seq`, and the finding (SD101) names the message. Distill made the
`nvidia-smi` a step too, whose why said "its output was evidence for SD101". A finding now names
the commands whose output showed it (`evidence_commands`), and distill credits only those."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook

ARGS = ("[2025-07-01 10:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', "
        "tokenizer_path='meta-llama/Llama-3.1-8B-Instruct', speculative_algorithm='EAGLE3', "
        "speculative_draft_model_path='jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B', "
        "speculative_num_steps=1, speculative_eagle_topk=1, speculative_num_draft_tokens=2)")
GREP = "ssh gpu01 'grep -m1 server_args /tmp/sglang.log'"
SMI = "ssh gpu01 'nvidia-smi --query-gpu=memory.used --format=csv'"
EVIDENCE = "In the session its output was evidence for SD101"


def _checkpoint(tmp_path: Path, grep_first: bool) -> Path:
    calls = [(GREP, f"Output: {ARGS}\nExit Code: 0"), (SMI, "Output: memory.used [MiB]\n71234 MiB\nExit Code: 0")]
    if not grep_first:
        calls.reverse()
    history = [
        {"role": "user", "parts": [{"text": "EAGLE3 on gpu01 is barely faster than no speculation. Why?"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "run_shell_command", "args": {"command": c}}}
                                    for c, _ in calls]},
        {"role": "user", "parts": [{"functionResponse": {"name": "run_shell_command",
                                                         "response": {"output": f"Command: {c}\n{o}"}}}
                                   for c, o in calls]},
        {"role": "model", "parts": [{"text": "The server drafts one token per round."}]},
    ]
    path = tmp_path / "checkpoint-one-step.json"
    path.write_text(json.dumps(history, indent=2), encoding="utf-8")
    return path


@pytest.mark.parametrize("grep_first", [True, False])
def test_the_finding_names_the_call_whose_output_showed_it(tmp_path: Path, grep_first: bool) -> None:
    analysis = analyze_path(_checkpoint(tmp_path, grep_first))
    assert sorted(c.command for c in analysis.commands if c.result_seq == 2) == sorted([GREP, SMI])
    [finding] = analysis.findings
    assert (finding.code, finding.evidence_seqs, finding.evidence_commands) == ("SD101", [2], [GREP])


@pytest.mark.parametrize("grep_first", [True, False])
def test_only_that_call_becomes_a_step_credited_with_it(tmp_path: Path, grep_first: bool) -> None:
    steps = distill_playbook(analyze_path(_checkpoint(tmp_path, grep_first)))["steps"]
    whys = {step["run"]: step["why"] for step in steps if "run" in step}
    assert whys["grep -m1 server_args {{ sglang_log }}"] == (
        f"{EVIDENCE} (Speculation capped at one drafted token per round).")
    assert not any("nvidia-smi" in run for run in whys), whys  # was a step: "its output was evidence for SD101"


def test_a_call_answered_alone_is_credited_as_before(tmp_path: Path) -> None:
    """The `nvidia-smi` in a turn of its own: the grep's message answers it alone."""
    path = _checkpoint(tmp_path, True)
    history = json.loads(path.read_text(encoding="utf-8"))
    model, user = history[1], history[2]
    history[1:3] = [{"role": "model", "parts": model["parts"][:1]}, {"role": "user", "parts": user["parts"][:1]},
                     {"role": "model", "parts": model["parts"][1:]}, {"role": "user", "parts": user["parts"][1:]}]
    path.write_text(json.dumps(history), encoding="utf-8")
    analysis = analyze_path(path)
    [finding] = analysis.findings
    assert (finding.evidence_seqs, finding.evidence_commands) == ([2], [GREP])
    whys = {step["run"]: step["why"] for step in distill_playbook(analysis)["steps"] if "run" in step}
    assert whys["grep -m1 server_args {{ sglang_log }}"].startswith(EVIDENCE)
    assert not any("nvidia-smi" in run for run in whys)
