"""JUnit XML and the GitHub step summary, from a real run."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from tests.conftest import only_run, run_cli

PLAYBOOK = """
name: ci
vars:
  missing_input: ""
steps:
  - id: ok
    run: echo fine
  - id: bad
    run: echo 'accept len 1.02'
    expect:
      - contains: accept len 3
        finding:
          code: SD502
          severity: error
          title: Accept length far below prediction
  - id: needs_input
    requires: [missing_input]
    run: cat {{ missing_input }}
"""


def test_junit_and_github_summary(tmp_path):
    playbook = tmp_path / "ci.yaml"
    playbook.write_text(PLAYBOOK)
    junit = tmp_path / "out" / "junit.xml"
    summary = tmp_path / "summary.md"
    summary.write_text("previous content\n")
    result = run_cli(
        "run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--junit", str(junit),
        env={"GITHUB_STEP_SUMMARY": str(summary)},
    )
    assert result.code == 1, result.stderr
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites"
    [suite] = root.findall("testsuite")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert set(cases) == {"ok", "bad", "needs_input"}
    assert suite.get("tests") == "3" and suite.get("failures") == "1" and suite.get("skipped") == "1"
    [failure] = cases["bad"].findall("failure")
    assert failure.get("message").startswith("SD502")
    assert cases["ok"].find("failure") is None and cases["needs_input"].find("skipped") is not None
    text = summary.read_text()
    assert text.startswith("previous content\n")  # appended, never overwritten
    assert "SD502" in text and "FAILED" in text
    run_dir, _ = only_run(tmp_path / "runs")
    assert str(run_dir / "report.md") in text


def test_json_flag_on_every_result_command(tmp_path):
    import json

    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\nsteps:\n  - id: a\n    run: echo hi\n")
    out = tmp_path / "runs"
    run = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--json")
    record = json.loads(run.stdout)
    run_dir, _ = only_run(out)
    assert json.loads(run_cli("report", str(run_dir), "--json").stdout)["run_id"] == record["run_id"]
    assert json.loads(run_cli("explain", str(playbook), "--json").stdout)["steps"][0]["id"] == "a"
    assert json.loads(run_cli("playbooks", "list", "--json").stdout)
    assert json.loads(run_cli("findings", "SD101", "--json").stdout)["code"] == "SD101"
    samples = Path(__file__).resolve().parents[1] / "data" / "transcripts" / "codex"
    assert json.loads(run_cli("analyze", str(samples), "--json").stdout)["format"] == "codex"
