"""A Claude Code session that looks its error up: WebFetch of a GitHub issue and WebSearch whose
results quote "RuntimeError: CUDA error: an illegal memory access was encountered". The page's
words were read as the session's own error and the fetch as a failed call (its result has no
exit status), so the postmortem's first error, and the pivot after it, could be a stranger's
report. Now a web page's or a search's result holds no error of the session; a fetch that failed
(``is_error``: "Request failed with status code 404") still is one. Shapes: Claude Code's
tool_use/tool_result lines (TRANSCRIPTS.md section 1a); WebFetch's ``toolUseResult`` ``{bytes,
code, codeText, result, durationMs, url}`` and WebSearch's ``{query, results, durationSeconds}``
as daaain/claude-code-log's tool models read them."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "c3d4e5f6-0000-4000-8000-00000000e5c1"
PAGE = ("The issue reports that launching with --speculative-algorithm EAGLE3 fails with RuntimeError: CUDA error: "
        "an illegal memory access was encountered. Traceback (most recent call last): ... torch.OutOfMemoryError")
FOUND = ('Web search results for query: "sglang eagle3 illegal memory access"\n\nLinks: [{"title":"[Bug] EAGLE3 '
         'RuntimeError: CUDA error: an illegal memory access was encountered","url":"https://github.com/x/y/issues/1"}]')


def _session(root: Path) -> Path:
    env = {"sessionId": SESSION, "cwd": "/work", "version": "2.1.30", "isSidechain": False, "userType": "external"}
    lines, n = [], 0

    def line(**kw) -> None:
        nonlocal n
        n += 1
        lines.append({**env, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                      "timestamp": f"2026-10-02T08:00:{n:02d}.000Z", **kw})

    def tool(tid: str, name: str, args: dict, content: str, result: object, is_error: bool = False) -> None:
        line(type="assistant", message={"id": f"m{tid}", "role": "assistant", "content": [
            {"type": "tool_use", "id": tid, "name": name, "input": args}]})
        line(type="user", toolUseResult=result, message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tid, "content": content, "is_error": is_error}]})

    line(type="user", message={"role": "user", "content": "why does the eagle server crash?"})
    tool("toolu_1", "WebSearch", {"query": "sglang eagle3 illegal memory access"}, FOUND,
         {"query": "sglang eagle3 illegal memory access", "results": [], "durationSeconds": 1.2})
    tool("toolu_2", "WebFetch", {"url": "https://github.com/x/y/issues/1", "prompt": "What is the fix?"}, PAGE,
         {"bytes": 9000, "code": 200, "codeText": "OK", "result": PAGE, "durationMs": 900,
          "url": "https://github.com/x/y/issues/1"})
    tool("toolu_3", "WebFetch", {"url": "https://github.com/x/y/issues/2", "prompt": "?"},
         "Request failed with status code 404", "Error: Request failed with status code 404", is_error=True)
    path = root / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return path


def test_a_fetched_page_and_search_results_hold_no_error_of_the_session(tmp_path):
    doc = analyze_path(_session(tmp_path)).to_json()
    assert [(e["seq"], e["kind"]) for e in doc["errors"]] == [(6, "tool_error")]
    (main,) = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"], main["errors"]) == (3, 1, 1)


def test_a_fetch_of_the_sessions_own_server_keeps_its_error(tmp_path):
    # the MCP fetch server (modelcontextprotocol/servers src/fetch, mcp__fetch__fetch{url}) asked
    # the local SGLang server: its answer is the server's, not a page others wrote
    env = {"sessionId": SESSION, "cwd": "/work", "version": "2.1.30", "isSidechain": False, "userType": "external"}
    answer = "Internal Server Error\nRuntimeError: CUDA error: an illegal memory access was encountered"
    lines = [
        {**env, "uuid": "u1", "parentUuid": None, "timestamp": "2026-10-02T08:00:01.000Z", "type": "assistant",
         "message": {"id": "m1", "role": "assistant", "content": [
             {"type": "tool_use", "id": "toolu_f", "name": "mcp__fetch__fetch",
              "input": {"url": "http://localhost:30000/generate"}}]}},
        {**env, "uuid": "u2", "parentUuid": "u1", "timestamp": "2026-10-02T08:00:02.000Z", "type": "user",
         "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "toolu_f", "content": [{"type": "text", "text": answer}]}]}},
    ]
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [e["kind"] for e in doc["errors"]] == ["cuda_error"]
