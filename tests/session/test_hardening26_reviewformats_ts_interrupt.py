"""The TypeScript Codex CLI answers the calls a turn cut by Esc left unanswered with
``{"output": "aborted", "metadata": {"exit_code": 1, "duration_seconds": 0}}`` on the next turn
(openai/codex ``codex-cli/src/utils/agent/agent-loop.ts`` ``pendingAborts``), only so the API has
an output for each call: the ``1`` is no status of the command. Before: a command that failed with
exit code 1 (an ``exit_code`` error, a failed call); now an interrupt, as the Rust CLI's ``aborted
by user`` is read (no exit code, counted in ``stats.interrupts``, no failure)."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

CUT = {"output": "aborted", "metadata": {"exit_code": 1, "duration_seconds": 0}}


def _call(call_id: str, argv: list, output: str) -> list:
    return [{"type": "function_call", "name": "shell", "call_id": call_id, "arguments": json.dumps({"command": argv})},
            {"type": "function_call_output", "call_id": call_id, "output": output}]


def _items() -> list:
    items = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "bench the drafter"}]}]
    items += _call("c1", ["python3", "bench.py"], json.dumps(CUT))
    items += _call("c2", ["python3", "bench2.py"], "aborted by user after 3.2s")  # the Rust CLI's words
    # a command that printed "aborted" and exited 1 on its own: a failure
    items += _call("c3", ["./deploy.sh"], json.dumps({"output": "aborted", "metadata": {"exit_code": 1, "duration_seconds": 2.4}}))
    return items


def _check(doc: dict) -> None:
    got = {c["command"]: (c["exit_code"], c["is_error"]) for c in doc["commands"]}
    assert got["python3 bench.py"] == got["python3 bench2.py"] == (None, False)
    assert got["./deploy.sh"] == (1, True)
    assert doc["stats"]["interrupts"] == 2
    assert [e["kind"] for e in doc["errors"]] == ["exit_code"]


def test_a_typescript_rollout_call_cut_by_esc_is_an_interrupt(tmp_path):
    path = tmp_path / "rollout-2025-05-20-abc.json"
    path.write_text(json.dumps({"session": {"timestamp": "2025-05-20T08:00:00.000Z", "id": "abc", "instructions": ""},
                                "items": _items()}, indent=2))
    _check(analyze_path(path).to_json())


def test_the_same_output_in_an_enveloped_rollout_is_an_interrupt(tmp_path):
    # a session the Rust CLI resumed from a TypeScript one keeps the old outputs as response items
    path = tmp_path / "rollout-2025-09-20T08-00-00-abc.jsonl"
    lines = [{"timestamp": "2025-09-20T08:00:00.000Z", "type": "session_meta", "payload": {"id": "abc", "cwd": "/w"}}]
    lines += [{"timestamp": "2025-09-20T08:00:01.000Z", "type": "response_item", "payload": item} for item in _items()]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    _check(analyze_path(path).to_json())


def test_a_rust_rollout_call_answered_bare_aborted_is_an_interrupt(tmp_path):
    # Codex CLIs of autumn 2025 answered a call cut by Esc with the bare word (before "aborted by
    # user after Ns"); a `!` command of the person's so cut is recorded `incomplete` with it
    path = tmp_path / "rollout-2025-10-20T08-00-00-abc.jsonl"
    items = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "bench"}]},
             *_call("c1", ["python3", "bench.py"], "aborted"),
             {"type": "local_shell_call", "id": None, "call_id": "u1", "status": "incomplete",
              "action": {"type": "exec", "command": ["bash", "-lc", "tail -f /var/log/vllm.log"]}},
             {"type": "function_call_output", "call_id": "u1", "output": "aborted"}]
    lines = [{"timestamp": "2025-10-20T08:00:00.000Z", "type": "session_meta", "payload": {"id": "abc", "cwd": "/w"}}]
    lines += [{"timestamp": "2025-10-20T08:00:01.000Z", "type": "response_item", "payload": item} for item in items]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    doc = analyze_path(path).to_json()
    got = {c["command"]: (c["exit_code"], c["is_error"]) for c in doc["commands"]}
    assert got == {"python3 bench.py": (None, False), "tail -f /var/log/vllm.log": (None, False)}
    assert doc["stats"]["interrupts"] == 2
    assert doc["errors"] == []
