"""The warnings a playbook gets when it is loaded (a guard that does not guard, an unguarded read
of a misspelt fact: playbook/none_guard.py) are kept in run.json and said in the reports.

They were printed on stderr only: `spec-debug run ... --json > run.json` (docs/reports.md), a CI
job that keeps the run folder, or the report pasted into the incident channel lost them, and the
step error or SD003 they explain came without its cause."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """name: nf
steps:
  - id: measure
    run: echo speed=5
    capture:
      - regex: 'speed=(?P<speed>\\d+)'
  - id: use
    run: echo ok
    expect:
      - that: facts.sped > 1
"""

WARNING = ("step 'use' reads facts.sped in expect.that:, but no step captures 'sped', so it is never set and the step "
           "fails on every host")
HINT = "did you mean facts.speed? ('measure' captures it)"


def _run(tmp_path: Path, text: str) -> tuple[dict, Path]:
    playbook = tmp_path / "nf.yaml"
    playbook.write_text(text)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    record = json.loads(result.stdout)
    return record, tmp_path / "runs" / record["run_id"]


def test_run_json_keeps_the_load_warning_with_its_place_and_hint(tmp_path):
    record, _ = _run(tmp_path, PLAYBOOK)
    path = str((tmp_path / "nf.yaml").resolve())
    assert record["playbook"]["warnings"] == [
        {"message": f"{path}:10:15: {WARNING} (at steps[1].expect[0].that)", "hint": HINT}]


def test_the_reports_say_the_load_warning(tmp_path):
    _, run_dir = _run(tmp_path, PLAYBOOK)
    markdown = (run_dir / "report.md").read_text()
    assert "> **Playbook warning:** " in markdown and WARNING in markdown, markdown
    assert "did you mean facts.speed?" in markdown, markdown
    html = (run_dir / "report.html").read_text()
    assert "Playbook warning:" in html and "reads facts.sped in expect.that:" in html, html


def test_a_playbook_without_warnings_records_none(tmp_path):
    record, run_dir = _run(tmp_path, PLAYBOOK.replace("facts.sped", "facts.speed"))
    assert record["playbook"]["warnings"] == []
    assert "Playbook warning" not in (run_dir / "report.md").read_text()
