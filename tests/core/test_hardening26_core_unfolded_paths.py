"""The lines `spec-debug run` ends with are never folded inside a path or a run id.

rich folds a line at the console's width (80 off a terminal) and splits a word longer than
that: with a long --out, a CI log or a redirected stderr read
"report: /.../of_the_incident_team_2026/20261\\n201T163020772Z-okp-b5c4552b/report.md", a path
that pasted back does not exist. The run id line, the verdict with the report paths and a host's
error and hint are printed whole (soft-wrapped: a terminal still wraps them on screen).
"""

from __future__ import annotations

from rich.console import Console

from spec_debug.cli_progress import ConsoleReporter
from spec_debug.record import HostRecord
from tests.conftest import run_cli


def test_the_report_paths_and_the_run_id_stay_on_one_line_under_a_long_out(tmp_path, write_playbook):
    playbook = write_playbook("name: p\nsteps:\n  - id: one\n    run: echo hi\n")
    out = tmp_path / ("incident_" + "x" * 200)  # longer than the 200 columns run_cli gives
    out.mkdir()
    result = run_cli("run", str(playbook), "--host", "local", "-o", str(out))
    assert result.code == 0, result.stderr
    run_dir = next(out.iterdir())
    lines = result.stderr.splitlines()
    assert any(line.endswith(f"→ {run_dir.name}") for line in lines), result.stderr
    verdict = next(line for line in lines if line.startswith("PASSED"))
    assert f"report: {run_dir / 'report.md'} · {run_dir / 'report.html'}" in verdict, result.stderr


def test_a_host_error_and_its_hint_are_not_folded_inside_a_command():
    console = Console(width=40, record=True, force_terminal=False)
    key = "/home/someone/.ssh/keys/cluster_ed25519_2026_incident_rotation"
    host = HostRecord(name="gpu01", status="error", error=f"cannot read the key {key}",
                      hint=f"chmod 600 {key}")
    ConsoleReporter(console, spinner=False).host_finished(host)
    shown = console.export_text()
    assert f"chmod 600 {key}\n" in shown and f"the key {key}\n" in shown, shown
