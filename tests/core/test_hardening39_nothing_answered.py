"""A run, or a host of a fleet, where no step ran to an answer: each probe could not run (the
host's Python is missing: every probe its own SD003), or timed out.

Each such step is a warning, so the run "PASSED" in green with "No errors; 7 warning(s) to
review", and an on-call engineer skimming the banner read a clean bill for a host on which
nothing was looked at. The steps, their statuses, findings and the exit code are unchanged;
the verdict (console and reports) now says that nothing was checked, and where, as it already
did when every step was skipped. Through the real CLI; the fleet's hosts connect with
ansible_connection=local.
"""

from __future__ import annotations

import sys

from tests.conftest import only_run, run_cli

PLAYBOOK = """\
name: p
vars:
  python: python3
steps:
  - id: host_info
    probe: host_info
    with:
      python: "{{ python }}"
  - id: engine
    probe: engine_info
    with:
      python: "{{ python }}"
"""


def _said(result) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    return " ".join(result.stderr.split())


def test_a_host_whose_python_is_missing_is_not_a_clean_bill(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--var", "python=/nonexistent/python3", "--out", str(out))
    run_dir, record = only_run(out)
    # The record and the exit code are as before: a warning each, the run passed.
    assert result.code == 0 and record["status"] == "passed"
    assert [(s["id"], s["status"]) for s in record["steps"]] == [("host_info", "error"), ("engine", "error")]
    assert [(f["code"], f["step"]) for f in record["findings"]] == [("SD003", "host_info"), ("SD003", "engine")]
    said = _said(result)
    assert "PASSED: 0 error(s), 2 warning(s) · nothing was checked: no step ran to an answer" in said, said
    report = " ".join((run_dir / "report.md").read_text().split())
    assert ("> **Verdict:** Nothing was checked: no step ran to an answer (2 could not run); first, host_info: "
            "probe host_info printed no JSON (exit code 127)") in report, report[:600]
    assert "/nonexistent/python3" in report.split("## Findings")[0]  # the cause, in the banner
    assert "No errors; 2 warning(s)" not in report


def test_a_fleet_says_which_host_was_not_checked(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"gpu01 ansible_connection=local python={sys.executable}\n"
                         "gpu02 ansible_connection=local python=/nonexistent/python3\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "-i", str(inventory), "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    statuses = {(s["host"], s["id"]): s["status"] for s in record["steps"]}
    assert statuses[("gpu01", "host_info")] == "passed" and statuses[("gpu02", "host_info")] == "error"
    said = _said(result)
    assert "nothing was checked on gpu02: no step ran to an answer" in said, said
    report = " ".join((run_dir / "report.md").read_text().split())
    assert ("> **Verdict:** No errors; 2 warning(s) to review. "
            "Nothing was checked on gpu02: no step ran to an answer.") in report
    # The fleet table gives the host a cause, as it does an unreachable one.
    assert "| `gpu02` | passed | 0 | 2 | no step ran to an answer |" in report, report
    assert "| `gpu01` | passed | 0 | 0 | |" in report, report
    assert "<td>no step ran to an answer</td>" in (run_dir / "report.html").read_text()


def test_a_host_that_ran_its_steps_is_still_clean(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--var", f"python={sys.executable}", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0 and [s["status"] for s in record["steps"]] == ["passed", "passed"], result.stderr
    assert "nothing was checked" not in _said(result).lower()
    assert "> **Verdict:** Clean: no error or warning findings." in (run_dir / "report.md").read_text()
