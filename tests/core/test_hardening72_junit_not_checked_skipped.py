"""--junit: a step whose only findings say its check gave no answer (SD003: a `that:` that raised,
a probe that could not run; SD002: it timed out) is a <skipped> case. Those findings are
warnings: the run exits 0 and says PASSED, while junit.xml counted each as a <failure>, and CI
went red over a run that passed. A warning that is a real finding (a playbook's own check at
severity warning) stays a <failure>. Through the real CLI, real local steps; parsed with
xml.etree."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

PLAYBOOK = r'''name: not_checked
steps:
  - id: textnum
    run: echo "loss=abc"
    capture:
      - regex: 'loss=(?P<loss>\S+)'
    expect:
      - that: facts.loss < 5
  - id: slow
    run: sleep 30
    timeout: 1
  - id: disk
    run: echo "free=3"
    capture:
      - regex: 'free=(?P<free>\d+)'
        type: int
    expect:
      - that: facts.free > 10
        finding:
          code: SD901
          severity: warning
          title: "Only {{ facts.free }} GB free"
  - id: ok
    run: echo fine
'''


def _run(tmp_path, playbook: str) -> tuple[subprocess.CompletedProcess[str], ET.Element]:
    (tmp_path / "p.yaml").write_text(playbook)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--out", "runs", "--junit", "j.xml"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    (suite,) = ET.parse(tmp_path / "j.xml").getroot()
    return proc, suite


def test_steps_that_could_not_check_are_skipped_cases_and_a_real_warning_still_fails(tmp_path):
    proc, suite = _run(tmp_path, PLAYBOOK)
    assert proc.returncode == 0, proc.stderr
    assert "PASSED" in proc.stderr
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped")) == ("4", "1", "0", "2")
    cases = {case.get("name"): case for case in suite.findall("testcase")}

    textnum = cases["textnum"]
    assert textnum.find("failure") is None
    assert textnum.find("skipped").get("message") == (
        "SD003 The playbook's check could not be evaluated: that facts.loss < 5: step 'textnum', expect.that: expression "
        "'facts.loss < 5' failed: facts.loss is the text 'abc', not a number (TypeError: '<' not supported between "
        "instances of 'str' and 'int')")
    # the finding's whole text (evidence, then its fix) is kept as a <failure> kept it
    assert textnum.find("skipped").text.startswith("step 'textnum', expect.that: expression 'facts.loss < 5' failed")
    assert "\n\nfix: " in textnum.find("skipped").text

    slow = cases["slow"]
    assert slow.find("failure") is None and slow.find("error") is None
    assert slow.find("skipped").get("message").startswith("SD002 A step timed out: ")

    (failure,) = cases["disk"].findall("failure")
    assert failure.get("message") == "SD901 Only 3 GB free" and failure.get("type") == "warning"
    assert cases["disk"].find("skipped") is None
    assert list(cases["ok"]) == [cases["ok"].find("system-out")]


def test_a_step_with_a_failed_check_beside_one_that_raised_is_still_a_failure(tmp_path):
    """One expectation fails at severity error, another could not be evaluated: a failure listing
    both (the run exits 1), not a skipped case."""
    playbook = r'''name: mixed
steps:
  - id: both
    run: echo "loss=abc"
    capture:
      - regex: 'loss=(?P<loss>\S+)'
    expect:
      - that: facts.loss < 5
      - contains: "loss=1"
'''
    proc, suite = _run(tmp_path, playbook)
    assert proc.returncode == 1, proc.stderr
    assert (suite.get("failures"), suite.get("skipped")) == ("1", "0")
    (case,) = suite.findall("testcase")
    assert [f.get("message").split()[0] for f in case.findall("failure")] == ["SD003", "SD001"]
