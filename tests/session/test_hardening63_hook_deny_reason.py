"""A Claude Code call a PreToolUse hook denied, whose result is the hook's reason alone.

CLI 2.1.280 answered a call its PreToolUse hook denied with ``{"is_error": true, "content":
"jev-cops: Irreversible git operation on the default branch."}`` (a real run recorded in a hook
project's verification notes; 2.1.285 writes "PreToolUse:Bash hook error: " before the same
reason), and wrote a ``hook_blocking_error`` attachment naming the call (``toolUseID``) before it.
Before: the denied ``git push --force`` was a failed command, its error a ``tool_error`` (the
postmortem's "what went wrong", a pivot, a playbook step); a call a hook blocked never ran
(``failures.NOT_RUN``), as with the newer CLI's words. Now the attachment marks its result."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

REASON = "jev-cops: Irreversible git operation on the default branch."


def _line(kind: str, uuid: str, ts: str, **fields) -> dict:
    return {"type": kind, "uuid": uuid, "sessionId": "s1", "timestamp": f"2026-08-05T19:20:{ts}Z", **fields}


def _call(uuid: str, ts: str, call: str, command: str) -> dict:
    return _line("assistant", uuid, ts, message={"role": "assistant", "content": [
        {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": command}}]})


def _result(uuid: str, ts: str, call: str, text: str, is_error: bool) -> dict:
    return _line("user", uuid, ts, message={"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": call, "content": text, "is_error": is_error}]})


def _block(uuid: str, ts: str, call: str, event: str, reason: str) -> dict:
    return _line("attachment", uuid, ts, attachment={
        "type": "hook_blocking_error", "hookName": f"{event}:Bash", "toolUseID": call, "hookEvent": event,
        "blockingError": {"blockingError": reason, "command": "jev-cops hook"}})


def _errors(tmp_path: Path, lines: list[dict]) -> list[tuple[str, str, int | None]]:
    path = tmp_path / "s1.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in
                            [_line("user", "u0", "00", message={"role": "user", "content": "push my branch"}), *lines]))
    doc = analyze_path(path).to_json()
    return [(e["kind"], e["message"], e["command_seq"]) for e in doc["errors"]]


def test_a_denied_call_is_blocked_not_failed(tmp_path: Path) -> None:
    assert _errors(tmp_path, [
        _call("a1", "05", "toolu_01", "git push --force origin main"),
        _block("h1", "06", "toolu_01", "PreToolUse", REASON),
        _result("r1", "06", "toolu_01", REASON, True),
        # the next call failed on its own: no attachment names it
        _call("a2", "10", "toolu_02", "git push origin feature"),
        _result("r2", "12", "toolu_02", "jev-cops: remote rejected the push", True),
    ]) == [("hook_blocked", f"PreToolUse:Bash hook error: {REASON}", 1),
           ("tool_error", "jev-cops: remote rejected the push", 4)]


def test_the_newer_words_and_a_later_hook_are_kept(tmp_path: Path) -> None:
    assert _errors(tmp_path, [
        # 2.1.285's words: not said twice
        _call("a1", "05", "toolu_01", "git push --force origin main"),
        _block("h1", "06", "toolu_01", "PreToolUse", REASON),
        _result("r1", "06", "toolu_01", f"PreToolUse:Bash hook error: {REASON}", True),
        # a PostToolUse hook's block comes after the command ran: its failure is the command's
        _call("a2", "10", "toolu_02", "make lint"),
        _block("h2", "11", "toolu_02", "PostToolUse", "[lint.sh]: style violation"),
        _result("r2", "12", "toolu_02", "Exit code 2\nsrc/a.py:3:1: E302 expected 2 blank lines", True),
    ]) == [("hook_blocked", f"PreToolUse:Bash hook error: {REASON}", 1),
           ("exit_code", "src/a.py:3:1: E302 expected 2 blank lines", 4)]
