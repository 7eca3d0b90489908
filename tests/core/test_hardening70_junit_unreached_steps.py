"""JUnit: every planned step of every host is a test case. A host that could not be reached, or
whose run was stopped, left out the steps it never reached, so CI (Jenkins, GitLab count a
suite's tests from its <testcase> elements) showed fewer tests than the playbook has."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from spec_debug.record import HostRecord, PlaybookRef, RunRecord, StepRecord
from spec_debug.report.junit import junit_xml
from tests.conftest import run_cli

PLAYBOOK = """
name: ci3
steps:
  - id: first
    run: echo one
  - id: second
    run: echo two
  - id: third
    run: echo three
"""


def _suites(root: ET.Element) -> dict[str, ET.Element]:
    return {s.get("name").split("@", 1)[1]: s for s in root.findall("testsuite")}


def test_unreachable_host_lists_every_step_as_skipped(tmp_path):
    playbook = tmp_path / "ci3.yaml"
    playbook.write_text(PLAYBOOK)
    junit = tmp_path / "junit.xml"
    # port 1 on loopback refuses at once
    result = run_cli("run", str(playbook), "--host", "local", "--host", "root@127.0.0.1:1", "--batch",
                     "--out", str(tmp_path / "runs"), "--junit", str(junit))
    assert result.code == 3, result.stderr
    suites = _suites(ET.parse(junit).getroot())
    local, far = suites["local"], suites["root@127.0.0.1:1"]
    assert [c.get("name") for c in local.findall("testcase")] == ["first", "second", "third"]
    assert local.get("tests") == "3" and local.get("skipped") == "0"
    cases = far.findall("testcase")
    assert [c.get("name") for c in cases] == ["connect", "first", "second", "third"]
    assert far.get("tests") == "4" and far.get("errors") == "1" and far.get("skipped") == "3"
    for case in cases[1:]:
        [skipped] = case.findall("skipped")
        assert skipped.get("message").startswith("not run: ")
        assert case.find("error") is None


def _record(host_status: str, steps: list[StepRecord], error: str | None = None, abort: str | None = None) -> RunRecord:
    return RunRecord(
        run_id="r1", playbook=PlaybookRef(name="pb", path="pb.yaml", sha256="0" * 64), started_at="2026-01-01T00:00:00Z",
        status="aborted" if abort else "failed", abort_reason=abort,
        hosts=[HostRecord(name="h1", status=host_status, error=error)], steps=steps,
    )


def test_aborted_host_lists_the_steps_after_the_stop():
    done = StepRecord(id="a", host="h1", status="passed", duration_s=1.0)
    record = _record("aborted", [done], error="interrupted (SIGTERM)", abort="interrupted (SIGTERM)")
    [suite] = ET.fromstring(junit_xml(record, ["a", "b", "c"])).findall("testsuite")
    names = [c.get("name") for c in suite.findall("testcase")]
    assert names == ["a", "run", "b", "c"]
    assert suite.get("tests") == "4" and suite.get("skipped") == "2" and suite.get("errors") == "1"
    messages = [c.find("skipped").get("message") for c in suite.findall("testcase")[2:]]
    assert messages == ["not run: interrupted (SIGTERM)"] * 2


def test_dropped_connection_lists_the_steps_after_it():
    dropped = StepRecord(id="b", host="h1", status="error", message="connection lost")
    record = _record("error", [StepRecord(id="a", host="h1", status="passed"), dropped], error="connection to h1 lost")
    [suite] = ET.fromstring(junit_xml(record, ["a", "b", "c", "d"])).findall("testsuite")
    assert [c.get("name") for c in suite.findall("testcase")] == ["a", "b", "c", "d"]
    assert suite.get("tests") == "4" and suite.get("skipped") == "2" and suite.get("errors") == "1"
    assert suite.findall("testcase")[3].find("skipped").get("message") == "not run: connection to h1 lost"


def test_without_the_playbook_the_steps_other_hosts_ran_are_planned():
    steps = [StepRecord(id=i, host="h0", status="passed") for i in ("a", "b")]
    record = _record("error", steps, error="could not connect")
    record.hosts.insert(0, HostRecord(name="h0", status="passed"))
    suites = _suites(ET.fromstring(junit_xml(record)))
    assert [c.get("name") for c in suites["h1"].findall("testcase")] == ["connect", "a", "b"]
    assert suites["h0"].get("tests") == "2" and suites["h0"].get("skipped") == "0"
