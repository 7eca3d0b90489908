"""Format variants met in real transcripts, one per detail of TRANSCRIPTS.md section 1: Claude
Code 2.0.x and 2.1.x (sub-agents at every depth, toolUseResult shapes, tool_result blocks,
isMeta, compaction, bookkeeping lines), Codex rollouts (shell_command, local_shell_call,
apply_patch, reasoning, exec_command_end, rollouts from before the envelope), OpenAI chat
(legacy function_call, content parts) and shell logs (RHEL prompts, colours, byte-order marks).

Each line below follows the shape the cited source documents; names and outputs are ours.
"""

from __future__ import annotations

import base64
import codecs
import json
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.sources import detect_format

SESSION = "7f3c9a2e-1111-4222-8333-444455556666"


def _write(path: Path, lines: list, prefix: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    path.write_bytes(prefix + text.encode())
    return path


# -- Claude Code ------------------------------------------------------------------------------

def _cc(kind: str, n: int, message=None, agent: str | None = None, version: str = "2.1.3", **extra) -> dict:
    """One Claude Code line, envelope keys in the order the CLI writes them (claude-code-log
    ``models.py`` BaseTranscriptEntry)."""
    line = {"parentUuid": None if n == 0 else f"{agent or 'm'}-{n - 1}", "isSidechain": agent is not None,
            "userType": "external", "cwd": "/work", "sessionId": SESSION, "version": version, "gitBranch": "main",
            "type": kind, "uuid": f"{agent or 'm'}-{n}", "timestamp": f"2026-03-02T08:{n // 60:02d}:{n % 60:02d}.000Z"}
    if agent is not None:
        line["agentId"] = agent
    if message is not None:
        line["message"] = message
    line.update(extra)
    return line


def _user(n, content, agent=None, **extra):
    return _cc("user", n, {"role": "user", "content": content}, agent, **extra)


def _call(n, tool_id, name, tool_input, agent=None, **extra):
    return _cc("assistant", n, {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": "claude-opus-4-5",
                                "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}]},
               agent, requestId=f"req_{n}", **extra)


def _result(n, tool_id, content, agent=None, is_error=False, **extra):
    return _user(n, [{"type": "tool_result", "tool_use_id": tool_id, "content": content, "is_error": is_error}],
                 agent, **extra)


def test_sub_agents_three_deep_linked_only_by_their_meta_sidecars(tmp_path):
    """CLI 2.1.x: every sub-agent sits flat in subagents/; a nested spawn's result carries no
    toolUseResult.agentId, so meta.json toolUseId is the only link (claude-code-log PR #218)."""
    project = tmp_path / "-work-kimi"
    _write(project / f"{SESSION}.jsonl", [
        _user(0, "why is EAGLE-3 slower than the baseline on gpu01?"),
        _call(1, "toolu_trunk", "Agent", {"description": "audit launch flags", "prompt": "audit the flags",
                                          "subagent_type": "general-purpose"}),
        _result(2, "toolu_trunk", [{"type": "text", "text": "flags audited"}],
                toolUseResult={"status": "completed", "agentId": "a11aa11", "totalDurationMs": 4200}),
    ])
    sub = project / SESSION / "subagents"
    chain = [("a11aa11", "toolu_trunk", "toolu_d2", "b22bb22"), ("b22bb22", "toolu_d2", "toolu_d3", "c33cc33")]
    for agent, spawned_by, spawns, _child in chain:
        _write(sub / f"agent-{agent}.jsonl", [
            _user(0, "go", agent),
            _call(1, spawns, "Agent", {"description": f"deeper than {agent}", "prompt": "look closer"}, agent),
            _result(2, spawns, "done", agent),  # no toolUseResult, no trailer: only the sidecar links
        ])
        (sub / f"agent-{agent}.meta.json").write_text(json.dumps(
            {"agentType": "general-purpose", "description": "d", "toolUseId": spawned_by}))
    _write(sub / "agent-c33cc33.jsonl", [
        _user(0, "look closer", "c33cc33"),
        _call(1, "toolu_ssh", "Bash", {"command": "ssh -p 2222 root@gpu01 nvidia-smi", "description": "GPUs"},
              "c33cc33"),
        _result(2, "toolu_ssh", "Exit code 255\nssh: connect to host gpu01 port 2222: Connection refused",
                "c33cc33", is_error=True, toolUseResult="Error: Exit code 255\nssh: connect to host gpu01 port 2222"),
    ])
    (sub / "agent-c33cc33.meta.json").write_text(json.dumps(
        {"agentType": "Explore", "description": "d3", "toolUseId": "toolu_d3", "spawnDepth": 3}))
    # not sessions and not sub-agents of this one: a compaction agent, a workflow journal, big outputs
    _write(sub / "agent-acompact-5d1e.jsonl", [_user(0, "summarise", "acompact-5d1e")])
    _write(sub / "workflows" / "run1" / "journal.jsonl", [{"event": "start"}])
    _write(project / SESSION / "tool-results" / "toolu_x.json", [{"stdout": "x"}])

    for path in (project, project / SESSION, project / f"{SESSION}.jsonl"):
        a = analyze_path(path)
        tree = {ag["id"]: (ag["parent"], ag["spawned_by"], ag["status"]) for ag in a.agents}
        assert tree == {"main": (None, None, "completed"), "a11aa11": ("main", "toolu_trunk", "completed"),
                        "b22bb22": ("a11aa11", "toolu_d2", "completed"),
                        "c33cc33": ("b22bb22", "toolu_d3", "failed")}, path
        assert [(c.agent, c.host, c.port, c.exit_code) for c in a.commands] == [("c33cc33", "gpu01", 2222, 255)]
        assert [s["id"] for s in a.sessions] == [SESSION]


def test_cli_2_0_task_agents_in_the_session_folder(tmp_path):
    """The middle layout of the three a viewer tries: ``{sessionId}/agent-{id}.jsonl``."""
    _write(tmp_path / f"{SESSION}.jsonl", [
        _call(0, "toolu_task", "Task", {"description": "check draft vocab", "prompt": "p",
                                        "subagent_type": "general-purpose"}, version="2.0.46"),
        _result(1, "toolu_task", "vocab ok", version="2.0.46", agentId="e5e5e5e5"),
    ])
    _write(tmp_path / SESSION / "agent-e5e5e5e5.jsonl", [_user(0, "p", "e5e5e5e5", version="2.0.46")])
    a = analyze_path(tmp_path / SESSION)
    assert {ag["id"]: ag["parent"] for ag in a.agents} == {"main": None, "e5e5e5e5": "main"}


def test_cli_2_0_sidechain_lines_after_the_task_result(tmp_path):
    """The shape of claude-code-log ``test/test_data/sidechain_integrated.jsonl`` (CLI 2.0.46):
    the Task result line names the agent (top-level ``agentId``), then the sub-agent's lines
    follow inline, only some of them carrying ``agentId``. One agent, read, not missing."""
    v = "2.0.46"
    path = _write(tmp_path / f"{SESSION}.jsonl", [
        _call(0, "toolu_task", "Task", {"subagent_type": "general-purpose", "description": "find the flag",
                                        "prompt": "Find where --speculative-num-steps is set"}, version=v),
        _result(1, "toolu_task", [{"type": "text", "text": "It is set in serve.sh"}], version=v, agentId="e1c84ba5",
                toolUseResult={"oldString": None, "newString": None}),
        {**_cc("assistant", 2, {"role": "assistant", "content": [{"type": "text", "text": "Searching."}]}, version=v),
         "isSidechain": True},
        {**_call(3, "toolu_grep", "Bash", {"command": "ssh gpu01 'grep -rn speculative /srv/serve.sh'"}, version=v),
         "isSidechain": True},
        _result(4, "toolu_grep", "12: --speculative-num-steps 1", "e1c84ba5", version=v),
        _cc("assistant", 5, {"role": "assistant", "content": [{"type": "text", "text": "Found it."}]}, version=v),
    ])
    a = analyze_path(path)
    agents = {ag["id"]: (ag["parent"], ag["spawned_by"], ag["status"], ag["events"]) for ag in a.agents}
    assert agents == {"main": (None, None, "completed", 3), "e1c84ba5": ("main", "toolu_task", "completed", 3)}
    assert a.stats["missing_files"] == 0
    assert [(c.agent, c.host, c.exit_code) for c in a.commands] == [("e1c84ba5", "gpu01", 0)]


def test_cli_2_0_agent_file_beside_the_session_opening_with_a_screenshot(tmp_path):
    screenshot = base64.b64encode(bytes(range(256)) * 6000).decode()  # ~2 MB on the first line
    _write(tmp_path / f"{SESSION}.jsonl", [
        _call(0, "toolu_task", "Task", {"description": "read the panel", "prompt": "p"}, version="2.0.46"),
        _result(1, "toolu_task", "done", version="2.0.46", agentId="f6f6f6f6"),
    ])
    _write(tmp_path / "agent-f6f6f6f6.jsonl", [
        _user(0, [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": screenshot}}],
              "f6f6f6f6", version="2.0.46"),
        _call(1, "b", "Bash", {"command": "ssh gpu07 uptime"}, "f6f6f6f6", version="2.0.46"),
    ])
    a = analyze_path(tmp_path / f"{SESSION}.jsonl")
    assert [(c.agent, c.host) for c in a.commands] == [("f6f6f6f6", "gpu07")]


def test_tool_use_result_shapes_and_tool_result_blocks(tmp_path):
    """toolUseResult is a string, a dict or a list (claude-code-log models.py); tool_result
    content is a string or a list of blocks, images included."""
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(64)).decode()
    path = _write(tmp_path / "s.jsonl", [
        _user(0, "throughput fell to 41.5 tok/s on gpu01"),
        _call(1, "t1", "Bash", {"command": "ssh gpu01 'nvidia-smi --query-gpu=name --format=csv'"}),
        _result(2, "t1", [{"type": "text", "text": "name\nNVIDIA H200"}],
                toolUseResult={"stdout": "name\nNVIDIA H200", "stderr": "", "interrupted": False, "isImage": False}),
        _call(3, "t2", "Bash", {"command": "ssh gpu01 'python /tmp/t.py'"}),
        _result(4, "t2", "Exit code 1\nTraceback (most recent call last):\n  File \"/tmp/t.py\", line 9, in <module>\n"
                         "KeyError: 'd2t'", is_error=True,
                toolUseResult="Error: Exit code 1\nTraceback (most recent call last):"),
        _call(5, "t3", "mcp__grafana__render", {"panel": 7}),
        _result(6, "t3", [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}},
                          {"type": "text", "text": "panel 7 rendered"}], toolUseResult=[{"type": "image"}]),
        _call(7, "t4", "Read", {"file_path": "/work/serve.sh"}),
        _result(8, "t4", None),  # a result without content
    ])
    a = analyze_path(path)
    assert [(c.seq, c.exit_code, c.is_error) for c in a.commands] == [(1, 0, False), (3, 1, True)]
    assert [(e.seq, e.kind, e.exception, e.line) for e in a.errors] == [(4, "traceback", "KeyError", 9)]
    assert a.stats["tool_calls"] == 4 and a.stats["lines_skipped"] == 0


