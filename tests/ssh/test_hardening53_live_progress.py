"""`--show-output` while a step draws a progress bar: tqdm ("Loading checkpoint shards", vLLM's
CUDA graph capture), pip and huggingface_hub downloads redraw one line with "\\r" and end it only
when the bar is done. Lines were shown as they ended, so for the minutes a model loaded the
live view showed nothing, as if the host were hung (`ssh host cmd` shows the bar moving). Now the
bar's latest redraw is shown at once and then every PROGRESS_EVERY_S; the finished line still
comes at its end, and the record keeps the whole stream. Over a real sshd, the CLI in a child
process, its stderr read as it comes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.sshd_fixture import ClientSetup

PLAYBOOK = """name: bar
description: t
steps:
  - id: load
    title: load
    why: load
    run: |
      for i in 1 2 3 4 5 6; do printf '\\rLoading checkpoint shards: %d/6' $i >&2; sleep 1; done; echo >&2
"""


def test_a_progress_bar_redrawn_with_cr_is_shown_while_it_runs(client: ClientSetup, tmp_path: Path) -> None:
    (tmp_path / "bar.yaml").write_text(PLAYBOOK)
    env = {**os.environ, "HOME": str(client.home), "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    child = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(tmp_path / "bar.yaml"), "--host", "target", "--batch",
         "--show-output", "--out", str(tmp_path / "runs")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    seen: list[tuple[float, str]] = []
    assert child.stderr is not None
    for line in child.stderr:
        seen.append((time.monotonic(), line.rstrip("\n")))
    assert child.wait(timeout=60) == 0, seen
    shown = [(at, line) for at, line in seen if "load| " in line]
    (finished,) = [at for at, line in seen if "passed load" in line]
    assert shown and shown[0][1].endswith("load| Loading checkpoint shards: 1/6"), seen
    assert finished - shown[0][0] > 3, seen  # shown while the bar ran, not when its line ended
    assert shown[-1][1].endswith("load| Loading checkpoint shards: 6/6"), seen
    assert len(shown) <= 3, seen  # not one line per redraw


def test_a_crlf_line_end_split_between_reads_is_not_shown_twice() -> None:
    from spec_debug.runner.output import StreamCapture

    seen: list[str] = []
    capture = StreamCapture("stdout", on_line=lambda _name, line: seen.append(line))
    for chunk in (b"ready\r", b"\n", b"\r  0%|", b"\r 50%|", b"\n"):
        capture.write(chunk)
    assert seen == ["ready\r", "  0%|", "\r  0%|\r 50%|"]
