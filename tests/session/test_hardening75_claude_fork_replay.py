"""A forked Claude Code sub-agent (``Agent`` with ``subagent_type: "fork"``, on by default since CLI
2.1.232: "a fork subagent inherits the full conversation and prompt cache") starts from the parent's
whole conversation, and CLIs that record it so write that history into the fork's own
``agent-<id>.jsonl`` first: the parent's lines, their uuids and timestamps kept, then the parent's
message with the spawning call, then a user line of placeholder results (``Fork started —
processing in background``) and the fork's ``<fork-boilerplate>`` directive (the CLI's
runAgent/forkSubagent as ports of it give them: ``[...history, assistant(all tool_uses),
user(placeholder results..., directive)]``; newer CLIs write a ``fork-context-ref`` line instead).

Before, the copied calls were dropped (the session's call ids) but the copied words were not: the
person's prompt was a prompt of the fork as well, and the parent's suspicion a second hypothesis of
the fork's. Now the lines of the fork's file older than the call that spawned it are the parent's,
read once, in the parent; the fork's own lines (and a file with no copy) are read as before."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "f0a2c000-0000-4000-8000-000000000075"
FORK = "af0rk75"
PROMPT = "the EAGLE-3 server on gpu01 accepts 1.0 tokens per step; find out why"
SUSPECT = "I suspect the draft's d2t vocab map does not match the target tokenizer."


def _line(uuid: str, parent: str | None, kind: str, content, second: int, agent: str | None = None, **extra) -> dict:
    line = {"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": SID, "isSidechain": agent is not None,
            "userType": "external", "cwd": "/srv/eagle", "version": "2.1.232",
            "timestamp": f"2026-08-20T10:00:{second:02d}.000Z", "message": {"role": kind, "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


DIRECTIVE = "check the d2t map against the tokenizer"
BRIEF = ("<fork-boilerplate>\nSTOP. READ THIS FIRST.\n\nYou are a forked worker process. You are NOT the main agent.\n"
         "\nRULES (non-negotiable):\n1. Do NOT spawn sub-agents; execute directly.\n" + "".join(
             f"{n}. Keep to your directive; report facts, not plans.\n" for n in range(2, 11)) + "</fork-boilerplate>\n\nYour directive: " + DIRECTIVE)
"""A fork's brief as the CLI writes it (claude_code._FORK_OPEN), its rules shortened."""

TRUNK = [
    _line("m0", None, "user", PROMPT, 0),
    _line("m1", "m0", "assistant", [{"type": "text", "text": SUSPECT}], 5),
    _line("m2", "m1", "assistant", [{"type": "tool_use", "id": "toolu_01Fork", "name": "Agent", "input": {
        "subagent_type": "fork", "description": "check d2t", "prompt": "check the d2t map against the tokenizer"}}], 6),
    _line("m3", "m2", "user", [{"type": "tool_result", "tool_use_id": "toolu_01Fork", "content": [
        {"type": "text", "text": f"Async agent launched successfully.\nagentId: {FORK} (internal ID - do not mention to user)"}]}],
        7, toolUseResult={"isAsync": True, "status": "async_launched", "agentId": FORK, "description": "check d2t"}),
    _line("m4", "m3", "user", f"<task-notification>\n<task-id>{FORK}</task-id>\n<status>completed</status>\n"
                              "<summary>Agent \"check d2t\" completed</summary>\n</task-notification>", 30,
          isMeta=True),
    _line("m5", "m4", "assistant", [{"type": "text", "text": "The fork found 1532 ids that differ."}], 31),
]

OWN = [
    _line("f0", "m2", "user", [
        {"type": "tool_result", "tool_use_id": "toolu_01Fork",
         "content": [{"type": "text", "text": "Fork started — processing in background"}]},
        {"type": "text", "text": BRIEF}], 8, FORK),
    _line("f1", "f0", "assistant", [{"type": "tool_use", "id": "toolu_01Chk", "name": "Bash",
                                     "input": {"command": "ssh gpu01 python check_d2t.py"}}], 9, FORK),
    _line("f2", "f1", "user", [{"type": "tool_result", "tool_use_id": "toolu_01Chk", "is_error": False,
                                "content": "d2t mismatch: 1532 of 32000 ids differ"}], 12, FORK),
    _line("f3", "f2", "assistant", [{"type": "text", "text": "Result: 1532 ids differ from the target tokenizer."}],
          14, FORK),
]