def test_cli_written_user_lines_are_not_prompts(tmp_path):
    """isMeta lines, the compaction summary and compact_boundary are the CLI's, not the
    engineer's (claude-code-log renders them apart)."""
    path = _write(tmp_path / "s.jsonl", [
        _user(0, "the drafter accepts 1.3 tokens on gpu01"),
        _user(1, [{"type": "text", "text": "Base directory for this skill: /home/me/.claude/skills/eagle"}], isMeta=True),
        _cc("system", 2, None, subtype="compact_boundary", content="Conversation compacted", level="info",
            compactMetadata={"trigger": "auto", "preTokens": 167321}),
        _user(3, "This session is being continued from a previous conversation that ran out of context.",
              isCompactSummary=True, isVisibleInTranscriptOnly=True),
        _user(4, [{"type": "text", "text": "[Request interrupted by user for tool use]"}]),
        _user(5, "now compare against the baseline"),
    ])
    a = analyze_path(path)
    assert [p.seq for p in a.prompts] == [0, 5]
    assert a.stats["compactions"] == 1


def test_bookkeeping_lines_and_api_blocks_are_kept_not_unknown(tmp_path):
    """Line types claude-code-log and txcript list are known; a new one is counted."""
    bookkeeping = [
        {"type": "file-history-snapshot", "messageId": "m0", "isSnapshotUpdate": False,
         "snapshot": {"messageId": "m0", "trackedFileBackups": {}, "timestamp": "2026-03-02T08:00:00Z"}},
        {"type": "queue-operation", "operation": "enqueue", "timestamp": "2026-03-02T08:00:00Z",
         "sessionId": SESSION, "content": "also check the draft vocab"},
        _cc("progress", 1, None, data={"type": "hook_progress", "hookEvent": "PreToolUse"}),
        _cc("assistant", 2, {"role": "assistant", "content": [{"type": "redacted_thinking", "data": "EuYBCkQ"}]}),
        {"type": "summary", "summary": "EAGLE-3 regression on gpu01", "leafUuid": "m-2"},
        {"type": "agent-colour", "sessionId": SESSION, "colour": "teal"},  # a type from a future CLI
    ]
    a = analyze_path(_write(tmp_path / "s.jsonl", bookkeeping))
    assert a.format == "claude-code"
    assert (a.stats["unknown_types"], a.stats["events"], a.stats["lines_skipped"]) == (1, 6, 0)


