"""SD001's title is cut as a step's own finding titles are (TITLE_LIMIT), its full text kept in the evidence.

The runner's SD001 title is "Step 'x': " and the step's message, which names every failed check:
a `contains:` of a long line, or many failed checks, made a title thousands of characters long,
printed as one console line and used as the report's heading."""

from __future__ import annotations

import json

from spec_debug.runner.runner_findings import TITLE_LIMIT, runner_finding
from tests.conftest import run_cli


def test_a_long_failed_check_gives_a_cut_title_and_the_whole_message_as_evidence(tmp_path):
    needle = "CUDA graph capture finished for batch sizes " + ", ".join(str(n) for n in range(1, 200))
    (tmp_path / "p.yaml").write_text(
        "name: t\nsteps:\n  - id: warm\n    run: echo ready\n"
        f"    expect:\n      - contains: '{needle}'\n      - exit_code: 3\n")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 1, result.stderr
    record = json.loads(result.stdout)
    said = f"expected output contains {needle!r}, observed not found; expected exit code 3, observed exit code 0"
    assert record["steps"][0]["message"] == said
    (finding,) = record["findings"]
    full = f"Step 'warm': {said}"
    assert finding["title"] == (
        f"{full[:TITLE_LIMIT]}… ({len(full) - TITLE_LIMIT:,} characters more: the whole text is its first evidence)")
    assert finding["evidence"][0] == said
    assert full[:TITLE_LIMIT] in result.stderr and full not in result.stderr
    report = next((tmp_path / "runs").glob("*/report.md")).read_text()
    headings = [line for line in report.splitlines() if line.startswith("#") and "SD001" in line]
    assert headings and all(len(line) < TITLE_LIMIT + 200 for line in headings), headings


def test_a_title_not_in_the_evidence_goes_first_there():
    title = "Step 'x': " + "y" * 400
    finding = runner_finding("SD001", host="h", step="x", evidence=["tail line"], title=title)
    assert finding.title == f"{title[:TITLE_LIMIT]}… (110 characters more: the whole text is its first evidence)"
    assert finding.evidence == [f"title: {title}", "tail line"]


def test_a_short_title_is_kept():
    finding = runner_finding("SD001", host="h", step="x", evidence=["observed 1"], title="Step 'x': observed 1")
    assert (finding.title, finding.evidence) == ("Step 'x': observed 1", ["observed 1"])
