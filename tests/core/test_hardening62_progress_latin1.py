"""The live progress of a run showed a byte that is no UTF-8 (a host alias or a --var typed in
a Latin-1 shell: Python holds it as the surrogate U+DCE9, PEP 383) as stderr's backslashreplace
`h\\udce9`, while run.json, the reports and the run's error/summary lines (stop 48,
cli_common.shown_text) show `h\\xe9`. Step lines, finding titles, host error lines and the
--step panel now show it as the records do."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

from rich.console import Console

from spec_debug.playbook.loader import load_playbook_text
from spec_debug.record import StepRecord
from spec_debug.stepthrough import TerminalGate
from tests.conftest import run_cli
from tests.core.test_hardening61_stderr_latin1_path import latin1_folder  # noqa: F401 (a fixture)

PLAYBOOK = """\
name: latin
vars:
  dir: /tmp
steps:
  - id: check
    run: echo x
    expect:
      - that: "false"
        finding: {code: SD900, severity: warning, title: "nothing in {{ dir }}"}
"""


def test_a_finding_title_and_a_host_error_show_the_byte_as_run_json_does(latin1_folder: Path) -> None:
    playbook = latin1_folder / "p.yaml"
    playbook.write_text(PLAYBOOK)
    done = run_cli("run", str(playbook), "--host", "local", "--host", os.fsdecode(b"h\xe9"),
                   "--var", f"dir={latin1_folder}", "--out", str(latin1_folder / "runs"), real_process=True)
    (record_path,) = (latin1_folder / "runs").glob("*/run.json")
    record = json.loads(record_path.read_text(encoding="utf-8"))
    title = next(f["title"] for f in record["findings"] if f["code"] == "SD900")
    assert title.endswith("r\\xe9s")
    lines = done.stderr.splitlines()
    assert f"local         SD900 {title}" in lines, done.stderr
    assert any(line.startswith("host h\\xe9 error: h\\xe9: ") for line in lines), done.stderr
    assert not any("h\\udce9 error" in line or "r\\udce9s" in line for line in lines), done.stderr


def test_the_step_panel_and_its_outcome_show_the_byte_as_run_json_does() -> None:
    step = load_playbook_text(PLAYBOOK).steps[0]
    out = io.StringIO()
    gate = TerminalGate(Console(file=out, emoji=False, width=200), stdin=io.StringIO("r\n"))
    host = os.fsdecode(b"gpu\xe9")
    assert gate.before_step(host, step, os.fsdecode(b"cat /srv/caf\xe9/log")) == "run"
    gate.after_step(host, step, StepRecord(id="check", host=host, status="failed", duration_s=0.1,
                                           message=os.fsdecode(b"no such file /srv/caf\xe9/log")), [])
    shown = out.getvalue()
    assert "Command on gpu\\xe9:" in shown and "cat /srv/caf\\xe9/log" in shown, shown
    assert "failed: no such file /srv/caf\\xe9/log" in shown, shown
    assert "\\udce9" not in shown and "\udce9" not in shown