def test_a_session_that_opens_with_many_bookkeeping_lines_is_found_in_a_folder(tmp_path):
    snapshots = [{"type": "file-history-snapshot", "messageId": f"m{i}", "isSnapshotUpdate": True,
                  "snapshot": {"messageId": f"m{i}", "trackedFileBackups": {}}} for i in range(60)]
    progress = [_cc("progress", i, None, data={"type": "bash_progress"}) for i in range(60)]
    _write(tmp_path / "a.jsonl", snapshots + [_call(60, "t", "Bash", {"command": "ssh gpu01 uptime"})])
    _write(tmp_path / "b.jsonl", progress + [_call(60, "t", "Bash", {"command": "ssh gpu02 uptime"})])
    a = analyze_path(tmp_path)
    assert a.format == "claude-code"
    assert sorted(c.host for c in a.commands) == ["gpu01", "gpu02"]


def test_a_screenshot_in_the_first_prompt_does_not_hide_the_format(tmp_path):
    """A pasted image travels base64 inside the first line, past the 256 KiB sniff window."""
    screenshot = base64.b64encode(bytes(range(256)) * 1500).decode()  # ~512 KB of base64
    first = _user(0, [{"type": "text", "text": "see the Grafana panel: 38 tok/s on gpu01"},
                      {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": screenshot}}])
    path = _write(tmp_path / "proj" / f"{SESSION}.jsonl",
                  [first, _call(1, "t", "Bash", {"command": "ssh gpu01 'ps aux | grep sglang'"})])
    assert detect_format(path) == ("claude-code", False)
    for target in (path, path.parent):
        a = analyze_path(target)
        assert a.format == "claude-code" and [c.host for c in a.commands] == ["gpu01"]
        assert [p.text for p in a.prompts] == ["see the Grafana panel: 38 tok/s on gpu01"]


def test_slash_commands_are_not_shell_commands(tmp_path):
    path = _write(tmp_path / "s.jsonl", [
        _call(0, "t1", "SlashCommand", {"command": "/review"}, version="2.0.28"),
        _result(1, "t1", "Launching command /review", version="2.0.28"),
        _call(2, "t2", "Bash", {"command": "ssh gpu01 nvidia-smi"}, version="2.0.28"),
    ])
    assert [c.command for c in analyze_path(path).commands] == ["ssh gpu01 nvidia-smi"]


# -- Codex ------------------------------------------------------------------------------------

def _rollout(*items: tuple[str, dict]) -> list[dict]:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/work",
                          "originator": "codex_cli_rs", "cli_version": "0.63.0"}}]
    for n, (kind, payload) in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": kind, "payload": payload})
    return lines


