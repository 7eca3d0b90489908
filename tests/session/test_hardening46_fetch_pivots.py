"""analyze: reading the reference source on the web after a failure is a change of approach, in every format.

A Claude Code WebFetch of speculators' eagle3.py after the drafter comparison crashed was made a
pivot to reading source code (test_hardening46_pivots_webfetch). The same read in other formats
was not: Gemini CLI's ``web_fetch`` (whose one argument is a prompt holding the URLs,
google-gemini/gemini-cli docs/tools/web-fetch.md), an OpenAI chat tool ``fetch`` or ``browser``
called with ``{"url": …}``, Codex's hosted ``web_search`` opening the page (``action``
``open_page{url}``, openai/codex codex-rs/protocol/src/models.rs ``WebSearchAction``) and the
Anthropic API's ``web_fetch`` server tool: each call had no path, kind "other", never a pivot.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

SHAPES = ("Traceback (most recent call last):\n"
          "RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x12288 and 4096x4096)")
COMMAND = "python compare_draft.py --ckpt /models/e3"
SOURCE = "https://github.com/vllm-project/speculators/blob/main/src/speculators/models/eagle3.py"
DOCS = "https://docs.sglang.ai/advanced_features/speculative_decoding.html"
HASH = "3f1a9c0d4e2b7a8c6e5f1d0b9a8c7e6f5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a"


def _jsonl(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _gemini(tmp_path: Path, url: str) -> Path:
    def call(call_id, name, args, output, at):
        return {"id": call_id, "name": name, "args": args, "status": "success", "timestamp": at,
                "result": [{"functionResponse": {"id": call_id, "name": name, "response": {"output": output}}}]}
    shell = call("run_shell_command-1", "run_shell_command", {"command": COMMAND},
                 f"Command: {COMMAND}\nDirectory: (root)\nOutput: {SHAPES}\nError: (none)\nExit Code: 1\n"
                 "Signal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 4242", "2026-10-02T08:00:09.000Z")
    fetch = call("web_fetch-2", "web_fetch", {"prompt": f"How is the fc layer fed in {url}?"},
                 "fc(torch.cat([low, mid, high], dim=-1))", "2026-10-02T08:00:20.000Z")
    chats = tmp_path / ".gemini" / "tmp" / HASH / "chats"
    return _jsonl(chats / "session-2026-10-02T08-00-5d2c1e6a.jsonl", [
        {"sessionId": "5d2c1e6a-9b7f-4c3e-8a21-0f6e4d3b2a10", "projectHash": HASH,
         "startTime": "2026-10-02T08:00:00.000Z", "lastUpdated": "2026-10-02T08:01:00.000Z", "kind": "main"},
        {"id": "m1", "timestamp": "2026-10-02T08:00:00.000Z", "type": "user",
         "content": [{"text": "The drafter's output diverges from speculators."}]},
        {"id": "m2", "timestamp": "2026-10-02T08:00:05.000Z", "type": "gemini", "content": "", "toolCalls": [shell]},
        {"id": "m3", "timestamp": "2026-10-02T08:00:15.000Z", "type": "gemini", "content": "", "toolCalls": [fetch]},
    ])


def _openai_chat(tool: str):
    def build(tmp_path: Path, url: str) -> Path:
        def call(call_id, name, args):
            return {"role": "assistant", "content": None, "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}
        return _jsonl(tmp_path / "chat.jsonl", [
            {"role": "system", "content": "You debug speculative decoding."},
            {"role": "user", "content": "The drafter's output diverges from speculators."},
            call("call_1", "bash", {"command": COMMAND}),
            {"role": "tool", "tool_call_id": "call_1", "content": SHAPES},
            call("call_2", tool, {"url": url}),
            {"role": "tool", "tool_call_id": "call_2", "content": "fc(torch.cat([low, mid, high], dim=-1))"},
        ])
    return build


def _codex(tmp_path: Path, url: str) -> Path:
    meta = {"id": "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "timestamp": "2026-01-10T09:00:00.000Z",
            "cwd": "/work", "originator": "codex_cli_rs", "cli_version": "0.46.0"}
    return _jsonl(tmp_path / "rollout-2026-01-10T09-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl", [
        {"timestamp": "2026-01-10T09:00:00.000Z", "type": "session_meta", "payload": meta},
        {"timestamp": "2026-01-10T09:00:01.000Z", "type": "response_item", "payload": {
            "type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "The drafter's output diverges from speculators."}]}},
        {"timestamp": "2026-01-10T09:00:04.000Z", "type": "response_item", "payload": {
            "type": "function_call", "name": "shell", "call_id": "call_1",
            "arguments": json.dumps({"command": ["bash", "-lc", COMMAND]})}},
        {"timestamp": "2026-01-10T09:00:05.000Z", "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": "call_1",
            "output": json.dumps({"output": SHAPES, "metadata": {"exit_code": 1}})}},
        {"timestamp": "2026-01-10T09:00:09.000Z", "type": "response_item", "payload": {
            "type": "web_search_call", "status": "completed", "action": {"type": "open_page", "url": url}}},
    ])


def _anthropic_server_tool(tmp_path: Path, url: str) -> Path:
    """A chat log of Anthropic Messages API turns: the shell tool client-side, web_fetch run by the API."""
    return _jsonl(tmp_path / "messages.jsonl", [
        {"role": "user", "content": "The drafter's output diverges from speculators."},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": COMMAND}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": SHAPES, "is_error": True}]},
        {"role": "assistant", "content": [
            {"type": "server_tool_use", "id": "srvtoolu_2", "name": "web_fetch", "input": {"url": url}},
            {"type": "web_fetch_tool_result", "tool_use_id": "srvtoolu_2", "content": {
                "type": "web_fetch_result", "url": url,
                "content": {"type": "document", "title": "eagle3.py",
                            "source": {"type": "text", "media_type": "text/plain", "data": "fc(...)"}}}}]},
    ])


FORMATS = {"gemini-cli web_fetch": _gemini, "openai chat fetch": _openai_chat("fetch"),
           "openai chat browser": _openai_chat("browser"), "openai chat web_fetch": _openai_chat("web_fetch"),
           "codex open_page": _codex, "anthropic web_fetch server tool": _anthropic_server_tool}


@pytest.mark.parametrize("build", FORMATS.values(), ids=FORMATS.keys())
def test_fetching_the_reference_source_is_a_pivot_to_reading_source(tmp_path, build):
    a = analyze_path(build(tmp_path, SOURCE))
    [pivot] = a.pivots
    assert (pivot.from_category, pivot.to_category) == ("python", "read_source")
    assert "moved from running python to reading source code: " in pivot.summary
    assert pivot.summary.endswith(f" {SOURCE}")


@pytest.mark.parametrize("build", FORMATS.values(), ids=FORMATS.keys())
def test_fetching_a_docs_page_stays_no_pivot(tmp_path, build):
    assert analyze_path(build(tmp_path, DOCS)).pivots == []


@pytest.mark.parametrize("key", ["absolute_path", "file_path"])
def test_gemini_read_file_of_the_engine_source_is_a_pivot_to_reading_source(tmp_path, key):
    """Gemini CLI's ``read_file`` (``absolute_path`` in 2025 releases, ``file_path`` since) of the
    installed engine's source after the failure, as a Claude Code Read is. Before: kind "other"."""
    source = "/usr/lib/python3/site-packages/sglang/srt/speculative/eagle_worker.py"
    path = _gemini(tmp_path, SOURCE)
    lines = path.read_text(encoding="utf-8").splitlines()
    last = json.loads(lines[-1])
    last["toolCalls"][0].update(name="read_file", args={key: source})
    lines[-1] = json.dumps(last)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [pivot] = analyze_path(path).pivots
    assert (pivot.from_category, pivot.to_category) == ("python", "read_source")
    assert pivot.summary.endswith(f"to reading source code: read_file {source}")


def test_the_mcp_fetch_server_in_claude_code_is_a_fetch_too(tmp_path):
    """The reference MCP fetch server's ``fetch{url}`` (modelcontextprotocol/servers src/fetch),
    which Claude Code names ``mcp__fetch__fetch``. Before: kind "other", never a pivot."""
    w = _Writer("46460000-0000-4000-8000-0000000000d5", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("The drafter's output diverges from speculators on gpu01.")
    w.bash(f"ssh gpu01 '{COMMAND}'", SHAPES, exit_code=1)
    w.tool("mcp__fetch__fetch", {"url": SOURCE}, "fc(torch.cat([low, mid, high], dim=-1))")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    [pivot] = analyze_path(path).pivots
    assert pivot.to_category == "read_source" and pivot.summary.endswith(f"mcp__fetch__fetch {SOURCE}")
