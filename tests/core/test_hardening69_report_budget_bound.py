"""The reports' output, evidence and command budgets are bounds, not wishes.

Each long stream kept at least 2,000 characters however many there were, so the budget held only
up to budget / 2,000 long streams: 100 hosts x 40 steps printing an 8,000-character log quoted 8
million characters of output in report.md for a budget of 6 million (200 hosts x 30 steps: 12
million), 1,500 findings quoting a 5,000-character stdout 3 million of evidence for a budget of
2 million (the 25,000 findings of a fleet: 50 million), and junit.xml's system-out the same. The
long streams now share exactly what the budget leaves, each still its head and its tail.
"""

from __future__ import annotations

import re

import pytest

from spec_debug.report import render_report
from spec_debug.report.junit import junit_xml
from spec_debug.report.terminal import clip_middle
from spec_debug.report.views import COMMAND_BUDGET, EVIDENCE_BUDGET, OUTPUT_BUDGET
from spec_debug.store import load_record
from tests.conftest import run_cli

HOSTS, STEPS = 100, 40


def _quoted(letter: str, text: str) -> int:
    """Characters of runs of ``letter`` in a report: the parts of the streams it quotes."""
    return sum(len(run) for run in re.findall(f"{letter}{{20,}}", text))


@pytest.fixture(scope="module")
def fleet_record(tmp_path_factory):
    """A real one-step run on a local host with a finding quoting its stdout, repeated as
    100 hosts x 40 steps would record it."""
    folder = tmp_path_factory.mktemp("bound")
    (folder / "p.yaml").write_text(
        "name: bound\nsteps:\n  - id: s1\n    run: python3 -c \"print('a' * 8000 + 'END')\"\n"
        "    expect:\n      - contains: nope\n    findings:\n      - code: SD101\n"
        "        evidence: ['{{ stdout }}']\n")
    run_cli("run", str(folder / "p.yaml"), "--host", "local", "--out", str(folder / "runs"))
    record = load_record(next((folder / "runs").glob("*/run.json")))
    (step,) = record.steps
    (finding,) = [f for f in record.findings if f.code == "SD101"]
    assert len(step.stdout) > 8_000 and "a" * 8_000 in "\n".join(finding.evidence)
    names = [f"gpu{n:03d}" for n in range(HOSTS)]
    record.hosts = [record.hosts[0].model_copy(update={"name": name}) for name in names]
    record.steps = [step.model_copy(update={"host": name, "id": f"s{k}", "command": "echo " + "c" * 5000 + " END"})
                    for name in names for k in range(STEPS)]
    record.findings = [finding.model_copy(update={"host": name, "step": f"s{k}",
                                                  "evidence": ["b" * 5000 + "END"]})
                       for name in names for k in range(15)]
    return record


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_a_fleet_report_quotes_no_more_than_its_budgets(fleet_record, fmt):
    report = render_report(fleet_record, fmt)
    assert 0.9 * OUTPUT_BUDGET < _quoted("a", report) <= OUTPUT_BUDGET  # was 8 million
    assert 0.9 * EVIDENCE_BUDGET < _quoted("b", report) <= EVIDENCE_BUDGET  # was 3 million
    assert 0.9 * COMMAND_BUDGET < _quoted("c", report) <= COMMAND_BUDGET  # was 8 million
    # every stream, finding and command still ends where it ends
    assert report.count("aEND") == len(fleet_record.steps)
    assert report.count("bEND") == len(fleet_record.findings)
    assert report.count("c END") == len(fleet_record.steps)


def test_junit_system_out_quotes_no_more_than_the_output_budget(fleet_record):
    xml = junit_xml(fleet_record)
    assert 0.9 * OUTPUT_BUDGET < _quoted("a", xml) <= OUTPUT_BUDGET  # was 8 million
    assert xml.count("aEND") == len(fleet_record.steps)


def test_a_share_of_nothing_quotes_nothing():
    """text[-0:] is the whole text: a share of 0 or 1 character quoted the whole stream."""
    text = "head " + "x" * 50_000 + " tail"
    for limit in (0, 1):
        clipped = clip_middle(text, limit)
        assert "x" not in clipped and "50010 characters left out" in clipped, clipped[:200]
