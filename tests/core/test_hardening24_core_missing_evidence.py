"""A check on evidence the host did not give: `that: facts.accept | float > 2` where the log had
no accept length, so the capture matched nothing and facts.accept is None. Jinja's float filter
turns None into 0.0, the check failed and its finding (SD101 here) was raised as if the evidence
showed the fault. Now the step errors and says the capture matched nothing (SD003); a default
given to the filter (`| float(0)`) is still honoured. Through the real CLI on --host local."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PLAYBOOK = """\
name: evidence
steps:
  - id: accept
    run: 'echo "{line}"'
    capture:
      - name: accept
        regex: 'accept length: (?P<accept>[0-9.]+)'
        type: str
    expect:
      - that: {that}
        finding: SD101
"""


def _run(tmp_path, line: str, that: str) -> dict:
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(line=line, that=that))
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=180, env={**os.environ, "COLUMNS": "400"})
    assert "Traceback" not in proc.stderr, proc.stderr
    [record] = (tmp_path / "runs").glob("*/run.json")
    return json.loads(record.read_text())


def _codes(record: dict) -> list[str]:
    return [f["code"] for f in record["findings"]]


def test_a_check_on_a_capture_that_matched_nothing_is_no_finding(tmp_path):
    record = _run(tmp_path, "server started, no metrics yet", "facts.accept | float > 2")
    assert "SD101" not in _codes(record)
    assert "SD003" in _codes(record)
    text = json.dumps(record)
    assert "facts.accept is None (its capture matched nothing" in text


@pytest.mark.parametrize(("line", "that", "raised"), [
    ("accept length: 1.4", "facts.accept | float > 2", True),
    ("accept length: 2.6", "facts.accept | float > 2", False),
    ("no metrics", "facts.accept | float(0) > 2", True),
])
def test_evidence_present_or_a_default_given_still_decides(tmp_path, line, that, raised):
    assert ("SD101" in _codes(_run(tmp_path, line, that))) is raised
