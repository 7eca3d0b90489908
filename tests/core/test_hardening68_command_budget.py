"""The steps' commands of a fleet run share a budget in report.md and report.html.

Each command was cut to 20,000 characters by itself (the templates' bare `clip`) and nothing
bounded the sum: a step running a 15,000-character inline script, recorded for 100 hosts x 10
steps, put 15 MB of commands into report.md and report.html while their outputs are held to
views.OUTPUT_BUDGET. The commands now share COMMAND_BUDGET as the outputs share theirs (each keeps
its head and tail, a long one an equal share of what the short ones leave); a short command is
shown whole; run.json keeps each.
"""

from __future__ import annotations

import pytest

from spec_debug.report import render_report
from spec_debug.report.views import COMMAND_BUDGET
from spec_debug.store import load_record
from tests.conftest import run_cli


@pytest.fixture(scope="module")
def fleet_record(tmp_path_factory):
    """A real run on one local host, its step repeated as 100 hosts x 10 steps would record it."""
    folder = tmp_path_factory.mktemp("commands")
    (folder / "p.yaml").write_text(
        "name: cm\nsteps:\n  - id: s1\n    run: \"echo out; true START" + "y" * 15_000 + "END\"\n")
    run_cli("run", str(folder / "p.yaml"), "--host", "local", "--out", str(folder / "runs"))
    record = load_record(next((folder / "runs").glob("*/run.json")))
    (step,) = record.steps
    assert step.status == "passed" and len(step.command) > 15_000
    names = [f"gpu{n:03d}" for n in range(100)]
    record.hosts = [record.hosts[0].model_copy(update={"name": name}) for name in names]
    record.steps = [step.model_copy(update={"host": name, "id": f"s{k}"}) for name in names for k in range(10)]
    return record


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_commands_of_a_fleet_fit_the_budget_and_keep_head_and_tail(fleet_record, fmt):
    report = render_report(fleet_record, fmt)
    # 1,000 commands x 15,000 characters each was 15 MB
    assert len(report) < COMMAND_BUDGET + 1_500_000, len(report)
    assert report.count("true START") == 1_000
    assert report.count("yEND") == 1_000
    assert report.count("characters left out of this report; run.json holds them") == 1_000


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_a_single_hosts_long_command_is_shown_whole(fleet_record, fmt):
    one = fleet_record.model_copy(update={"hosts": fleet_record.hosts[:1], "steps": fleet_record.steps[:1]})
    report = render_report(one, fmt)
    assert "echo out; true START" + "y" * 15_000 + "END" in report
    assert "left out of this report" not in report