def _write(tmp_path: Path, fork_lines: list[dict]) -> Path:
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in TRUNK))
    folder = tmp_path / SID / "subagents"
    folder.mkdir(parents=True)
    (folder / f"agent-{FORK}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in fork_lines))
    (folder / f"agent-{FORK}.meta.json").write_text(json.dumps(
        {"agentType": "fork", "description": "check d2t", "toolUseId": "toolu_01Fork"}))
    return path


def _copied(line: dict) -> dict:
    return {**line, "isSidechain": True, "agentId": FORK}


def test_the_history_a_fork_copied_is_the_parents_alone(tmp_path: Path) -> None:
    doc = analyze_path(_write(tmp_path, [*map(_copied, TRUNK[:3]), *OWN])).to_json()
    prompts = [(p["agent"], p["text"][:18]) for p in doc["prompts"]]
    assert prompts == [("main", PROMPT[:18]), (FORK, DIRECTIVE[:18])]  # was the person's prompt twice
    assert [(h["agent"], h["text"]) for h in doc["hypotheses"]] == [("main", SUSPECT)]  # was a second, the fork's
    fork = next(a for a in doc["agents"] if a["id"] == FORK)
    assert (fork["status"], fork["events"], fork["tool_calls"], fork["cut_off"]) == ("completed", 4, 1, False)
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu01 python check_d2t.py"]


def test_a_sub_agent_file_with_no_copy_reads_as_before(tmp_path: Path) -> None:
    doc = analyze_path(_write(tmp_path, OWN)).to_json()
    assert [(p["agent"], p["text"][:18]) for p in doc["prompts"]] == [("main", PROMPT[:18]), (FORK, DIRECTIVE[:18])]
    fork = next(a for a in doc["agents"] if a["id"] == FORK)
    assert (fork["status"], fork["events"], fork["tool_calls"]) == ("completed", 4, 1)


def test_a_copy_of_a_compacted_conversation_opens_with_its_summary(tmp_path: Path) -> None:
    # the fork inherits the context the parent has: after a compaction, the summary and what followed
    summary = _line("c0", None, "user", "This session is being continued from a previous conversation that ran out of "
                                        "context. The conversation is summarized below: " + PROMPT, 0,
                    isCompactSummary=True)
    trunk = [summary, *TRUNK[1:]]
    path = _write(tmp_path, [*map(_copied, [summary, *TRUNK[1:3]]), *OWN])
    path.write_text("".join(json.dumps(x) + "\n" for x in trunk))
    doc = analyze_path(path).to_json()
    assert [(h["agent"], h["text"]) for h in doc["hypotheses"]] == [("main", SUSPECT)]  # was a second, the fork's
    fork = next(a for a in doc["agents"] if a["id"] == FORK)
    assert (fork["events"], fork["tool_calls"]) == (4, 1)


def test_read_by_worker_processes_too(tmp_path: Path, monkeypatch) -> None:
    # long files are parsed by worker processes, which hand back a text cut short and a spawn as a tuple
    from spec_debug.session import parallel
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 700)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    doc = analyze_path(_write(tmp_path, [*map(_copied, TRUNK[:3]), *OWN])).to_json()
    assert [(p["agent"], p["text"][:18]) for p in doc["prompts"]] == [("main", PROMPT[:18]), (FORK, DIRECTIVE[:18])]
    assert [(h["agent"], h["text"]) for h in doc["hypotheses"]] == [("main", SUSPECT)]
    fork = next(a for a in doc["agents"] if a["id"] == FORK)
    assert (fork["events"], fork["tool_calls"], fork["cut_off"]) == (4, 1, False)
