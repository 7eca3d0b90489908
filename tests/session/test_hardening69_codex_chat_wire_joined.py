"""Codex on the Chat Completions wire (``wire_api = "chat"``) sends a user message as one string, its
parts' text pushed one after the other with no separator (openai/codex ``codex-rs/codex-api/src/
requests/chat.rs``, ``ChatRequestBuilder::build``: ``text.push_str(t)`` for each ``InputText``). A
message that holds both parts Codex writes in (its environment context, AGENTS.md, a ``!`` command's
``<user_shell_command>``) and the words typed after them arrived as one string that opens with
Codex's marker, and was read whole as Codex's: the typed prompt was lost, where the same message on
the Responses wire keeps it (test_hardening69_codex_proxy_prompts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.formats import codex

_ENV = ("<environment_context>\n  <cwd>/home/me/sglang</cwd>\n  <shell>bash</shell>\n</environment_context>")
_AGENTS = "# AGENTS.md instructions for /home/me/sglang\n\n<INSTRUCTIONS>\nNever reboot a node.\n</INSTRUCTIONS>"
_RAN = ("<user_shell_command>\n<command>\nnvidia-smi\n</command>\n<result>\nExit code: 9\n"
        "Duration: 0.1000 seconds\nOutput:\nNVIDIA-SMI has failed\n</result>\n</user_shell_command>")


def _read(tmp_path: Path, content: str) -> dict:
    messages = [{"role": "system", "content": "You are Codex."}, {"role": "user", "content": content}]
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"model": "gpt-oss-120b", "messages": messages, "stream": True, "tools": []}))
    return analyze_path(path).to_json()


def test_a_prompt_joined_after_the_context_is_the_prompt(tmp_path: Path) -> None:
    doc = _read(tmp_path, _AGENTS + _ENV + "restart sglang on gpu07")
    assert [p["text"] for p in doc["prompts"]] == ["restart sglang on gpu07"]


def test_a_prompt_joined_after_a_bang_command_is_the_prompt(tmp_path: Path) -> None:
    doc = _read(tmp_path, _RAN + "why did it fail?")
    assert [p["text"] for p in doc["prompts"]] == ["why did it fail?"]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 9)]


def test_the_context_alone_is_still_no_prompt(tmp_path: Path) -> None:
    assert _read(tmp_path, _AGENTS + _ENV)["prompts"] == []


@pytest.mark.parametrize(("text", "parts"), [
    (_AGENTS + _ENV + "go", [_AGENTS, _ENV, "go"]),
    (_ENV + "\n", [_ENV]),
    ("<environment_context>\n  <cwd>/x</cwd>\nnever closed", ["<environment_context>\n  <cwd>/x</cwd>\nnever closed"]),
    ("plain words", ["plain words"]),
])
def test_joined_parts(text: str, parts: list[str]) -> None:
    assert codex.joined_parts(text) == parts
