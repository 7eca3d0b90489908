"""On call, "run it again": `spec-debug run runs/<run-id> --host gpu01`, or `explain` of the
record. The folder said only "is a directory, not a playbook file"; run.json (JSON is YAML)
was read as a playbook: "unknown key 'host' (and 28 more problems)"."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PLAYBOOK = """
name: again
steps:
  - id: hello
    run: echo hello
"""


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=60, env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"})


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("again")
    (folder / "again.yaml").write_text(PLAYBOOK)
    proc = _cli("run", "again.yaml", "--host", "local", "--out", "runs", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    return folder


def _run_dir(workdir: Path) -> str:
    return str(next((workdir / "runs").iterdir()).relative_to(workdir))


_FOLDER = ("{run}", "is a spec-debug run folder (playbook 'again')")
_RECORD = ("{run}/run.json", "is a spec-debug run record (playbook 'again')")
_REPORT = ("{run}/report.md", "is the report of a spec-debug run (playbook 'again')")


@pytest.mark.parametrize("command, given, what", [
    ("run", *_FOLDER), ("run", *_RECORD), ("run", *_REPORT), ("explain", *_RECORD), ("playbooks validate", *_FOLDER),
])
def test_a_run_folder_or_its_files_given_as_the_playbook_names_the_command_meant(workdir, command, given, what):
    run = _run_dir(workdir)
    path = given.format(run=run)
    extra = ["--host", "local", "--out", "runs"] if command == "run" else []
    proc = _cli(*command.split(), path, *extra, cwd=workdir)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    message = " ".join(proc.stderr.split())
    assert f"error: {path}: {what}, not a playbook" in message
    assert f"spec-debug run again.yaml --retry-failed {run};" in message
    assert f"the report: spec-debug report {run}" in message
    assert "unknown key" not in message and "Traceback" not in proc.stderr
    assert len(list((workdir / "runs").iterdir())) == 1  # nothing ran


def test_a_record_copied_under_another_name_is_recognised_too(workdir, tmp_path):
    shutil.copy(workdir / _run_dir(workdir) / "run.json", tmp_path / "incident.json")
    proc = _cli("explain", "incident.json", cwd=tmp_path)
    assert proc.returncode == 2
    message = " ".join(proc.stderr.split())
    assert "incident.json: is a spec-debug run record (playbook 'again'), not a playbook" in message
    assert "spec-debug report incident.json" in message


def test_a_run_of_a_shipped_playbook_is_named_by_its_name(tmp_path):
    """Its record holds the installed path; the name works from any folder."""
    run_dir = tmp_path / "runs" / "20260101T000000000Z-host_smoke-00000000"
    run_dir.mkdir(parents=True)
    from spec_debug.playbook.loader import shipped_playbooks_dir

    shipped = shipped_playbooks_dir() / "host_smoke.yaml"
    (run_dir / "run.json").write_text(
        '{\n  "run_id": "20260101T000000000Z-host_smoke-00000000",\n  "playbook": {\n    "name": "host_smoke",\n'
        f'    "path": "{shipped}",\n    "sha256": "0"\n  }},\n  "started_at": "2026-01-01T00:00:00.000Z"\n}}\n')
    proc = _cli("run", str(run_dir), "--host", "local", cwd=tmp_path)
    assert proc.returncode == 2
    assert "spec-debug run host_smoke --host HOST" in " ".join(proc.stderr.split())


def test_a_folder_of_playbooks_and_a_json_playbook_are_unchanged(tmp_path):
    (tmp_path / "books").mkdir()
    (tmp_path / "books" / "a.yaml").write_text(PLAYBOOK)
    proc = _cli("run", "books", "--host", "local", cwd=tmp_path)
    assert proc.returncode == 2 and "is a directory, not a playbook file" in proc.stderr
    (tmp_path / "p.json").write_text('{"name": "j", "steps": [{"id": "a", "run": "echo hi"}]}')
    proc = _cli("playbooks", "validate", "p.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
