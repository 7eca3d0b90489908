"""Review of the Kimi CLI reader: a failed tool's result opens with the CLI's ``<system>ERROR</system>``
marker and its note (MoonshotAI/kimi-cli ``src/kimi_cli/soul/message.py``; the Shell tool's
``Command failed with exit code: N.`` and ``Command killed by timeout (Ns)``,
``src/kimi_cli/tools/shell/__init__.py``). Read wrapped, every such error was named by
``<system>ERROR</system>`` (or ``<system>ERROR: Command failed ...</system>``): not by the output's
own error line, nor by the timeout the note tells. Other writers' tool messages are read as before."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path


def _call(n: int, command: str) -> dict:
    return {"role": "assistant", "content": [{"type": "text", "text": f"step {n}"}],
            "tool_calls": [{"type": "function", "id": f"Shell:{n}",
                            "function": {"name": "Shell", "arguments": json.dumps({"command": command})}}]}


def _result(n: int, *notes: str, output: str = "") -> dict:
    parts = [{"type": "text", "text": f"<system>{note}</system>"} for note in notes]
    if output:
        parts.append({"type": "text", "text": output})
    return {"role": "tool", "content": parts, "tool_call_id": f"Shell:{n}"}


def _errors(tmp_path, *rows) -> list[tuple[str, str]]:
    path = tmp_path / "sessions" / "3b9f2c1d" / "5f0e8d1c-7a2b-4c3d-9e8f-0a1b2c3d4e5f" / "context.jsonl"
    path.parent.mkdir(parents=True)
    rows = [{"role": "user", "content": [{"type": "text", "text": "is the server up?"}]}, *rows]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return [(e["kind"], e["message"]) for e in analyze_path(path).to_json()["errors"]]


def test_a_failed_commands_error_is_its_own_output_line(tmp_path):
    got = _errors(tmp_path, _call(0, "ls /models/eagle3"),
                  _result(0, "ERROR", "Command failed with exit code: 2.",
                          output="ls: cannot access '/models/eagle3': No such file or directory\n"),
                  _call(1, "grep -c accept server.log"),
                  _result(1, "ERROR: Command failed with exit code: 2.", output="grep: server.log: No such file\n"))
    assert got == [("exit_code", "ls: cannot access '/models/eagle3': No such file or directory"),
                   ("exit_code", "grep: server.log: No such file")]


def test_a_timeout_is_named_by_its_note(tmp_path):
    got = _errors(tmp_path, _call(0, "vllm serve meta-llama/Llama-3.1-8B-Instruct"),
                  _result(0, "ERROR", "Command killed by timeout (60s)", output="INFO Loading weights\n"))
    assert got == [("timeout", "Command killed by timeout (60s)")]


def test_a_failure_with_no_output_keeps_the_exit_note(tmp_path):
    got = _errors(tmp_path, _call(0, "false"), _result(0, "ERROR", "Command failed with exit code: 1."))
    assert got == [("exit_code", "Command failed with exit code: 1.")]
