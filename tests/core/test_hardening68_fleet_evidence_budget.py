"""The findings of a fleet run share a budget in report.md, report.html and junit.xml.

Each finding's evidence was cut to 20,000 characters by itself, and nothing bounded the sum: a
50-host run on local hosts (an inventory of `ansible_connection=local`) with two steps whose
`findings: [{code: SD101, evidence: ["{{ stdout }}"]}]` quoted a 30,000-character output made a
4.1 MB report.md, 2 MB of it evidence; 100 hosts x 10 such findings made 20 MB of evidence on
top of the 6 MB the raw outputs are held to (views.OUTPUT_BUDGET). The evidence now shares
EVIDENCE_BUDGET as the raw outputs share theirs (each long one keeps an equal share of what the
short ones leave, its head and tail); run.json keeps every finding whole.
"""

from __future__ import annotations

import pytest

from spec_debug.record import Finding, StepRecord
from spec_debug.report import render_report
from spec_debug.report.junit import junit_xml
from spec_debug.report.views import EVIDENCE_BUDGET
from spec_debug.store import load_record
from tests.conftest import run_cli

HOSTS = 200


@pytest.fixture(scope="module")
def fleet_record(tmp_path_factory):
    """A real run on one local host, its finding repeated as 200 hosts x 5 steps would record it."""
    folder = tmp_path_factory.mktemp("evidence")
    (folder / "p.yaml").write_text(
        "name: ev\nsteps:\n  - id: s1\n    run: python3 -c \"print('x' * 30000 + 'END')\"\n"
        "    expect:\n      - contains: nope\n    findings:\n      - code: SD101\n"
        "        evidence: ['{{ stdout }}']\n")
    run_cli("run", str(folder / "p.yaml"), "--host", "local", "--out", str(folder / "runs"))
    record = load_record(next((folder / "runs").glob("*/run.json")))
    (finding,) = [f for f in record.findings if f.code == "SD101"]
    assert len("\n".join(finding.evidence)) > 30_000
    names = [f"gpu{n:03d}" for n in range(HOSTS)]
    record.hosts = [record.hosts[0].model_copy(update={"name": name}) for name in names]
    record.steps = []
    record.findings = [finding.model_copy(update={"host": name, "step": f"s{k}"}) for name in names for k in range(5)]
    return record


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_evidence_of_a_fleet_fits_the_budget_and_keeps_each_tail(fleet_record, fmt):
    report = render_report(fleet_record, fmt)
    # 1,000 findings x 20,000 characters each was 20 MB of evidence alone
    assert len(report) < EVIDENCE_BUDGET + 2_000_000, len(report)
    assert report.count("xEND") == len(fleet_record.findings)  # the end of every finding's evidence is there
    assert report.count("characters left out of this report; run.json holds them") == len(fleet_record.findings)


def test_junit_failures_share_the_budget(fleet_record):
    record = fleet_record.model_copy(deep=True)
    record.steps = [StepRecord(id="s0", host=host.name, status="failed", duration_s=0.1) for host in record.hosts]
    record.findings = [f.model_copy(update={"step": "s0"}) for f in record.findings]
    xml = junit_xml(record)
    assert len(xml) < EVIDENCE_BUDGET + 2_000_000, len(xml)
    assert xml.count("xEND") == len(record.findings)


def test_a_few_findings_keep_20000_characters_each(fleet_record):
    few = fleet_record.model_copy(update={"findings": fleet_record.findings[:3], "hosts": fleet_record.hosts[:1]})
    report = render_report(few, "md")
    evidence = "\n".join(fleet_record.findings[0].evidence)
    assert evidence[:9_990] in report and evidence[-9_990:] in report


def test_a_finding_with_short_evidence_is_whole():
    from spec_debug.report.views import evidence_limit

    short = [Finding(code="SD001", severity="error", title="t", evidence=["a" * 100]) for _ in range(10)]
    assert evidence_limit(short) == 20_000
