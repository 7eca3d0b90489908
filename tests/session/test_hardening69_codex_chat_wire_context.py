"""Codex run against a Chat Completions server (``wire_api = "chat"`` in its config, as for a local
vLLM or SGLang server) sends each history item as a chat message whose content is its parts' text
joined (openai/codex ``codex-rs/core/src/chat_completions.rs``, ``stream_chat_completions``). The
user messages Codex writes itself, its AGENTS.md instructions and its environment context, come
as plain user strings; read from a proxy's record of the request they were the person's prompts,
where the same items on the Responses wire were not (test_hardening69_codex_proxy_prompts)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_AGENTS = {"role": "user", "content": "# AGENTS.md instructions for /home/me/sglang\n\n<INSTRUCTIONS>\n"
                                      "Never reboot a node that serves traffic.\n</INSTRUCTIONS>"}
_ENV = {"role": "user", "content": "<environment_context>\n  <cwd>/home/me/sglang</cwd>\n"
                                   "  <approval_policy>on-request</approval_policy>\n  <shell>bash</shell>\n"
                                   "</environment_context>"}
_ASK = {"role": "user", "content": "accept length dropped on gpu07"}
_CALL = {"role": "assistant", "content": None, "tool_calls": [{
    "id": "call_1", "type": "function",
    "function": {"name": "shell", "arguments": json.dumps({"command": ["bash", "-lc", "nvidia-smi"]})}}]}
_OUTPUT = {"role": "tool", "tool_call_id": "call_1",
           "content": json.dumps({"output": "Failed to initialize NVML: Driver/library version mismatch\n",
                                  "metadata": {"exit_code": 18, "duration_seconds": 0.3}})}


def _request(messages: list) -> dict:
    """The body Codex posts to /v1/chat/completions."""
    return {"model": "gpt-oss-120b", "messages": [{"role": "system", "content": "You are Codex."}, *messages],
            "stream": True, "stream_options": {"include_usage": True}, "tools": []}


def test_codex_context_on_the_chat_wire_is_no_prompt(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    path.write_text("\n".join(json.dumps(_request(m)) for m in (
        [_AGENTS, _ENV, _ASK], [_AGENTS, _ENV, _ASK, _CALL, _OUTPUT])) + "\n")
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["accept length dropped on gpu07"]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("nvidia-smi", 18)]


def test_a_prompt_that_quotes_the_context_is_still_a_prompt(tmp_path: Path) -> None:
    quoted = {"role": "user", "content": "why does my <environment_context> say bash?"}
    path = tmp_path / "request.json"
    path.write_text(json.dumps(_request([quoted])))
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["why does my <environment_context> say bash?"]
