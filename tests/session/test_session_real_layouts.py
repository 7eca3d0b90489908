"""Layouts real sessions leave on disk that the first readers got wrong: Claude Code Workflow
runs, Codex sub-agent rollouts, logs a Windows shell saved as UTF-16.

Each case is analyzed through the real CLI as JSON and as Markdown, and the extracted values
are asserted exactly. Sources of each shape are named in the test.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).resolve().parent.parent / "data" / "transcripts" / "real_variants"
WORKFLOW_SESSION = "22220000-0000-4000-8000-000000000002"


def _fixture(name: str, into: Path) -> Path:
    """Write out ``real_variants/<name>.fixture`` (``{relative path: text}``) under ``into``."""
    files = json.loads((DATA / f"{name}.fixture").read_text(encoding="utf-8"))
    for rel, text in files.items():
        (into / rel).parent.mkdir(parents=True, exist_ok=True)
        (into / rel).write_text(text, encoding="utf-8")
    return into


def _workflow(tmp_path: Path) -> Path:
    return _fixture("workflow_scriptpath", tmp_path / "-repo")


def _both_formats(cli, path: Path, tmp_path: Path) -> tuple[dict, str]:
    out = tmp_path / "analysis.json"
    result = cli("analyze", str(path), "--format", "json", "-o", str(out))
    assert result.code == 0 and "Traceback" not in result.stderr, result.stderr
    md = cli("analyze", str(path), "--format", "md")
    assert md.code == 0 and "Traceback" not in md.stderr, md.stderr
    return json.loads(out.read_text()), md.stdout


def _tree(doc: dict) -> list[tuple]:
    return [(a["id"], a["parent"], a["spawned_by"], a["type"], a["events"], a["status"]) for a in doc["agents"]]


# -- Claude Code Workflow runs (daaain/claude-code-log test/test_data/workflow_scriptpath) -----

def test_workflow_agents_hang_under_their_run_and_the_call_that_launched_it(cli, tmp_path):
    doc, md = _both_formats(cli, _workflow(tmp_path), tmp_path)
    assert _tree(doc) == [
        ("main", None, None, "", 7, "completed"),
        ("workflow:wf_sp01", "main", "toolu_wfsp01", "workflow", 0, "completed"),
        ("agsp0001", "workflow:wf_sp01", "toolu_wfsp01", "workflow-subagent", 2, "completed"),
        # Died before starting an agent: only its snapshot says so (workflows/wf_fail01.json).
        ("workflow:wf_fail01", "main", "toolu_wffail01", "workflow", 0, "failed"),
    ]
    assert doc["sessions"][0]["missing_agent_files"] == []
    assert doc["stats"]["events"] == 9 and doc["stats"]["lines_skipped"] == 0
    agent = next(a for a in doc["agents"] if a["id"] == "agsp0001")
    assert (agent["first_seq"], agent["last_seq"]) == (5, 6)
    assert "| agsp0001 | workflow:wf_sp01 | toolu_wfsp01 | 2 | 0 | 0 | completed |" in md
    assert "| workflow:wf_fail01 | main | toolu_wffail01 | 0 | 0 | 0 | failed |" in md


def test_a_workflow_run_nothing_launched_is_its_agents_parent_not_an_orphan(tmp_path):
    # The trunk was cut before its Workflow call (a session still being written, or pruned):
    # the run folder alone still says which agents belong together.
    project = _workflow(tmp_path)
    session = project / f"{WORKFLOW_SESSION}.jsonl"
    session.write_text(session.read_text().splitlines()[0] + "\n")
    (project / WORKFLOW_SESSION / "workflows" / "wf_sp01.json").unlink()
    doc = analyze_path(session).to_json()
    assert _tree(doc) == [
        ("main", None, None, "", 1, "completed"),
        # No snapshot, and the journal has a result for every agent it started.
        ("workflow:wf_sp01", None, None, "workflow", 0, "completed"),
        ("agsp0001", "workflow:wf_sp01", None, "workflow-subagent", 2, "completed"),
        ("workflow:wf_fail01", None, None, "workflow", 0, "failed"),
    ]


def test_a_workflow_run_still_going_is_running(tmp_path):
    project = _workflow(tmp_path)
    session_dir = project / WORKFLOW_SESSION
    (session_dir / "workflows" / "wf_sp01.json").unlink()  # written only when the run ends
    journal = session_dir / "subagents" / "workflows" / "wf_sp01" / "journal.jsonl"
    journal.write_text(journal.read_text().splitlines()[0] + "\n")  # started, no result yet
    doc = analyze_path(project).to_json()
    run = next(a for a in doc["agents"] if a["id"] == "workflow:wf_sp01")
    assert (run["parent"], run["status"]) == ("main", "running")


def test_a_workflow_run_referenced_but_not_on_disk_is_reported_missing(tmp_path):
    project = _workflow(tmp_path)
    shutil.rmtree(project / WORKFLOW_SESSION)
    doc = analyze_path(project / f"{WORKFLOW_SESSION}.jsonl").to_json()
    assert [(a["id"], a["parent"], a["status"]) for a in doc["agents"]] == [
        ("main", None, "completed"), ("workflow:wf_sp01", "main", "missing"),
        ("workflow:wf_fail01", "main", "missing"),
    ]
    assert doc["sessions"][0]["missing_agent_files"] == [
        "subagents/workflows/wf_sp01/", "subagents/workflows/wf_fail01/"]
