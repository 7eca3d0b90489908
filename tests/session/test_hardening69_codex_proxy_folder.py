"""Codex says the folder it works in only in its ``<environment_context>`` user message when its
requests go through a proxy (``<cwd>/home/me/sglang</cwd>``; openai/codex ``codex-rs/core/src/
environment_context.rs``): there is no ``turn_context`` line there. A rollout's commands run in that
folder, a relative ``workdir`` read from it (codex-rs/core ``TurnContext::resolve_path``); read from a
proxy's record of the same requests, on the Responses wire or the chat one, the commands had no folder,
and a ``workdir`` of ``python`` stayed ``python``."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening69_codex_proxy_conversations import _ENV, _ask, _output, _record, _said

_ENV_TEXT = _ENV["content"][0]["text"]  # <cwd>/home/me/sglang</cwd>


def _call(call_id: str, name: str, args: dict) -> dict:
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": json.dumps(args)}


def _chat_call(call_id: str, name: str, args: dict) -> dict:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": call_id, "type": "function",
                            "function": {"name": name, "arguments": json.dumps(args)}}]}


def _folders(path: Path) -> list[tuple[str, str | None]]:
    return [(c["command"], c["cwd"]) for c in analyze_path(path).to_json()["commands"]]


def test_proxied_responses_calls_run_in_the_context_folder(tmp_path: Path) -> None:
    items = [_ENV, _ask("why is the draft slow?"),
             _call("c1", "exec_command", {"cmd": "git status"}),
             _output("c1", "Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nclean\n"),
             _call("c2", "shell_command", {"command": "ls", "workdir": "python"}),
             _output("c2", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nsglang\n"),
             _call("c3", "shell_command", {"command": "df -h", "workdir": "/data"}),
             _output("c3", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n/dev/sda1\n")]
    path = tmp_path / "call.json"
    path.write_text(json.dumps(_record("019a6e1c-a", items, [_said("It is the tree width.")], 0)))
    assert _folders(path) == [("git status", "/home/me/sglang"), ("ls", "/home/me/sglang/python"),
                              ("df -h", "/data")]


def test_chat_wire_calls_run_in_the_context_folder(tmp_path: Path) -> None:
    messages = [{"role": "system", "content": "You are Codex."}, {"role": "user", "content": _ENV_TEXT},
                {"role": "user", "content": "why is the draft slow?"},
                _chat_call("c1", "exec_command", {"cmd": "git status"}),
                {"role": "tool", "tool_call_id": "c1", "content": "Process exited with code 0\nOutput:\nclean\n"},
                _chat_call("c2", "shell", {"command": ["bash", "-lc", "ls"], "workdir": "python"}),
                {"role": "tool", "tool_call_id": "c2", "content": "sglang\n"}]
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"model": "gpt-oss-120b", "messages": messages, "stream": True, "tools": []}))
    assert _folders(path) == [("git status", "/home/me/sglang"), ("ls", "/home/me/sglang/python")]


def test_without_the_context_a_chat_call_names_no_folder(tmp_path: Path) -> None:
    messages = [{"role": "user", "content": "list it"}, _chat_call("c1", "shell", {"command": ["ls"], "workdir": "x"}),
                {"role": "tool", "tool_call_id": "c1", "content": "a\n"}]
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"model": "m", "messages": messages}))
    assert _folders(path) == [("ls", None)]
