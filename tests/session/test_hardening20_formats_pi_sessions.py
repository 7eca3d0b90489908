"""A Pi coding agent session (``~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl``) is read as
Pi's: its ``bash`` calls are commands paired with their results, the exit code the bash tool
reports (``Command exited with code N``) is theirs, a ``!`` command the person ran is one too,
and a failed model call is an error. Before, it was read as Claude Code (a ``type`` and a
``message`` on each line): every line of an unknown type, 0 tool calls, an empty postmortem.

Shapes: badlogic/pi-mono ``packages/coding-agent/docs/session.md`` (header, ``message`` entries,
``toolCall``/``toolResult``, ``bashExecution``, ``compaction``, ``session_info``); the assistant
entry as arcreflex/agent-transcripts ``test/fixtures/pi-coding-agent/with-tools.input.jsonl``
(commit 2a32b25b1124b6ac513d4982e02475c45f5f12eb) writes it; the failed bash result verbatim from
a real session quoted in earendil-works/pi issue #3051 (``"(no output)\\n\\nCommand exited with
code 1"``, ``isError: true``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

T = "2026-04-11T10:00:0{}.000Z"
USAGE = {"input": 100, "output": 30, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 130,
         "cost": {"input": 0.001, "output": 0.001, "cacheRead": 0, "cacheWrite": 0, "total": 0.002}}


def _entry(n: int, message: dict, **extra) -> dict:
    return {"type": "message", "id": f"e{n:07d}", "parentId": f"e{n - 1:07d}" if n > 1 else None,
            "timestamp": T.format(n), "message": message, **extra}


def _assistant(n: int, content: list, stop: str = "toolUse", **extra) -> dict:
    return _entry(n, {"role": "assistant", "content": content, "provider": "anthropic", "model": "claude-sonnet-4-5",
                      "api": "messages", "stopReason": stop, "usage": USAGE, "timestamp": 1775901600000 + n, **extra})


def _session(tmp_path: Path) -> Path:
    lines = [
        {"type": "session", "version": 3, "id": "0195e0a1-2b3c-7d4e-8f50-6a7b8c9d0e1f", "timestamp": T.format(0),
         "cwd": "/home/user/serving"},
        _entry(1, {"role": "user", "content": "accept length fell to 1.0 on gpu01, look at the server log",
                   "timestamp": 1775901601000}),
        _assistant(2, [{"type": "text", "text": "Let me check the log."},
                       {"type": "toolCall", "id": "call_001", "name": "bash",
                        "arguments": {"command": "ssh gpu01 'grep -n \"accept len\" /tmp/sglang.log'"}}]),
        _entry(3, {"role": "toolResult", "toolCallId": "call_001", "toolName": "bash",
                   "content": [{"type": "text", "text": "(no output)\n\nCommand exited with code 1"}],
                   "isError": True, "timestamp": 1775901603000}),
        _entry(4, {"role": "bashExecution", "command": "nvidia-smi -L", "output": "GPU 0: NVIDIA H100 80GB HBM3",
                   "exitCode": 0, "cancelled": False, "truncated": False, "timestamp": 1775901604000}),
        {"type": "compaction", "id": "e0000005", "parentId": "e0000004", "timestamp": T.format(5),
         "summary": "Looked for accept len in the log; none found.", "firstKeptEntryId": "e0000003",
         "tokensBefore": 50000},
        {"type": "session_info", "id": "e0000006", "parentId": "e0000005", "timestamp": T.format(6),
         "name": "gpu01 accept length"},
        _assistant(7, [], stop="error", errorMessage="529 overloaded_error: Overloaded"),
    ]
    path = tmp_path / "2026-04-11T10-00-00-000Z_0195e0a1-2b3c-7d4e-8f50-6a7b8c9d0e1f.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_pi_session_has_its_commands_exit_codes_and_errors(tmp_path):
    a = analyze_path(_session(tmp_path))
    assert a.sessions[0]["format"] == "pi"
    assert a.stats["unknown_types"] == 0 and a.stats["compactions"] == 1
    # grep's exit 1 is "no match" (the point of issue #3051), which the analysis does not count
    # as a failed command; the exit code is the command's all the same.
    assert [(c.host, c.exit_code, c.command) for c in a.commands] == [
        ("gpu01", 1, "ssh gpu01 'grep -n \"accept len\" /tmp/sglang.log'"),
        (None, 0, "nvidia-smi -L"),
    ]
    assert all(c.result_seq is not None for c in a.commands)
    assert any(e.kind == "agent_error" and "Overloaded" in e.message for e in a.errors)
    assert a.sessions[0]["title"] == "gpu01 accept length"
    assert [p.text[:22] for p in a.prompts] == ["accept length fell to "]


def test_another_format_forced_on_a_pi_session_is_refused(tmp_path):
    with pytest.raises(UsageError) as err:
        analyze_path(_session(tmp_path), input_format="claude-code")
    assert "Pi coding agent" in str(err.value)


def test_a_damaged_pi_entry_is_read_past_not_a_traceback(tmp_path):
    """A role or tool name that is an object or a list (a damaged or hand-edited line) once
    raised TypeError (unhashable) while the format was sniffed or the result was read."""
    path = _session(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    bad = json.loads(lines[3])
    bad["message"]["toolName"] = {"name": "bash"}
    odd = json.loads(lines[1])
    odd["message"]["role"] = ["user"]
    path.write_text("\n".join([lines[0], json.dumps(odd), lines[2], json.dumps(bad), *lines[4:]]) + "\n",
                    encoding="utf-8")
    a = analyze_path(path)
    assert a.sessions[0]["format"] == "pi" and len(a.commands) == 2


def test_pi_mode_json_output_has_its_calls_and_results():
    """``pi --mode json`` (a real capture, data_hardening20_formats/pi_mode_json_tool_run.jsonl,
    SOURCE.md there): the header, then agent/turn/message events; ``message_end`` holds each
    whole message, ``tool_execution_end`` a call's result. Before, the closing ``agent_end``'s
    ``messages`` list made it OpenAI chat, every event of an unknown type, no call."""
    a = analyze_path(Path(__file__).parent / "data_hardening20_formats" / "pi_mode_json_tool_run.jsonl")
    assert a.sessions[0]["format"] == "pi" and a.stats["unknown_types"] == 0
    assert a.stats["tool_calls"] == 1 and a.agents[0]["failed_calls"] == 0
    assert [p.text for p in a.prompts] == ["Read /tmp/test.txt"]
    assert a.sessions[0]["last_timestamp"] == "2026-04-27T22:42:24.107Z"


def test_a_bash_run_in_pi_mode_json_has_its_exit_code(tmp_path):
    lines = [
        {"type": "session", "version": 3, "id": "s", "timestamp": "2026-04-27T22:42:23.310Z", "cwd": "/w"},
        {"type": "tool_execution_start", "toolCallId": "t1", "toolName": "bash", "args": {"command": "ssh gpu01 nvidia-smi"}},
        {"type": "tool_execution_end", "toolCallId": "t1", "toolName": "bash", "isError": True,
         "result": {"content": [{"type": "text", "text": "Failed to initialize NVML\n\nCommand exited with code 9"}]}},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    [command] = analyze_path(path).commands
    assert (command.host, command.exit_code, command.is_error) == ("gpu01", 9, True)
