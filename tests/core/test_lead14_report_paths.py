"""`spec-debug report` given what a newcomer points it at: the report.html beside the record
(read the record), a playbook (not a run record, said so), rather than "run.json is not valid
JSON: Expecting value" about a YAML or HTML file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = "name: small\nsteps:\n  - id: hello\n    run: echo hello\n"


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("paths")
    (folder / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(folder / "p.yaml"), "--host", "local", "--out", str(folder / "runs"))
    assert result.code == 0, result.stderr
    return next((folder / "runs").iterdir())


@pytest.mark.parametrize("name", ["report.html", "report.md"])
def test_a_rendered_report_reads_the_record_beside_it(run_folder, name):
    from_file = run_cli("report", str(run_folder / name), "--format", "json")
    from_folder = run_cli("report", str(run_folder), "--format", "json")
    assert from_file.code == 0, from_file.stderr
    assert from_file.stdout == from_folder.stdout and '"playbook"' in from_file.stdout


def test_a_playbook_is_not_a_run_record(run_folder):
    result = run_cli("report", str(run_folder.parent.parent / "p.yaml"))
    assert result.code == 2
    assert "p.yaml is not a run record (run.json)" in result.stderr
    assert "not valid JSON" not in result.stderr and "Traceback" not in result.stderr


def test_a_cut_record_still_says_where_it_ends(tmp_path):
    cut = tmp_path / "run.json"
    cut.write_text('{"run_id": "x", "steps": [')
    result = run_cli("report", str(cut))
    assert result.code == 2 and "run.json is not valid JSON" in result.stderr and "cut off" in result.stderr
