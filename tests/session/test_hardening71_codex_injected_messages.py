"""User messages Codex writes itself, read as prompts the person sent:

- ``Warning: apply_patch was requested via exec_command. Use the apply_patch tool instead of
  exec_command.``, recorded each time the model edits with ``apply_patch <<'EOF'`` through the shell
  tool (openai/codex ``codex-rs/core/src/tools/handlers/apply_patch.rs`` ``intercept_apply_patch`` ->
  ``Session::record_model_warning``), and its siblings (too many unified exec processes, a fallback
  model); Codex's own history reader skips them (``codex-rs/core/src/context/contextual_user_message.rs``);
- ``/review``'s findings, handed on as ``<user_action>…</user_action>`` (``codex-rs/core/templates/
  review/exit_success.xml``, ``exit_interrupted.xml``);
- ``<goal_context>`` and ``<extension_context>`` steering (``LegacyGoalContext``, ``ExtensionContext``).

Each was a prompt of the person's. Now they are Codex's context; words the person typed that only
mention them stay a prompt."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

PATCH = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: eagle.py\n@@\n-k = 4\n+k = 2\n*** End Patch\nEOF"
WARNING = "Warning: apply_patch was requested via exec_command. Use the apply_patch tool instead of exec_command."
REVIEW = ("<user_action>\n  <context>User initiated a review task. Here's the full review output from reviewer model. "
          "User may select one or more comments to resolve.</context>\n  <action>review</action>\n  <results>\n"
          "  - [P1] The draft model's head is stale - /srv/eagle.py:12\n  </results>\n  </user_action>\n")
INTERRUPTED = ("<user_action>\n  <context>User initiated a review task, but was interrupted. If user asks about this, "
               "tell them to re-initiate a review with `/review` and wait for it to complete.</context>\n"
               "  <action>review</action>\n  <results>\n  None.\n  </results>\n</user_action>\n")
PROCESSES = ("Warning: The maximum number of unified exec processes you can keep open is 60 and you currently have 61 "
             "processes open. Reuse older processes or close them to prevent automatic pruning of old processes")
GOAL = "<goal_context>\nKeep going until the acceptance length is back above 3.\n</goal_context>"
EXTENSION = "<extension_context>\nPrefer the bench script in tools/.\n</extension_context>"


def _user(text: str) -> dict:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def _rollout(path: Path, items: list[dict]) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/srv",
                          "originator": "codex_cli_rs", "cli_version": "0.63.0"}}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def _prompts(path: Path) -> list[str]:
    return [p["text"] for p in analyze_path(path).to_json()["prompts"]]


def test_codex_warning_after_a_shell_patch_is_no_prompt(tmp_path: Path) -> None:
    items = [_user("lower the draft depth"),
             {"type": "function_call", "name": "exec_command", "call_id": "c1",
              "arguments": json.dumps({"cmd": PATCH})},
             _user(WARNING),
             {"type": "function_call_output", "call_id": "c1",
              "output": "Exit code: 0\nWall time: 0 seconds\nOutput:\n"
                        "Success. Updated the following files:\nM eagle.py\n"},
             _user(PROCESSES)]
    assert _prompts(_rollout(tmp_path / "rollout.jsonl", items)) == ["lower the draft depth"]


def test_review_findings_and_steering_are_no_prompts(tmp_path: Path) -> None:
    items = [_user("why did acceptance drop?"), _user(REVIEW), _user(INTERRUPTED), _user(GOAL), _user(EXTENSION),
             _user("fix finding 1")]
    assert _prompts(_rollout(tmp_path / "rollout.jsonl", items)) == ["why did acceptance drop?", "fix finding 1"]


def test_words_that_mention_the_markers_stay_a_prompt(tmp_path: Path) -> None:
    typed = "what does <user_action> mean in the rollout? and the 'Warning: apply_patch was requested via' line?"
    assert _prompts(_rollout(tmp_path / "rollout.jsonl", [_user(typed)])) == [typed]