def test_codex_shell_tools_of_every_generation(tmp_path):
    """``shell`` (argv), ``shell_command`` and ``exec_command`` (a string), and ``local_shell_call``
    (openai/codex codex-rs/core/src/tools/spec.rs, codex-rs/protocol/src/models.rs)."""
    path = _write(tmp_path / "rollout.jsonl", _rollout(
        ("response_item", {"type": "function_call", "name": "shell_command", "call_id": "c1",
                           "arguments": json.dumps({"command": "ssh gpu01 nvidia-smi -L", "workdir": "/work"})}),
        ("response_item", {"type": "function_call_output", "call_id": "c1",
                           "output": "Exit code: 0\nWall time: 0.4 seconds\nOutput:\nGPU 0: NVIDIA H200\n"}),
        ("response_item", {"type": "local_shell_call", "call_id": "c2", "status": "completed",
                           "action": {"type": "exec", "command": ["bash", "-lc", "ssh gpu02 'tail -n 5 /tmp/s.log'"],
                                      "timeout_ms": 10000, "working_directory": "/work"}}),
        ("response_item", {"type": "function_call_output", "call_id": "c2",
                           "output": json.dumps({"output": "tail: cannot open '/tmp/s.log'\n",
                                                 "metadata": {"exit_code": 1, "duration_seconds": 0.2}})}),
        ("response_item", {"type": "function_call", "name": "exec_command", "call_id": "c3",
                           "arguments": json.dumps({"cmd": "ssh gpu03 uptime", "yield_time_ms": 1000})}),
        ("response_item", {"type": "function_call_output", "call_id": "c3",
                           "output": "Chunk ID: 4f1a\nWall time: 1.0 seconds\nProcess exited with code 0\nOutput:\nup\n"}),
    ))
    a = analyze_path(path)
    assert [(c.host, c.exit_code, c.is_error) for c in a.commands] == [
        ("gpu01", 0, False), ("gpu02", 1, True), ("gpu03", 0, False)]


