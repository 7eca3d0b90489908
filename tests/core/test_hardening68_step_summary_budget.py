"""The $GITHUB_STEP_SUMMARY of a fleet run stays under GitHub's 1 MiB.

The summary had one table row per finding and no bound: GitHub refuses a step summary over
1024k whole ("$GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of 1024k, got
1962k", as real Actions runs' annotations say), so a fleet run with many findings showed nothing
on the run page. The rows now stop at github.SUMMARY_BUDGET, the errors first, and one last row
says how many more the report holds.
"""

from __future__ import annotations

import pytest

from spec_debug.report.github import SUMMARY_BUDGET, step_summary
from spec_debug.store import load_record
from tests.conftest import run_cli


@pytest.fixture(scope="module")
def one_host_record(tmp_path_factory):
    folder = tmp_path_factory.mktemp("summary")
    (folder / "p.yaml").write_text(
        "name: sm\nsteps:\n  - id: s1\n    run: echo up\n    expect:\n      - contains: ready\n")
    run_cli("run", str(folder / "p.yaml"), "--host", "local", "--out", str(folder / "runs"))
    record = load_record(next((folder / "runs").glob("*/run.json")))
    (finding,) = [f for f in record.findings if f.severity == "error"]
    return record, finding


def test_a_fleets_summary_fits_githubs_limit_errors_first(one_host_record):
    record, finding = one_host_record
    warnings = [finding.model_copy(update={"host": f"w{n:05d}", "severity": "warning"}) for n in range(5_000)]
    errors = [finding.model_copy(update={"host": f"gpu{n:05d}"}) for n in range(20_000)]
    fleet = record.model_copy(update={"findings": warnings + errors})
    text = step_summary(fleet)
    assert len(text.encode()) < 1024 * 1024, len(text.encode())
    rows = [line for line in text.splitlines() if line.startswith("| :")]
    assert rows and all(row.startswith("| :x: |") for row in rows)  # the errors before the warnings
    assert rows[0].endswith(" | gpu00000 | s1 |")
    lines = text.splitlines()
    assert lines[lines.index(rows[-1]) + 1] == f"| | | {25_000 - len(rows)} more findings: see the report | | |"
    assert sum(len(r.encode()) + 1 for r in rows) <= SUMMARY_BUDGET


def test_a_small_runs_summary_lists_every_finding(one_host_record):
    record, finding = one_host_record
    fleet = record.model_copy(update={"findings": [finding.model_copy(update={"host": f"gpu{n}"}) for n in range(300)]})
    text = step_summary(fleet)
    assert len([line for line in text.splitlines() if line.startswith("| :x: |")]) == 300
    assert "more findings" not in text
