"""Gemini CLI's headless stream (``gemini -p … --output-format stream-json``) is read as Gemini
CLI: its ``tool_use``/``tool_result`` events are calls paired with their results, a failed call
is a failed call, and the reply's ``delta`` chunks are one reply. Before, a real run saved by an
evaluation harness (metaphi-agent/figma-eval-010ac575-…-gemini_cli ``transcript.jsonl``, commit
13a921025bf96daeb186b6f41adb6b9ca6631d24; excerpt in data_hardening20_formats, SOURCE.md there)
was read as OpenAI chat: 138 of its 149 lines of an unknown type, 0 tool calls, 0 errors."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

REAL = Path(__file__).parent / "data_hardening20_formats" / "gemini_stream_json_figma_eval.jsonl"


def test_a_real_stream_json_run_has_its_calls_results_and_failure():
    a = analyze_path(REAL)
    assert a.sessions[0]["format"] == "gemini-cli"
    assert a.stats["unknown_types"] == 0 and a.stats["lines_skipped"] == 0
    assert a.stats["tool_calls"] == 2
    [command] = a.commands
    assert command.command == "python .gemini/skills/figma-to-code/scripts/check_manifest.py ./figma-to-code/manifest.json"
    assert command.result_seq is not None and not command.is_error
    assert command.timestamp == "2026-01-30T06:18:39.821Z"
    [failed] = a.errors  # the skill the call asked for does not exist
    assert 'Skill "figma-to-code" not found' in failed.message
    assert a.agents[0]["failed_calls"] == 1


def test_the_reply_chunks_are_one_reply_and_the_prompt_is_the_users():
    a = analyze_path(REAL)
    assert [p.text[:37] for p in a.prompts] == ["You are an expert frontend software e"]
    assert a.sessions[0]["first_timestamp"] == "2026-01-30T06:18:17.750Z"
    assert a.sessions[0]["last_timestamp"] == "2026-01-30T06:26:18.281Z"
    assert a.sessions[0]["events"] == 8  # 9 lines, the two reply chunks one text


def _stream(tmp_path: Path, *events: dict) -> Path:
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


def test_a_failed_run_and_a_failed_shell_call_are_errors(tmp_path):
    """The shapes of gemini-cli ``packages/core/src/output/types.ts`` (``ResultEvent`` with
    ``status: "error"`` and ``error{type, message}``; ``ToolResultEvent`` with ``error``)."""
    ts = "2026-02-01T10:00:0{}Z"
    path = _stream(
        tmp_path,
        {"type": "init", "timestamp": ts.format(0), "session_id": "s1", "model": "gemini-2.5-pro"},
        {"type": "message", "timestamp": ts.format(1), "role": "user", "content": "why is accept len 1.0 on gpu01?"},
        {"type": "tool_use", "timestamp": ts.format(2), "tool_name": "run_shell_command", "tool_id": "c1",
         "parameters": {"command": "ssh gpu01 nvidia-smi"}},
        {"type": "tool_result", "timestamp": ts.format(3), "tool_id": "c1", "status": "error",
         "output": "ssh: connect to host gpu01 port 22: Connection refused",
         "error": {"type": "shell_execute_error", "message": "ssh: connect to host gpu01 port 22: Connection refused"}},
        {"type": "error", "timestamp": ts.format(4), "severity": "warning", "message": "Loop detected, retrying"},
        {"type": "result", "timestamp": ts.format(5), "status": "error",
         "error": {"type": "FatalTurnLimitedError", "message": "Reached max session turns"}},
    )
    a = analyze_path(path)
    [command] = a.commands
    assert (command.host, command.is_error) == ("gpu01", True)
    kinds = sorted(e.kind for e in a.errors)
    assert "agent_error" in kinds and len(kinds) == 2  # the warning is none
    assert any("max session turns" in e.message for e in a.errors if e.kind == "agent_error")


def test_a_real_run_that_ended_in_an_api_error_has_that_error():
    """metaphi-agent/figma-eval-49bdd49a-…-gemini_cli ``transcript.jsonl`` (commit b037acb2…): the
    run's ``result`` says ``status: "error"`` with the API's 400 in ``error.message``."""
    a = analyze_path(REAL.with_name("gemini_stream_json_api_error.jsonl"))
    assert a.sessions[0]["format"] == "gemini-cli"
    [failure] = [e for e in a.errors if e.kind == "agent_error"]
    assert "Request contains an invalid argument" in failure.message
    assert failure.timestamp == "2026-01-30T06:29:13.195Z"


def test_the_one_document_json_output_is_gemini_clis_answer_and_error(tmp_path):
    """``gemini -p … --output-format json`` (gemini-cli ``docs/cli/headless.md``; ``JsonOutput`` in
    ``packages/core/src/output/types.ts``): ``{session_id, response, stats, error?}``, indented.
    Before, it was a Claude Code session of one record of an unknown type."""
    doc = {"session_id": "6727b31e-11a1-4351-b526-77ba7b90da09",
           "response": "The server on gpu01 dies at startup: the draft model has no hot_token_id.",
           "stats": {"models": {"gemini-2.5-pro": {"api": {"totalRequests": 3, "totalErrors": 1},
                                                    "tokens": {"prompt": 5000, "candidates": 300, "total": 5300}}},
                     "tools": {"totalCalls": 2, "totalSuccess": 1, "totalFail": 1,
                               "byName": {"run_shell_command": {"count": 2, "success": 1, "fail": 1}}},
                     "files": {"totalLinesAdded": 0, "totalLinesRemoved": 0}},
           "error": {"type": "FatalTurnLimitedError", "message": "Reached max session turns for this session"}}
    path = tmp_path / "gemini-output.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    a = analyze_path(path)
    assert a.sessions[0]["format"] == "gemini-cli" and a.stats["unknown_types"] == 0
    assert [e.kind for e in a.errors] == ["agent_error"] and "max session turns" in a.errors[0].message
    compact = tmp_path / "compact.json"
    compact.write_text(json.dumps({k: v for k, v in doc.items() if k != "error"}), encoding="utf-8")
    b = analyze_path(compact)
    assert b.sessions[0]["format"] == "gemini-cli" and b.sessions[0]["events"] == 2 and not b.errors
