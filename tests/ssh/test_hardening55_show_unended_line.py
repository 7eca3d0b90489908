"""`--show-output` while a step waits after a line that has no end yet.

A prompt (`read -p "Overwrite? "`), `printf 'Loading weights... '` before a long load, or dots
added to one line are printed with neither "\\n" nor "\\r" after them. Lines were shown as they
ended (and "\\r" redraws as they came: test_hardening53_live_progress), so the live view showed
nothing until the line ended, as if the host were hung, where `ssh host cmd` shows the text at
once. Now an open line is shown once nothing more has come for QUIET_LINE_S, and a line that
keeps growing every PROGRESS_EVERY_S; the whole line still comes when it ends. Over a real sshd
and on this machine, the CLI in a child process, its stderr read as it comes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sshd_fixture import ClientSetup

PLAYBOOK = """name: prompt
description: t
steps:
  - id: load
    title: load
    why: load
    run: |
      printf 'Loading weights... ' >&2; sleep 5; echo done >&2
"""


@pytest.mark.parametrize("host", ["target", "local"])
def test_a_line_with_no_end_yet_is_shown_once_quiet(client: ClientSetup, tmp_path: Path, host: str) -> None:
    (tmp_path / "prompt.yaml").write_text(PLAYBOOK)
    env = {**os.environ, "HOME": str(client.home), "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    child = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(tmp_path / "prompt.yaml"), "--host", host, "--batch",
         "--show-output", "--out", str(tmp_path / "runs")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    seen: list[tuple[float, str]] = []
    assert child.stderr is not None
    for line in child.stderr:
        seen.append((time.monotonic(), line.rstrip("\n")))
    assert child.wait(timeout=60) == 0, seen
    shown = [(at, line.rstrip()) for at, line in seen if "load| " in line]
    (finished,) = [at for at, line in seen if "passed load" in line]
    assert [line.split("load| ", 1)[1] for _, line in shown] == ["Loading weights...", "Loading weights... done"], seen
    assert finished - shown[0][0] > 2, seen  # shown while the step waited, not when its line ended


def test_an_unended_line_is_shown_once_per_change_and_not_before_the_quiet_spell() -> None:
    from spec_debug.runner import output
    from spec_debug.runner.output import StreamCapture

    seen: list[str] = []
    capture = StreamCapture("stdout", on_line=lambda _name, line: seen.append(line))
    capture.write(b"Overwrite? ")
    capture.show_unended()
    assert seen == []  # it may end in a moment: not yet
    time.sleep(output.QUIET_LINE_S + 0.1)
    capture.show_unended()
    capture.show_unended()
    assert seen == ["Overwrite? "]
    capture.write(b"y\n")
    assert seen == ["Overwrite? ", "Overwrite? y"]
    capture.write(b"   ")
    time.sleep(output.QUIET_LINE_S + 0.1)
    capture.show_unended()
    assert seen == ["Overwrite? ", "Overwrite? y"]  # blanks alone are not a line worth showing


def test_a_last_line_with_no_end_already_shown_is_not_shown_again_at_the_end() -> None:
    from spec_debug.runner import output
    from spec_debug.runner.output import StreamCapture

    seen: list[str] = []
    capture = StreamCapture("stdout", on_line=lambda _name, line: seen.append(line))
    capture.write(b"Overwrite? ")
    time.sleep(output.QUIET_LINE_S + 0.1)
    capture.show_unended()
    capture.close()
    assert seen == ["Overwrite? "]
    assert capture.text() == "Overwrite? "  # the record keeps it once, as printed
