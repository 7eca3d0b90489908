"""A run whose run.json fills the disk says how to write its reports once there is room: one
pasteable `spec-debug report DIR -o FILE` per report. The hint said "`spec-debug report DIR`
writes the reports", which prints Markdown to the terminal and writes no file."""

from __future__ import annotations

import shlex

from tests.core.test_hardening10_full_disk_record import run_on_small_disk
from tests.core.test_record_faults import needs_tmpfs

pytestmark = needs_tmpfs


def test_a_cut_record_hint_gives_one_report_command_per_report(tmp_path):
    playbook = tmp_path / "big.yaml"
    playbook.write_text("name: big\nsteps:\n  - id: small\n    run: echo ok\n"
                        "  - id: big\n    run: seq 1 400000\n")  # spilled; 256 KiB kept in the record
    proc, run_dir = run_on_small_disk(tmp_path, playbook, "250k")
    assert "Traceback" not in proc.stderr and proc.returncode == 3, proc.stderr[-2000:]
    hint = next(line for line in proc.stderr.splitlines() if "free some space there" in line)
    commands = [shlex.split(part) for part in hint.split("then: ", 1)[1].split("; ")]
    assert [c[:2] for c in commands] == [["spec-debug", "report"]] * 2, hint
    folders = {c[2] for c in commands}
    assert len(folders) == 1 and folders.pop().endswith(f"/runs/{run_dir.name}"), hint
    assert [(c[3], c[4].rsplit("/", 1)[1]) for c in commands] == [("-o", "report.md"), ("-o", "report.html")], hint
