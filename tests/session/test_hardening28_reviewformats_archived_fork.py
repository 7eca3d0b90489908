"""A Codex fork that was archived (``~/.codex/archived_sessions/``, where Codex moves an archived
rollout) whose origin is still in ``sessions/YYYY/MM/DD/``: the origin is found as for a fork in a
day folder (sources._rollouts_by_thread) and the copy of its history is skipped. Before: only a
fork in a day folder looked, so the archived fork read the copy as its own work (its command
again) and said its origin's rollout was not found."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path
from tests.session.test_hardening28_formats_codex_fork import FORK, FORK_LINES, _home


def test_an_archived_fork_finds_its_origin_in_the_sessions_tree(tmp_path):
    sessions = _home(tmp_path)
    (fork,) = (sessions / "2026" / "05" / "13").glob("rollout-*.jsonl")
    archived = tmp_path / ".codex" / "archived_sessions"
    archived.mkdir()
    moved = fork.rename(archived / fork.name)
    assert moved.read_text() == "".join(json.dumps(x) + "\n" for x in FORK_LINES)
    doc = analyze_path(moved).to_json()
    assert doc["sessions"][0]["id"].endswith(FORK)
    assert [c["command"] for c in doc["commands"]] == [
        "ssh gpu01 'systemctl restart sglang && journalctl -u sglang -n 20'"]
    assert doc["agents"][0]["description"] == ""
