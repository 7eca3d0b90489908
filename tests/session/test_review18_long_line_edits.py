"""A terminal log with a huge line of cursor edits (a redraw loop, junk) is read in the time of
the line, not of the line times its edits."""

import time
from pathlib import Path

from spec_debug.session.analysis import analyze_path


def test_long_line_of_inserts_is_read_quickly(tmp_path: Path):
    # 200k characters shown, then 3,000 "insert 1000 blanks" sequences (ECMA-48 ICH) at column 0
    line = "$ " + "x" * 200_000 + "\r" + "\x1b[1000@" * 3_000
    log = tmp_path / "typescript.log"
    log.write_text("$ echo hi\nhi\n" + line + "\ndone\n")
    # This thread's CPU time, not the wall clock: on a loaded machine the worker waits off the CPU
    # for seconds around this call (0.08 s of CPU took 25 s of wall time here at load 11).
    started = time.thread_time()
    analysis = analyze_path(log)
    assert time.thread_time() - started < 10  # ~0.1 s; shifting the whole line per edit took minutes
    assert analysis.commands


def test_short_line_edits_still_apply(tmp_path: Path):
    # readline: "nvidia-smo", left arrow, delete, "i" inserted: the shell ran nvidia-smi
    log = tmp_path / "typescript.log"
    log.write_text("$ nvidia-smo\x1b[1D\x1b[1P\x1b[1@i\nNo devices were found\n")
    analysis = analyze_path(log)
    assert [c.command for c in analysis.commands] == ["nvidia-smi"]
