"""A run whose playbook checks raised: the reports count them, as the console does.

A `that:` comparing text with a number, or naming a fact no step sets, cannot be evaluated:
an SD003 warning each, and the run passes (exit 0, pinned by hardening39/69). The console's
verdict said "2 of the playbook's checks could not be evaluated", but report.md, report.html
and the CI step summary said only "No errors; 2 warning(s) to review", and whoever read the
report pasted in the incident channel took the playbook's checks for answered. The reports'
verdict now says how many of the playbook's checks could not be evaluated, too.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = """\
name: broken
steps:
  - id: word
    run: echo hello
    capture:
      - regex: '(?P<word>\\w+)'
    expect:
      - that: facts.word > 3
      - that: facts.missing == 2
  - id: count
    run: echo 5
    capture:
      - regex: '(?P<n>\\d+)'
        type: int
    expect:
      - that: facts.n > 3
"""


def test_the_reports_count_the_checks_that_could_not_be_evaluated(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    summary = tmp_path / "summary.md"
    result = run_cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path,
                     env={"GITHUB_STEP_SUMMARY": str(summary)})
    run_dir, record = only_run(tmp_path / "runs")
    assert result.code == 0 and record["status"] == "passed", result.stderr  # unchanged
    assert [(f["code"], f["step"]) for f in record["findings"]] == [("SD003", "word"), ("SD003", "word")]
    said = " ".join(result.stderr.split())
    assert "2 of the playbook's checks could not be evaluated (fix them as each step's line says)" in said, said
    md = (run_dir / "report.md").read_text()
    assert md.splitlines()[2] == ("> **Verdict:** No errors; 2 warning(s) to review. 2 of the playbook's checks "
                                  "could not be evaluated (SD003: fix the playbook as each says).")
    assert ("<p>No errors; 2 warning(s) to review. 2 of the playbook&#39;s checks could not be evaluated "
            "(SD003: fix the playbook as each says).</p>") in (run_dir / "report.html").read_text()
    assert "2 of the playbook's checks could not be evaluated" in summary.read_text()


def test_one_broken_check_among_error_findings_is_counted(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.replace("facts.missing == 2", "facts.word == 'bye'"))
    result = run_cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path)
    run_dir, record = only_run(tmp_path / "runs")
    assert result.code == 1 and record["status"] == "failed", result.stderr
    verdict = (run_dir / "report.md").read_text().splitlines()[2]
    assert verdict.endswith(" 1 of the playbook's checks could not be evaluated (SD003: fix the playbook as each says)."), verdict


def test_a_probe_that_could_not_run_is_not_a_broken_check(tmp_path):
    (tmp_path / "p.yaml").write_text("name: p\nsteps:\n  - id: host_info\n    probe: host_info\n"
                                     "    with:\n      python: /nonexistent/python3\n")
    run_cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path)
    run_dir, record = only_run(tmp_path / "runs")
    assert [f["code"] for f in record["findings"]] == ["SD003"]
    assert "could not be evaluated" not in (run_dir / "report.md").read_text().splitlines()[2]