def test_codex_exec_command_end_and_its_duplicate_output_are_one_result(tmp_path):
    traceback = "Traceback (most recent call last):\n  File \"t.py\", line 4, in <module>\nKeyError: 'd2t'\n"
    path = _write(tmp_path / "rollout.jsonl", _rollout(
        ("response_item", {"type": "function_call", "name": "shell", "call_id": "c1",
                           "arguments": json.dumps({"command": ["bash", "-lc", "python t.py"]})}),
        ("event_msg", {"type": "exec_command_end", "call_id": "c1", "exit_code": 1, "stdout": "",
                       "stderr": traceback, "aggregated_output": traceback, "duration": {"secs": 0, "nanos": 1}}),
        ("response_item", {"type": "function_call_output", "call_id": "c1",
                           "output": json.dumps({"output": traceback, "metadata": {"exit_code": 1}})}),
    ))
    a = analyze_path(path)
    assert [(c.command, c.exit_code) for c in a.commands] == [("python t.py", 1)]
    assert [(e.seq, e.exception) for e in a.errors] == [(2, "KeyError")] and a.stats["errors"] == 1


def test_codex_apply_patch_and_reasoning(tmp_path):
    path = _write(tmp_path / "rollout.jsonl", _rollout(
        ("response_item", {"type": "reasoning", "summary": [], "encrypted_content": None,
                           "content": [{"type": "reasoning_text", "text": "I suspect the draft vocab map is wrong."}]}),
        ("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": "p1", "name": "apply_patch",
                           "input": "*** Begin Patch\n*** Update File: scripts/serve.sh\n@@\n-  --speculative-num-steps 1\n"
                                    "+  --speculative-num-steps 3\n*** End Patch\n"}),
        ("response_item", {"type": "custom_tool_call_output", "call_id": "p1",
                           "output": json.dumps({"output": "Success. Updated the following files:\nM scripts/serve.sh\n",
                                                 "metadata": {"exit_code": 0, "duration_seconds": 0.0}})}),
    ))
    from spec_debug.session.agents import AgentTree
    from spec_debug.session.events import ReadStats
    from spec_debug.session.sources import discover, iter_events

    (source,) = discover(path)
    events = list(iter_events(source, ReadStats(), AgentTree()))
    assert [(e.kind, e.text) for e in events if e.kind == "thinking"] == [
        ("thinking", "I suspect the draft vocab map is wrong.")]
    assert [(e.tool_name, e.path) for e in events if e.kind == "tool_call"] == [("apply_patch", "scripts/serve.sh")]
    assert [(e.exit_code, e.is_error) for e in events if e.kind == "tool_result"] == [(0, False)]


def test_codex_injected_context_is_not_the_prompt(tmp_path):
    """Codex writes AGENTS.md and its environment as user message parts, sometimes in the same
    message as the question."""
    environment = {"type": "input_text", "text": "<environment_context>\n  <cwd>/work</cwd>\n</environment_context>"}
    path = _write(tmp_path / "rollout.jsonl", _rollout(
        ("response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "# AGENTS.md instructions for /work\n\n<INSTRUCTIONS>\nuse uv\n</INSTRUCTIONS>"},
            environment]}),
        ("response_item", {"type": "message", "role": "user", "content": [
            environment, {"type": "input_text", "text": "why does gpu01 accept only 1.2 tokens?"}]}),
        ("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "try again"}]}),
    ))
    assert [(p.seq, p.text) for p in analyze_path(path).prompts] == [
        (2, "why does gpu01 accept only 1.2 tokens?"), (3, "try again")]


def test_codex_rollouts_from_before_the_envelope(tmp_path):
    """Rollouts up to about September 2025: a header line, ``record_type: state`` markers and
    bare response items."""
    path = _write(tmp_path / "rollout-2025-08-18T01-16-13-c3c4b301.jsonl", [
        {"id": "c3c4b301-27c8-4c70-b6e4-46b99fdf0236", "timestamp": "2025-08-18T01:16:13.522Z", "instructions": None,
         "git": {"commit_hash": "abc123", "branch": "main"}},
        {"record_type": "state"},
        {"type": "message", "id": None, "role": "user",
         "content": [{"type": "input_text", "text": "<environment_context>\n  <cwd>/work</cwd>\n</environment_context>"}]},
        {"type": "message", "id": None, "role": "user",
         "content": [{"type": "input_text", "text": "accept length is 1.2 on gpu01, find out why"}]},
        {"type": "function_call", "id": "fc_1", "name": "shell", "call_id": "call_1",
         "arguments": json.dumps({"command": ["bash", "-lc", "ssh gpu01 'grep -c accept /var/log/sglang.log'"]})},
        {"type": "function_call_output", "call_id": "call_1",
         "output": json.dumps({"output": "ssh: Could not resolve hostname gpu01: Name or service not known\n",
                               "metadata": {"exit_code": 255, "duration_seconds": 0.1}})},
        {"record_type": "state"},
        {"type": "message", "id": "msg_1", "role": "assistant",
         "content": [{"type": "output_text", "text": "gpu01 does not resolve from here."}]},
    ])
    assert detect_format(path) == ("codex", False)
    a = analyze_path(path)
    assert a.format == "codex"
    assert [(c.seq, c.host, c.exit_code) for c in a.commands] == [(4, "gpu01", 255)]
    assert [p.text for p in a.prompts] == ["accept length is 1.2 on gpu01, find out why"]
    assert a.stats["unknown_types"] == 0
    # the header may hold no more than id and timestamp (claude-code-log test/test_data/codex)
    bare = _write(tmp_path / "rollout-44444444.jsonl", [
        {"id": "44444444-4444-4444-8444-444444444444", "timestamp": "2026-01-04T05:06:07.000Z"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "why is gpu02 slow?"}]}])
    assert detect_format(bare) == ("codex", False)


