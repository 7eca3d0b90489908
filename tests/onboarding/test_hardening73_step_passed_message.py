"""`run --step` told a step's message only when the step did not pass. A passed step's message
says what it left behind or passed over, and the plain run's progress line shows it: "not
copied: .../sub.log (a folder); fetch copies regular files: ...", "artifact limit reached:
artifacts/local/big.stdout.log lacks N bytes from its middle (raise --artifact-limit ...)". At
--step the user read "passed" and nothing of it. It now follows the step's words, as on the
progress line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


def _said(tmp_path: Path, playbook: str, *extra: str) -> list[str]:
    (tmp_path / "p.yaml").write_text(playbook)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--step", "-o", "runs",
                           *extra], capture_output=True, text=True, cwd=tmp_path, input="r\nr\n", timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})
    assert proc.returncode == 0, proc.stderr
    return [line for line in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stderr).splitlines() if line.startswith("→ ")]


def test_a_fetch_that_passed_over_a_folder_says_so(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    (logs / "sub.log").mkdir(parents=True)
    (logs / "a.log").write_text("a\n")
    said = _said(tmp_path, f"name: p\nsteps:\n  - id: grab\n    fetch: {{src: '{logs}/*.log'}}\n")
    assert len(said) == 1
    # cut where the progress line cuts it (NOTE_LIMIT), the whole in run.json
    assert said[0].startswith(f"→ grab passed: copied artifacts/local/a.log (in the run folder). {logs}/*.log: not copied: "
                              f"{logs}/sub.log (a folder); fetch copies regular files"), said


def test_a_command_whose_output_was_cut_at_the_artifact_limit_says_so(tmp_path: Path) -> None:
    said = _said(tmp_path, "name: p\nsteps:\n  - id: big\n    run: seq 1 3000\n",
                 "--capture-limit", "100", "--artifact-limit", "200")
    assert len(said) == 1
    assert said[0].startswith("→ big passed: its command exited 0 (a step with no expect: checks nothing more). "
                              "artifact limit reached: artifacts/local/big.stdout.log lacks "), said
    assert said[0].endswith(" bytes from its middle (raise --artifact-limit or the step's artifact_limit to keep more)")
