"""Transcript shapes the readers got wrong (hardening round 9).

The data files under ``data_h9/`` are real-shaped: their sources are cited where each is read;
names, hosts and outputs are ours.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events
from test_session_parallel import _both  # the sequential-then-parallel read those tests compare

DATA = Path(__file__).resolve().parent / "data_h9"


def _events(path: Path) -> list:
    (source,) = discover(path, None)
    return list(iter_events(source, ReadStats(), AgentTree()))


# -- plain-text logs in a legacy code page ----------------------------------------------------


def test_a_cp1252_traceback_keeps_its_exception_line():
    """A terminal log written by a non-UTF-8 terminal (cmd.exe redirects in the console's code
    page; a Latin-1 locale): one byte per accented letter. The exception line
    ``ValueError: température élevée à 95°C`` has 6 such bytes in 37; it was dropped as binary,
    so the traceback read as "traceback without an exception line". Now every line is kept,
    each stray byte as cp1252 reads it (test_hardening42_legacy_bytes)."""
    doc = analyze_path(DATA / "train_cp1252.log").to_json()
    assert doc["stats"]["binary"] == 0 and doc["stats"]["lines_skipped"] == 0
    assert [(c["seq"], c["command"]) for c in doc["commands"]] == [
        (0, "ssh gpu01 python3 /root/train_eagle3.py --draft /données/eagle3"), (1, "nvidia-smi -L")]
    assert [(e["seq"], e["exception"], e["message"], e["file"], e["line"]) for e in doc["errors"]] == [
        (0, "ValueError", "température élevée à 95°C", "/root/train_eagle3.py", 17)]


def test_random_bytes_in_a_log_are_still_binary(tmp_path):
    """Random bytes (a binary file cat'ed to the terminal) stay binary: about half their bytes
    are >= 0x80 and one in ten is a C0 control, which no code-page text has."""
    rng = random.Random(9)
    garbage = bytes(rng.randrange(256) for _ in range(16 * 1024))
    path = tmp_path / "gpu01.log"
    path.write_bytes(b"root@gpu01:~# cat /usr/bin/true\n" + garbage + b"\nroot@gpu01:~# echo done\ndone\n")
    doc = analyze_path(path).to_json()
    garbage_lines = garbage.count(b"\n") + 1
    assert doc["stats"]["binary"] >= 0.9 * garbage_lines
    assert [c["command"] for c in doc["commands"]][-1] == "echo done"


# -- Claude Code prompts that start with the CLI's reminder -------------------------------------


def test_a_prompt_after_a_system_reminder_is_the_persons_prompt():
    """The CLI puts ``<system-reminder>...</system-reminder>`` blocks (CLAUDE.md context, a
    hook's additionalContext, the files read; the tag as Piebald-AI/claude-code-system-prompts
    issue #9 shows it injected into message content) before what the person typed, in the same
    string or text block. The whole text was read as the CLI's (kind ``system``), so the
    session had no first prompt. Now the typed text is the prompt; a reminder alone stays the
    CLI's."""
    path = DATA / "claude_reminder_prompt.jsonl"
    events = _events(path)
    assert [(e.seq, e.block, e.kind, e.role, e.text[:40]) for e in events if e.role == "user"] == [
        (0, 0, "prompt", "user", "accept length fell to 1.2 after the SGLa"),
        (3, 0, "system", "user", "<system-reminder>\nThe TodoWrite tool has"),
        (3, 1, "prompt", "user", "compare the draft config with the target"),
    ]
    a = analyze_path(path)
    assert [(p.seq, p.text) for p in a.prompts] == [
        (0, "accept length fell to 1.2 after the SGLang upgrade on gpu01, find out why"),
        (3, "compare the draft config with the target's hidden size")]


# -- Claude Code sub-agents known only from the trunk's agent_progress lines ------------------

PROGRESS_SESSION = DATA / "progress_only"
"""A CLI 2.1.62 session (before 2.1.71, which stopped writing agent_progress: pixel-agents-hq/
pixel-agents issue #93) copied without its ``<sessionId>/subagents/`` folder. Each message of
the sub-agent is in the trunk as ``{"type": "progress", "parentToolUseID", "data": {"type":
"agent_progress", "agentId", "prompt", "message": {"type", "uuid", "timestamp", "message"}}}``
(the shape kenn-io/agentsview PR #76 and other transcript readers parse), among hook_progress
lines."""
AGENT = "a5c81f04e2d7b9a63"


def _session_file(root: Path) -> Path:
    (path,) = root.glob("*.jsonl")
    return path


def test_a_sub_agent_without_its_file_is_read_from_the_progress_lines():
    """Before: the sub-agent had no events (its file is gone), so its failed ssh command and
    the KeyError it hit were nowhere in the analysis, and its file was reported missing. Now
    the progress copies are its events: its prompt, its command and the traceback."""
    events = _events(_session_file(PROGRESS_SESSION))
    assert [(e.seq, e.agent, e.kind, e.role, e.call_id, e.is_error) for e in events] == [
        (0, "main", "prompt", "user", None, False),
        (1, "main", "tool_call", "assistant", "toolu_spawn1", False),
        (2, AGENT, "prompt", "user", None, False),
        (3, "main", "other", "system", None, False),  # hook_progress stays the trunk's
        (4, AGENT, "tool_call", "assistant", "toolu_s2", False),
        (5, AGENT, "tool_result", "tool", "toolu_s2", True),
        (6, "main", "tool_result", "tool", "toolu_spawn1", False),
    ]
    doc = analyze_path(PROGRESS_SESSION).to_json()
    assert doc["sessions"][0]["missing_agent_files"] == [] and doc["stats"]["unknown_types"] == 0
    (sub,) = [a for a in doc["agents"] if a["id"] == AGENT]
    assert (sub["parent"], sub["spawned_by"], sub["events"], sub["failed_calls"]) == ("main", "toolu_spawn1", 3, 1)
    assert [(c["seq"], c["agent"], c["host"]) for c in doc["commands"]] == [(4, AGENT, "gpu01")]
    assert [(e["seq"], e["agent"], e["exception"], e["message"]) for e in doc["errors"]] == [
        (5, AGENT, "KeyError", "'eagle_config'")]


def test_with_the_sub_agent_file_there_the_progress_copies_are_not_read_twice(tmp_path):
    """The same session with ``subagents/agent-<id>.jsonl`` kept (its lines are the progress
    copies' messages with ``isSidechain`` and ``agentId``: TRANSCRIPTS.md section 1a): the file
    is read, once; the copies stay bookkeeping lines of the trunk."""
    trunk = _session_file(PROGRESS_SESSION)
    root = tmp_path / "project"
    root.mkdir()
    (root / trunk.name).write_bytes(trunk.read_bytes())
    subagents = root / trunk.stem / "subagents"
    subagents.mkdir(parents=True)
    copies = [json.loads(line) for line in trunk.read_text().splitlines()]
    child = [{**c["data"]["message"], "isSidechain": True, "agentId": AGENT, "sessionId": c["sessionId"]}
             for c in copies if c["type"] == "progress" and c["data"]["type"] == "agent_progress"]
    (subagents / f"agent-{AGENT}.jsonl").write_text("".join(json.dumps(c) + "\n" for c in child))
    doc = analyze_path(root).to_json()
    assert [(c["agent"], c["host"]) for c in doc["commands"]] == [(AGENT, "gpu01")]
    assert [(e["agent"], e["exception"]) for e in doc["errors"]] == [(AGENT, "KeyError")]
    (sub,) = [a for a in doc["agents"] if a["id"] == AGENT]
    assert (sub["file"], sub["events"]) == (str(subagents / f"agent-{AGENT}.jsonl"), 3)
    assert [(e.agent, e.kind, e.raw_type) for e in _events(root / trunk.name) if e.seq in (2, 4, 5)] == [
        ("main", "other", "progress")] * 3


def test_progress_copies_read_the_same_with_workers(monkeypatch):
    """The parallel read (spec_debug.session.parallel) gives the same analysis, byte for byte,
    with the file cut into spans of a line or two."""
    one, many = _both(monkeypatch, PROGRESS_SESSION, span_bytes=600)
    assert json.loads(one)["stats"]["events"] == 7 and many == one
