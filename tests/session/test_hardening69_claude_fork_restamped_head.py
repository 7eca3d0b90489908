"""Two files that share a copied history (a fork and its original, both continued) are read
so that the shared lines count once: in the original's file, told by its first line naming its
own session, else in the first by name (``claude_layout.shared_heads``). Claude Code 2.1's forks
re-stamp the copied lines' sessionId: ``--fork-session`` (and /background, /fork) with the new id
alone, /branch with it and ``forkedFrom: {sessionId, messageUuid}`` naming the original (qlan-ro/
mainframe ``docs/research/2026-07-25-todo-246-claude-fork.md``, read against CLI 2.1.219). So a
fork whose name sorted first read the shared head, and the sub-agent the original had started in
it was "missing" there (its file is in the original's folder), while the original, its head
skipped, read that same file as an orphan agent with no parent."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening69_claude_restamped_copy_agents import _agent, _jsonl, _line, _restamped, _spawn

A = "bbbb6972-0000-4000-8000-000000000001"
F = "00006972-0000-4000-8000-000000000009"  # sorts before A


def _project(tmp_path: Path, branch: bool) -> Path:
    project = tmp_path / "-w"
    history = [_line(0, A, "user", "EAGLE-3 made serving slower on gpu01"), *_spawn(1, A, "a1f00d")]
    _jsonl(project / f"{A}.jsonl", [*history, _line(3, A, "user", "the original goes on")])
    _agent(project, A, "a1f00d")
    fork = _restamped(history, F, branch=True) if branch else [
        {"type": "mode", "mode": "normal", "sessionId": F}, *_restamped(history, F)]  # --fork-session's first record
    _jsonl(project / f"{F}.jsonl", [*fork, _line(3, F, "user", "the fork goes on")])
    return project


def _read(project: Path) -> tuple:
    doc = analyze_path(project).to_json()
    return ([(a["session"][:4], a["id"], a["parent"], a["status"], a["events"]) for a in doc["agents"]],
            [(c["session"][:4], c["agent"], c["inner"]) for c in doc["commands"]], doc["stats"]["missing_files"])


def test_a_fork_that_reads_the_shared_head_reads_the_sub_agent_it_started(tmp_path: Path) -> None:
    assert _read(_project(tmp_path, branch=False)) == (
        [("0000", "main", None, "completed", 5), ("0000", "a1f00d", "main", "completed", 3),
         ("bbbb", "main", None, "completed", 1)],
        [("0000", "a1f00d", "ls /models/a1f00d")], 0)


def test_a_branch_leaves_the_shared_head_to_the_original(tmp_path: Path) -> None:
    assert _read(_project(tmp_path, branch=True)) == (
        [("0000", "main", None, "completed", 1), ("bbbb", "main", None, "completed", 4),
         ("bbbb", "a1f00d", "main", "completed", 3)],
        [("bbbb", "a1f00d", "ls /models/a1f00d")], 0)
