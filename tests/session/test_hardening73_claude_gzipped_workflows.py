"""A Claude Code project folder archived with ``gzip -r``, holding Workflow runs (the real layout of
daaain/claude-code-log ``test/test_data/workflow_scriptpath``, tests/data/transcripts/real_variants):
each run's ``journal.jsonl`` and its snapshot ``workflows/<runId>.json`` became ``.gz`` files. A run
that failed before starting an agent, whose snapshot alone says so, was "missing" (and named in
``missing_agent_files``) instead of "failed"; a run still going, whose journal alone says so, was
"completed" instead of "running". The compressed journal and snapshot are now read."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).resolve().parent.parent / "data" / "transcripts" / "real_variants"
SESSION = "22220000-0000-4000-8000-000000000002"
SNAPSHOT = f"{SESSION}/workflows/wf_sp01.json"
JOURNAL = f"{SESSION}/subagents/workflows/wf_sp01/journal.jsonl"


def _project(tmp_path: Path, packed: bool, running: bool = False) -> Path:
    files = json.loads((DATA / "workflow_scriptpath.fixture").read_text(encoding="utf-8"))
    if running:
        del files[SNAPSHOT]  # written only when the run ends
        files[JOURNAL] = files[JOURNAL].splitlines()[0] + "\n"  # started, no result yet
    project = tmp_path / "-repo"
    for rel, text in files.items():
        path = project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if packed:  # what `gzip -r` over the project leaves
            Path(f"{path}.gz").write_bytes(gzip.compress(text.encode()))
        else:
            path.write_text(text, encoding="utf-8")
    return project


def _tree(doc: dict) -> list[tuple]:
    return [(a["id"], a["parent"], a["spawned_by"], a["type"], a["events"], a["status"]) for a in doc["agents"]]


@pytest.mark.parametrize("packed", [False, True], ids=["plain", "gzipped"])
def test_a_failed_run_of_a_gzipped_project_is_failed(tmp_path: Path, packed: bool) -> None:
    doc = analyze_path(_project(tmp_path, packed)).to_json()
    assert _tree(doc) == [
        ("main", None, None, "", 7, "completed"),
        ("workflow:wf_sp01", "main", "toolu_wfsp01", "workflow", 0, "completed"),
        ("agsp0001", "workflow:wf_sp01", "toolu_wfsp01", "workflow-subagent", 2, "completed"),
        ("workflow:wf_fail01", "main", "toolu_wffail01", "workflow", 0, "failed"),  # gzipped was "missing"
    ]
    assert doc["sessions"][0]["missing_agent_files"] == []  # gzipped was ["subagents/workflows/wf_fail01/"]
    assert doc["stats"]["missing_files"] == 0


@pytest.mark.parametrize("packed", [False, True], ids=["plain", "gzipped"])
def test_a_run_still_going_in_a_gzipped_project_is_running(tmp_path: Path, packed: bool) -> None:
    doc = analyze_path(_project(tmp_path, packed, running=True)).to_json()
    run = next(a for a in doc["agents"] if a["id"] == "workflow:wf_sp01")
    assert (run["parent"], run["status"]) == ("main", "running")  # gzipped was "completed"
