"""A command the person ran with ``!`` in Codex's TUI is handed to the model as a user message Codex
writes, ``<user_shell_command><command>CMD</command><result>Exit code: N ...</result>
</user_shell_command>`` (openai/codex ``codex-rs/core/src/context/``; a rollout reads it as a call and
its result: ``codex._user_message``). Read from a proxy's record of Codex's requests, on the
Responses wire or the chat one, it was a prompt of XML and no command: a failed ``nvidia-smi`` the
person ran was not seen."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening69_codex_proxy_conversations import _ENV, _ask, _record, _said

_RAN = ("<user_shell_command>\n<command>\nnvidia-smi\n</command>\n<result>\nExit code: 9\n"
        "Duration: 0.1000 seconds\nOutput:\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA"
        " driver.\n</result>\n</user_shell_command>")


def test_a_bang_command_in_a_proxied_responses_request(tmp_path: Path) -> None:
    ran = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": _RAN}]}
    path = tmp_path / "call.json"
    path.write_text(json.dumps(_record("019a6e1c-a", [_ENV, ran, _ask("why did it fail?")],
                                       [_said("The driver is not loaded.")], 0)))
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["why did it fail?"]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 9)]


def test_a_bang_command_on_the_chat_wire(tmp_path: Path) -> None:
    messages = [{"role": "system", "content": "You are Codex."}, {"role": "user", "content": _RAN},
                {"role": "user", "content": "why did it fail?"}]
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"model": "gpt-oss-120b", "messages": messages, "stream": True, "tools": []}))
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["why did it fail?"]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 9)]


def test_a_prompt_that_only_names_the_tag_is_a_prompt(tmp_path: Path) -> None:
    messages = [{"role": "user", "content": "<user_shell_command> shows in my log, what is it?"}]
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"model": "gpt-oss-120b", "messages": messages}))
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["<user_shell_command> shows in my log, what is it?"]