# -- OpenAI chat ------------------------------------------------------------------------------

def test_openai_legacy_function_call_and_content_parts(tmp_path):
    """Before tool_calls the API had ``function_call`` and ``role: function``; content may be a
    list of parts, images among them."""
    chat = [
        {"role": "system", "content": [{"type": "text", "text": "You are an SRE agent."}]},
        {"role": "user", "content": [{"type": "text", "text": "gpu01 serves 40 tok/s with EAGLE-3"},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0"}}]},
        {"role": "assistant", "content": None,
         "function_call": {"name": "bash", "arguments": json.dumps({"command": "ssh gpu01 nvidia-smi"})}},
        {"role": "function", "name": "bash", "content": "Exit code 255\nssh: connect to host gpu01 port 22: Connection refused"},
        {"role": "assistant", "content": [{"type": "text", "text": "Through the bastion, then."}],
         "tool_calls": [{"id": "call_9", "type": "function",
                         "function": {"name": "run_command", "arguments": {"command": "ssh -J bastion gpu01 nvidia-smi"}}}]},
        {"role": "tool", "tool_call_id": "call_9", "content": [{"type": "text", "text": "GPU 0: NVIDIA H200"}]},
    ]
    for name, text in (("array.json", json.dumps(chat)),
                       ("conversations.jsonl", json.dumps({"messages": chat[:4]}) + "\n" + json.dumps({"messages": chat[4:]}))):
        a = analyze_path(_write(tmp_path / name, [text]))
        assert a.format == "openai", name
        assert [(c.host, c.jump, c.exit_code, c.is_error) for c in a.commands] == [
            ("gpu01", None, 255, True), ("gpu01", "bastion", None, False)], name
        assert [p.text for p in a.prompts] == ["gpu01 serves 40 tok/s with EAGLE-3"], name


# -- shell logs -------------------------------------------------------------------------------

def test_prompts_of_other_shells_and_colours_from_script(tmp_path):
    """Rocky/RHEL bash writes ``[user@host dir]#``, macOS zsh ``me@laptop ~ %``, PowerShell
    ``PS C:\\Users\\me>``; script(1) keeps colours and the window title."""
    log = ("\x1b]0;root@gpu-3: ~\x07\x1b[01;32mroot@gpu-3\x1b[00m:\x1b[01;34m~\x1b[00m# nvidia-smi -L\r\n"
           "GPU 0: NVIDIA H200\r\n"
           "[ml@gpu-4 sglang]$ python -m sglang.launch_server --model-path /m --port 30000\n"
           "Traceback (most recent call last):\n  File \"/m/x.py\", line 3, in <module>\nValueError: bad draft\n"
           "(base) [root@gpu-5 ~]# uptime\n"
           "me@MacBook-Pro ~ % ssh gpu-6 uptime\n up 3 days\n"
           "PS C:\\Users\\me> ssh gpu-7 uptime\n up 4 days\n")
    path = tmp_path / "typescript.log"
    path.write_text(log, newline="")
    a = analyze_path(path)
    assert [(c.host, c.command) for c in a.commands] == [
        ("gpu-3", "nvidia-smi -L"), ("gpu-4", "python -m sglang.launch_server --model-path /m --port 30000"),
        ("gpu-5", "uptime"), ("gpu-6", "ssh gpu-6 uptime"), ("gpu-7", "ssh gpu-7 uptime")]
    assert [(e.host, e.exception) for e in a.errors] == [("gpu-4", "ValueError")]


def test_a_byte_order_mark_and_leading_blank_lines(tmp_path):
    bom = codecs.BOM_UTF8
    text_log = _write(tmp_path / "msgs.txt", ["[msg 1] user: why is gpu01 slow", "[msg 2] assistant: checking",
                                               "[bash] ssh gpu01 uptime", "[msg 3] tool: up 3 days"], prefix=bom)
    a = analyze_path(text_log)
    assert [(p.seq, p.text) for p in a.prompts] == [(1, "why is gpu01 slow")]
    assert [(c.seq, c.host) for c in a.commands] == [(2, "gpu01")]
    prompt_log = _write(tmp_path / "shell.log", ["root@gpu01:~# nvidia-smi -L", "GPU 0: NVIDIA H200"], prefix=bom)
    assert [c.host for c in analyze_path(prompt_log).commands] == ["gpu01"]
    claude = _write(tmp_path / "s.jsonl", [_call(0, "t", "Bash", {"command": "ssh gpu01 uptime"})], prefix=bom + b"\n\n")
    assert detect_format(claude) == ("claude-code", False)
    assert [c.host for c in analyze_path(claude).commands] == ["gpu01"]
    chat = [{"role": "user", "content": "check gpu01"}]
    assert detect_format(_write(tmp_path / "chat.json", [json.dumps(chat, indent=2)], prefix=b"\r\n\n")) == (
        "openai", True)
    assert detect_format(_write(tmp_path / "bom.json", [json.dumps(chat, indent=2)], prefix=bom)) == ("openai", True)


# -- folders ----------------------------------------------------------------------------------

def test_a_folder_mixing_every_format(tmp_path):
    _write(tmp_path / "claude" / f"{SESSION}.jsonl", [_call(0, "t", "Bash", {"command": "ssh gpu01 uptime"})],
           prefix=codecs.BOM_UTF8)
    _write(tmp_path / "codex" / "2026" / "01" / "02" / "rollout-2026-01-02T03-04-05-0199a1b2.jsonl", _rollout(
        ("response_item", {"type": "function_call", "name": "shell_command", "call_id": "c",
                           "arguments": json.dumps({"command": "ssh gpu02 uptime"})})))
    _write(tmp_path / "codex" / "rollout-2025-08-18T01-16-13-c3c4b301.jsonl", [
        {"id": "c3c4b301", "timestamp": "2025-08-18T01:16:13.522Z", "instructions": None},
        {"type": "function_call", "name": "shell", "call_id": "c",
         "arguments": json.dumps({"command": ["ssh", "gpu03", "uptime"]})}])
    _write(tmp_path / "chat.json", [json.dumps([{"role": "assistant", "tool_calls": [{"id": "c", "function": {
        "name": "bash", "arguments": json.dumps({"command": "ssh gpu04 uptime"})}}]}], indent=2)], prefix=b"\n")
    _write(tmp_path / "chat.jsonl", [{"role": "assistant", "tool_calls": [{"id": "c", "function": {
        "name": "bash", "arguments": {"command": "ssh gpu05 uptime"}}}]}])
    _write(tmp_path / "notes.log", ["\n", "[root@gpu06 ~]# uptime"])
    _write(tmp_path / "config.json", [{"hidden_size": 7168}])
    a = analyze_path(tmp_path)
    formats = {Path(s["file"]).name: s["format"] for s in a.sessions}
    assert formats == {f"{SESSION}.jsonl": "claude-code", "rollout-2026-01-02T03-04-05-0199a1b2.jsonl": "codex",
                       "rollout-2025-08-18T01-16-13-c3c4b301.jsonl": "codex", "chat.json": "openai",
                       "chat.jsonl": "openai", "notes.log": "text"}
    assert a.format == "mixed"
    assert sorted(c.host for c in a.commands) == ["gpu01", "gpu02", "gpu03", "gpu04", "gpu05", "gpu06"]


def test_a_folder_of_json_that_is_no_transcript_is_a_usage_error(tmp_path):
    _write(tmp_path / "config.json", [{"hidden_size": 7168, "num_hidden_layers": 61}])
    _write(tmp_path / "metrics.jsonl", [{"step": 1, "loss": 2.5}, {"step": 2, "loss": 2.4}])
    with pytest.raises(UsageError, match="no transcript files found"):
        analyze_path(tmp_path)


def test_commands_the_person_ran_with_bang_are_commands_not_prompts(tmp_path):
    """Bash mode (``! cmd``) writes ``<bash-input>`` and ``<bash-stdout>``/``<bash-stderr>`` user
    lines; they are neither prompts nor lost."""
    path = _write(tmp_path / "s.jsonl", [
        _user(0, "EAGLE-3 is slower than the baseline on gpu01"),
        _user(1, "<bash-input>ssh gpu01 nvidia-smi -L</bash-input>"),
        _user(2, "<bash-stdout>GPU 0: NVIDIA H200</bash-stdout><bash-stderr></bash-stderr>"),
        _user(3, "<bash-input>ssh gpu02 'python /tmp/t.py'</bash-input>"),
        _user(4, "<bash-stdout></bash-stdout><bash-stderr>Traceback (most recent call last):\n"
                 "  File \"/tmp/t.py\", line 1, in <module>\nModuleNotFoundError: No module named 'sglang'\n</bash-stderr>"),
        _user(5, [{"type": "text", "text": "<task-notification>Background command finished</task-notification>"}]),
    ])
    a = analyze_path(path)
    assert [p.seq for p in a.prompts] == [0]
    assert [(c.seq, c.host, c.is_error, c.result_seq) for c in a.commands] == [(1, "gpu01", False, 2),
                                                                               (3, "gpu02", True, 4)]
    assert [(e.seq, e.host, e.exception) for e in a.errors] == [(4, "gpu02", "ModuleNotFoundError")]


def test_messages_saved_from_the_anthropic_api(tmp_path):
    """An agent loop of one's own, saved as ``{"messages": [...]}`` with tool_use/tool_result blocks."""
    messages = [
        {"role": "user", "content": "accept length is 1.3 on gpu01"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "The server log has the accept length.", "signature": "EqQB"},
            {"type": "text", "text": "Reading the server log."},
            {"type": "tool_use", "id": "toolu_01", "name": "bash",
             "input": {"command": "ssh gpu01 'grep accept /tmp/sglang.log | tail -3'"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "is_error": True, "content": [
            {"type": "text", "text": "Exit code 2\ngrep: /tmp/sglang.log: No such file or directory"}]}]},
    ]
    path = _write(tmp_path / "run.json", [json.dumps({"model": "claude-sonnet-4-5", "messages": messages}, indent=2)])
    a = analyze_path(path)
    assert a.format == "openai"
    assert [(c.seq, c.host, c.exit_code, c.is_error, c.why) for c in a.commands] == [
        (1, "gpu01", 2, True, "Reading the server log.")]
    assert [p.text for p in a.prompts] == ["accept length is 1.3 on gpu01"]


def test_fields_of_an_unexpected_type_are_skipped_not_fatal(tmp_path):
    """A hand-edited or foreign file with lists or numbers where ids and types belong."""
    claude = _write(tmp_path / "c.jsonl", [
        _user(0, "check gpu01"),
        {**_call(1, {"id": 1}, "Bash", {"command": "ssh gpu01 uptime"}), "isSidechain": True, "agentId": 7},
        _result(2, ["t"], "up 3 days"),
        _cc(["user"], 3, {"role": "user", "content": [{"type": {"nested": 1}}]}),
    ])
    a = analyze_path(claude)
    assert [c.host for c in a.commands] == ["gpu01"] and a.stats["unknown_types"] == 1
    codex = _write(tmp_path / "r.jsonl", _rollout(
        ("response_item", {"type": "function_call", "name": "shell_command", "call_id": 12,
                           "arguments": json.dumps({"command": "ssh gpu02 uptime"})}),
        ("event_msg", {"type": "exec_command_end", "call_id": ["c"], "exit_code": 0}),
        ("response_item", {"type": ["function_call_output"], "call_id": {"c": 1}}),
    ) + [{"type": ["session_meta"], "payload": {}}])
    assert [c.host for c in analyze_path(codex).commands] == ["gpu02"]
    chat = _write(tmp_path / "chat.jsonl", [{"role": ["user"], "content": "x"},
                                            {"role": "user", "content": [{"type": ["tool_use"]}, "check gpu03"]},
                                            {"role": "assistant", "content": [{"type": "tool_use", "id": {"x": 1},
                                             "name": "bash", "input": {"command": "ssh gpu03 uptime"}}]},
                                            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": [1]}]}])
    assert [c.host for c in analyze_path(chat).commands] == ["gpu03"]


def test_archives_and_pipes_are_a_usage_error_and_skipped_in_a_folder(tmp_path):
    import gzip
    import os

    archive = tmp_path / "old" / "s.jsonl.gz"
    archive.parent.mkdir()
    archive.write_bytes(gzip.compress(b"root@gpu01:~# uptime\n"))
    assert [c.host for c in analyze_path(archive).commands] == ["gpu01"]  # gzip is read through
    archive.rename(archive.with_name("s.jsonl"))  # an archive under a transcript's name
    _write(tmp_path / "notes.log", ["root@gpu02:~# uptime"])
    fifo = tmp_path / "stream.jsonl"
    os.mkfifo(fifo)
    assert [c.host for c in analyze_path(tmp_path).commands] == ["gpu02"]
    with pytest.raises(UsageError, match="not a regular file"):
        analyze_path(fifo)


def test_two_logs_of_one_name_stay_two_sessions(tmp_path):
    _write(tmp_path / "gpu01" / "notes.log", ["root@gpu01:~# uptime"])
    _write(tmp_path / "gpu02" / "notes.log", ["root@gpu02:~# uptime"])
    a = analyze_path(tmp_path)
    assert [s["id"] for s in a.sessions] == ["gpu01/notes", "gpu02/notes"]
    assert [(c.session, c.host) for c in a.commands] == [("gpu01/notes", "gpu01"), ("gpu02/notes", "gpu02")]
