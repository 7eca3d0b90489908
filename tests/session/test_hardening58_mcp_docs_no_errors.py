"""A Claude Code session that looks its error up through docs and search MCP servers: Context7's
``get-library-docs`` (upstash/context7 README.md), DeepWiki's ``ask_question`` (the DeepWiki MCP
server's tools read_wiki_structure, read_wiki_contents, ask_question), Exa's ``web_search_exa``
(exa-labs/exa-mcp-server), Tavily's ``tavily-search`` (tavily-ai/tavily-mcp) and GitHub's
``get_issue``/``search_issues`` (github/github-mcp-server README.md). Their answers quote others'
"RuntimeError: CUDA error: an illegal memory access was encountered" and were read as the
session's own errors and each call as a failed one (no exit status), as WebFetch's were before
test_hardening57_web_pages_no_errors.py. Now they hold no error of the session; an MCP server's
SSH tool (``mcp__ssh__execute_command{host, command}``) runs a command and its error stays one, and
a docs tool that failed (``is_error``) is still a failed call. Shapes: Claude Code's
tool_use/tool_result lines (TRANSCRIPTS.md section 1a), MCP results as content text blocks."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "c3d4e5f6-0000-4000-8000-00000000e5c2"
QUOTE = ("Issue #4521: launching with --speculative-algorithm EAGLE3 fails.\nTraceback (most recent call last):\n"
         "  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 2012, in run\n"
         "RuntimeError: CUDA error: an illegal memory access was encountered\n")
DOCS_TOOLS = [
    ("mcp__context7__get-library-docs", {"context7CompatibleLibraryID": "/sgl-project/sglang", "topic": "eagle3"}),
    ("mcp__deepwiki__ask_question", {"repoName": "sgl-project/sglang", "question": "why illegal memory access?"}),
    ("mcp__exa__web_search_exa", {"query": "sglang eagle3 illegal memory access"}),
    ("mcp__tavily__tavily-search", {"query": "sglang eagle3 illegal memory access"}),
    ("mcp__github__get_issue", {"owner": "sgl-project", "repo": "sglang", "issue_number": 4521}),
    ("mcp__github__search_issues", {"query": "repo:sgl-project/sglang eagle3 illegal memory access"}),
]


def _write(root: Path, calls: list[tuple[str, dict, str, bool]]) -> Path:
    env = {"sessionId": SESSION, "cwd": "/work", "version": "2.1.30", "isSidechain": False, "userType": "external"}
    lines: list[dict] = []

    def line(**kw) -> None:
        n = len(lines) + 1
        lines.append({**env, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                      "timestamp": f"2026-10-02T08:{n // 60:02d}:{n % 60:02d}.000Z", **kw})

    line(type="user", message={"role": "user", "content": "why does the eagle server crash?"})
    for i, (name, args, text, is_error) in enumerate(calls):
        tid = f"toolu_{i}"
        line(type="assistant", message={"id": f"m{i}", "role": "assistant", "content": [
            {"type": "tool_use", "id": tid, "name": name, "input": args}]})
        line(type="user", message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tid, "content": [{"type": "text", "text": text}],
             "is_error": is_error}]})
    path = root / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return path


def test_docs_and_search_mcp_answers_hold_no_error_of_the_session(tmp_path):
    doc = analyze_path(_write(tmp_path, [(n, a, QUOTE, False) for n, a in DOCS_TOOLS])).to_json()
    assert doc["errors"] == []
    (main,) = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"], main["errors"]) == (len(DOCS_TOOLS), 0, 0)


def test_an_mcp_ssh_tool_keeps_its_error_and_a_failed_docs_call_stays_failed(tmp_path):
    calls = [("mcp__ssh__execute_command", {"host": "gpu02", "command": "python3 serve.py"}, QUOTE, False),
             ("mcp__context7__get-library-docs", {"context7CompatibleLibraryID": "/x/y"},
              "MCP error -32603: Library /x/y not found", True)]
    doc = analyze_path(_write(tmp_path, calls)).to_json()
    assert "cuda_error" in [e["kind"] for e in doc["errors"]]
    (main,) = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"]) == (2, 2)
