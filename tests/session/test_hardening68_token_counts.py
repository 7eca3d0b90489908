"""Claude Code through a logging proxy: besides its calls to ``/v1/messages`` it asks
``/v1/messages/count_tokens?beta=true`` (the SDK's ``beta.messages.countTokens``) at startup (coder/
aibridge PR #34) and, for ``/context``, once per context entry, each agent, memory or rule file a
message of its own (router-for-me/CLIProxyAPI issue #4104). A count runs no model. Read as calls,
every file counted was a prompt of the session, the first prompt among them, and a conversation of
its own."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_SYSTEM = [{"type": "text", "text": "You are Claude Code, Anthropic's official CLI for Claude."}]
_PROMPT = {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"}
_AGENTS_MD = "# AGENTS.md\nRun `make test` before you commit. Never reboot a node that serves traffic."
_CALL = {"role": "assistant", "content": [
    {"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": {"command": "ssh gpu07 nvidia-smi"}}]}
_RESULT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "is_error": True,
                                        "content": "Failed to initialize NVML: Driver/library version mismatch"}]}
_DONE = {"id": "msg_02", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
         "content": [{"type": "text", "text": "The driver and the library disagree: reinstall the driver."}],
         "stop_reason": "end_turn"}


def _record(url: str, body: dict, answer: dict) -> dict:
    """One call as llm-debug logs it (SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``)."""
    return {"request": {"method": "POST", "url": url, "headers": {"anthropic-version": "2023-06-01"},
                        "body": body},
            "response": {"status_code": 200, "headers": {}, "body": answer, "error": None}}


def _count(content: str) -> dict:
    return _record("https://api.anthropic.com/v1/messages/count_tokens?beta=true",
                   {"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": content}], "tools": []},
                   {"input_tokens": 31})


def _messages(messages: list, answer: dict) -> dict:
    return _record("https://api.anthropic.com/v1/messages?beta=true",
                   {"max_tokens": 32000, "messages": messages, "model": "claude-sonnet-4-5", "stream": False,
                    "system": _SYSTEM}, answer)


def _logs(folder: Path) -> None:
    first = {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
             "content": _CALL["content"], "stop_reason": "tool_use"}
    records = [_count("# .claude/rules/gpu.md\nDrain a node before you restart its server."), _count(_AGENTS_MD),
               _messages([_PROMPT], first), _messages([_PROMPT, _CALL, _RESULT], _DONE)]
    folder.mkdir(parents=True)
    for n, record in enumerate(records):
        (folder / f"2025-12-05_10-21-2{n}-000000.json").write_text(json.dumps(record, indent=2))


def test_token_counts_in_a_proxy_log_are_no_prompts(tmp_path: Path) -> None:
    _logs(tmp_path / "logs")
    doc = analyze_path(tmp_path / "logs").to_json()
    assert [s["id"] for s in doc["sessions"]] == ["logs"]
    assert [p["text"] for p in doc["prompts"]] == [_PROMPT["content"]]
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi"]


def test_a_log_of_one_token_count_alone_has_no_prompt(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    path.write_text(json.dumps(_count(_AGENTS_MD)) + "\n" + json.dumps(_messages([_PROMPT], _DONE)) + "\n")
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == [_PROMPT["content"]]
