"""Searches and page fetches the model ran with a hosted tool are tool calls of the session.

Codex persists the Responses API's ``web_search_call`` item in its rollout, without its id and
without the results (openai/codex ``codex-rs/protocol/src/models.rs`` ``WebSearchCall``, whose
comment gives ``{"type":"web_search_call","status":"completed","action":{"type":"search",
"query":"weather: San Francisco, CA"}}``; ``codex-rs/core/src/rollout/policy.rs`` persists it).
The Anthropic API's server tools come as ``server_tool_use`` and ``web_search_tool_result`` /
``web_fetch_tool_result`` blocks in the assistant's content (anthropics/anthropic-sdk-python
``types/beta/beta_server_tool_use_block.py``, ``beta_web_search_tool_result_block.py``,
``beta_web_fetch_tool_result_block.py``). Both were counted as ``other`` events: the agent's
tool-call count and the timeline missed them. A search is no command run on a host."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import claude_code, codex
from spec_debug.session.formats.common import Cursor

SID = "5b1f0c7e-3c1a-4d7e-9a51-2f0e8d6c4b10"


def _claude_line(uuid: str, role: str, content: list, at: str) -> dict:
    return {"type": role, "uuid": uuid, "parentUuid": None, "sessionId": SID, "timestamp": at, "cwd": "/work",
            "isSidechain": False, "userType": "external", "version": "2.1.20",
            "message": {"id": f"msg_{uuid}", "role": role, "model": "claude-opus-4-5", "content": content}}


def _claude_session(tmp_path: Path) -> Path:
    lines = [
        _claude_line("u1", "user", [{"type": "text", "text": "Why does SGLang reject every EAGLE-3 draft token?"}],
                     "2026-01-10T09:00:00Z"),
        _claude_line("a1", "assistant", [{"type": "server_tool_use", "id": "srvtoolu_01A", "name": "web_search",
                                          "input": {"query": "sglang eagle3 accept length 1.0"}}],
                     "2026-01-10T09:00:05Z"),
        _claude_line("a2", "assistant", [{"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01A", "content": [
            {"type": "web_search_result", "title": "EAGLE-3 accept length stuck at 1",
             "url": "https://github.com/sgl-project/sglang/issues/4451", "encrypted_content": "EqgfCioIARgB",
             "page_age": "March 20, 2025"}]}], "2026-01-10T09:00:07Z"),
        _claude_line("a3", "assistant", [{"type": "server_tool_use", "id": "srvtoolu_01B", "name": "web_fetch",
                                          "input": {"url": "https://docs.sglang.ai/advanced_features/speculative_decoding.html"}}],
                     "2026-01-10T09:00:09Z"),
        _claude_line("a4", "assistant", [{"type": "web_fetch_tool_result", "tool_use_id": "srvtoolu_01B", "content": {
            "type": "web_fetch_tool_result_error", "error_code": "url_not_accessible"}}], "2026-01-10T09:00:11Z"),
        _claude_line("a5", "assistant", [{"type": "tool_use", "id": "toolu_01C", "name": "Bash",
                                          "input": {"command": "nvidia-smi", "description": "GPU state"}}],
                     "2026-01-10T09:00:20Z"),
        _claude_line("u2", "user", [{"type": "tool_result", "tool_use_id": "toolu_01C", "content": "ok",
                                     "is_error": False}], "2026-01-10T09:00:22Z"),
    ]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_claude_server_tools_are_calls_with_their_results(tmp_path: Path) -> None:
    path = _claude_session(tmp_path)
    stats = ReadStats()
    events = list(claude_code.read(path, Cursor(session=SID, agent="main", file=str(path)), stats))
    calls = [e for e in events if e.kind == "tool_call"]
    assert [(c.tool_name, c.text, c.command) for c in calls] == [
        ("web_search", "sglang eagle3 accept length 1.0", None),
        ("web_fetch", "https://docs.sglang.ai/advanced_features/speculative_decoding.html", None),
        ("Bash", "nvidia-smi", "nvidia-smi"),
    ]
    results = {e.call_id: e for e in events if e.kind == "tool_result"}
    assert "https://github.com/sgl-project/sglang/issues/4451" in results["srvtoolu_01A"].text
    assert not results["srvtoolu_01A"].is_error
    assert results["srvtoolu_01B"].is_error and "url_not_accessible" in results["srvtoolu_01B"].text
    assert stats.unknown_types == 0 and not [e for e in events if e.kind == "other"]

    a = analyze_path(path)
    assert a.stats["tool_calls"] == 3
    (main,) = a.agents
    assert (main["tool_calls"], main["failed_calls"]) == (3, 1)
    assert [c.command for c in a.commands] == ["nvidia-smi"]  # the searches ran on no host


def _rollout(tmp_path: Path) -> Path:
    meta = {"id": "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "timestamp": "2026-01-10T09:00:00.000Z", "cwd": "/work",
            "originator": "codex_cli_rs", "cli_version": "0.46.0", "source": "cli", "model_provider": "openai"}
    lines = [
        {"timestamp": "2026-01-10T09:00:00.000Z", "type": "session_meta", "payload": meta},
        {"timestamp": "2026-01-10T09:00:01.000Z", "type": "response_item", "payload": {
            "type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "Is vLLM's EAGLE-3 support usable with Llama 3.1 8B?"}]}},
        {"timestamp": "2026-01-10T09:00:04.000Z", "type": "response_item", "payload": {
            "type": "web_search_call", "status": "completed",
            "action": {"type": "search", "query": "vllm eagle3 llama 3.1 8b speculative_config"}}},
        {"timestamp": "2026-01-10T09:00:06.000Z", "type": "response_item", "payload": {
            "type": "web_search_call", "status": "completed",
            "action": {"type": "open_page", "url": "https://docs.vllm.ai/en/latest/features/spec_decode.html"}}},
        {"timestamp": "2026-01-10T09:00:09.000Z", "type": "response_item", "payload": {
            "type": "function_call", "name": "shell", "call_id": "call_1",
            "arguments": json.dumps({"command": ["bash", "-lc", "pip show vllm"]})}},
        {"timestamp": "2026-01-10T09:00:10.000Z", "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": "call_1",
            "output": json.dumps({"output": "Name: vllm\nVersion: 0.10.1\n", "metadata": {"exit_code": 0}})}},
    ]
    path = tmp_path / "rollout-2026-01-10T09-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_codex_web_search_calls_are_tool_calls(tmp_path: Path) -> None:
    path = _rollout(tmp_path)
    events = list(codex.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats()))
    calls = [e for e in events if e.kind == "tool_call"]
    assert [(c.tool_name, c.text, c.command) for c in calls] == [
        ("web_search", "vllm eagle3 llama 3.1 8b speculative_config", None),
        ("web_search", "https://docs.vllm.ai/en/latest/features/spec_decode.html", None),
        ("shell", "pip show vllm", "pip show vllm"),
    ]
    # each search is answered (its results stay on OpenAI's side), so no result goes to another call
    answered = {e.call_id for e in events if e.kind == "tool_result"}
    assert {c.call_id for c in calls} <= answered and len({c.call_id for c in calls}) == 3

    a = analyze_path(path)
    assert a.stats["tool_calls"] == 3
    assert [(c.command, c.exit_code) for c in a.commands] == [("pip show vllm", 0)]
