"""`spec-debug run p.yaml --retry-failed runs` (the folder of runs, not one run in it).

The hint named the latest run as "the latest: spec-debug report runs/<id>": another command
than the one being typed, and the engineer who pasted it got a report where a retry was meant.
It names it for --retry-failed now; `spec-debug report runs` keeps its own. Through the real CLI
on --host local.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli


def test_the_folder_of_runs_names_its_latest_run_for_retry_failed(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\nsteps:\n  - id: disk\n    run: exit 1\n", encoding="utf-8")
    out = tmp_path / "runs"
    assert run_cli("run", str(playbook), "--host", "local", "--out", str(out)).code == 1
    run_dir, _ = only_run(out)

    result = run_cli("run", str(playbook), "--retry-failed", str(out), "--out", str(tmp_path / "again"))
    assert result.code == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert f"error: no run record at {out / 'run.json'}" in result.stderr, result.stderr
    assert f"hint: {out} holds 1 run(s); the latest: --retry-failed {run_dir}" in result.stderr, result.stderr
    assert "spec-debug report" not in result.stderr, result.stderr
    assert not (tmp_path / "again").exists()

    report = run_cli("report", str(out))
    assert f"the latest: spec-debug report {run_dir}" in report.stderr, report.stderr
