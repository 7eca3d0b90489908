"""junit.xml's system-out/system-err share the reports' output budget.

Each test case kept the last 10,000 characters of its step's stdout and of its stderr, and
nothing bounded the sum: a run on 100 hosts x 10 steps printing 15,000 characters each wrote
10 MB of system-out (200 hosts x 30 steps of long logs: 120 MB), while report.md and report.html
hold the same outputs to views.OUTPUT_BUDGET. The streams now share that budget (views.output_limit,
each long stream keeping an equal share of what the short ones leave, its tail); a small run keeps
10,000 characters as before.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from spec_debug.report.junit import OUTPUT_TAIL, junit_xml
from spec_debug.report.views import OUTPUT_BUDGET
from spec_debug.store import load_record
from tests.conftest import run_cli


@pytest.fixture(scope="module")
def one_host_record(tmp_path_factory):
    folder = tmp_path_factory.mktemp("junitout")
    (folder / "p.yaml").write_text(
        "name: jo\nsteps:\n  - id: s1\n    run: python3 -c \"print('x' * 15000 + 'END')\"\n")
    run_cli("run", str(folder / "p.yaml"), "--host", "local", "--out", str(folder / "runs"))
    record = load_record(next((folder / "runs").glob("*/run.json")))
    assert len(record.steps) == 1 and len(record.steps[0].stdout) > 15_000
    return record


def _fleet(record, hosts, steps):
    (step,) = record.steps
    names = [f"gpu{n:03d}" for n in range(hosts)]
    fleet = record.model_copy(deep=True)
    fleet.hosts = [record.hosts[0].model_copy(update={"name": name}) for name in names]
    fleet.steps = [step.model_copy(update={"host": name, "id": f"s{k}"}) for name in names for k in range(steps)]
    return fleet


def test_a_fleets_system_out_fits_the_output_budget_and_keeps_each_tail(one_host_record):
    fleet = _fleet(one_host_record, 100, 10)
    text = junit_xml(fleet)
    # 1,000 streams x 10,000 characters each was 10 MB
    assert len(text) < OUTPUT_BUDGET + 500_000, len(text)
    outs = ET.fromstring(text.split("\n", 1)[1]).findall(".//system-out")
    assert len(outs) == 1_000
    assert all(out.text.endswith("xEND\n") for out in outs)  # the tail, where the error is
    assert {len(out.text) for out in outs} == {OUTPUT_BUDGET // 1_000}


def test_a_small_run_keeps_the_last_ten_thousand_characters(one_host_record):
    (out,) = ET.fromstring(junit_xml(one_host_record).split("\n", 1)[1]).findall(".//system-out")
    assert OUTPUT_TAIL == 10_000
    assert out.text == one_host_record.steps[0].stdout[-10_000:]
