"""An ``apply_patch`` Codex's safety check turned away never touched a file: under
``approval_policy = never`` a patch writing outside the writable roots is answered
``patch rejected: writing outside of the project; rejected by user approval settings``, an empty
one ``patch rejected: empty patch`` (openai/codex ``codex-rs/core/src/apply_patch.rs``
``SafetyCheck::Reject`` -> ``format!("patch rejected: {reason}")``; reasons in
``codex-rs/core/src/safety.rs`` ``assess_patch_safety``). No ``patch_apply_end`` follows: the
model's copy is the only one. Both read as edits that worked (no exit code, no known prefix). Now
the policy's refusal is a call that never ran (``denied``, as the auto-reviewer's), and the empty
patch a failed edit, as the handler's other refusals (test_hardening58_codex_patch_rejected.py)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

PATCH = ("*** Begin Patch\n*** Update File: /etc/sglang/serve.sh\n@@\n-  --speculative-num-steps 1\n"
         "+  --speculative-num-steps 3\n*** End Patch\n")
POLICY = "patch rejected: writing outside of the project; rejected by user approval settings"


def _rollout(path: Path, output: str) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/work",
                          "originator": "codex_cli_rs", "cli_version": "0.63.0"}},
             {"timestamp": "2026-01-02T03:04:05.000Z", "type": "turn_context",
              "payload": {"cwd": "/work", "approval_policy": "never", "model": "gpt-5.1-codex"}}]
    items = [{"type": "custom_tool_call", "status": "completed", "call_id": "p1", "name": "apply_patch",
              "input": PATCH},
             {"type": "custom_tool_call_output", "call_id": "p1", "output": output}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_a_patch_the_approval_policy_rejected_is_denied_not_run(tmp_path: Path) -> None:
    a = analyze_path(_rollout(tmp_path / "rollout.jsonl", POLICY))
    (main,) = a.agents
    assert (main["tool_calls"], main["failed_calls"]) == (1, 1)  # was (1, 0): an edit that worked
    assert [(e.kind, e.message) for e in a.errors] == [("denied", POLICY)]


def test_an_empty_patch_is_a_failed_edit_not_a_refusal(tmp_path: Path) -> None:
    a = analyze_path(_rollout(tmp_path / "rollout.jsonl", "patch rejected: empty patch"))
    (main,) = a.agents
    assert (main["tool_calls"], main["failed_calls"]) == (1, 1)
    assert not {e.kind for e in a.errors} & {"denied", "rejected"}


def test_the_persons_no_is_still_rejected(tmp_path: Path) -> None:
    a = analyze_path(_rollout(tmp_path / "rollout.jsonl", "patch rejected by user"))
    assert [e.kind for e in a.errors] == ["rejected"]
