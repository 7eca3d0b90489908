"""A ``watch`` screen in a script(1) typescript: its rows are painted by cursor moves.

procps watch (ncurses) writes its screen on the alternate screen with no newline between rows:
the title row, then ``\\x1b[3;1H`` (CUP) or ``\\x1b[4d`` (VPA) before each row of what the command
printed (procps watch 4.0.2 under util-linux script 2.38.1). watch_screen.typescript is bash 5.2's
``watch -n1 nvidia-smi`` on a host whose driver is gone, stopped with Ctrl-C.

Before: the screen was one line, so the error was read with the title row and clock glued in
front ("Every 1.0s: nvidia-smigpu01: Mon Dec  7 14:18:35 2026NVIDIA-..."). Now each row the
program moved to is a line, and the error is nvidia-smi's own line."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h74_exit"


def test_each_row_of_the_watch_screen_is_a_line() -> None:
    a = analyze_path(DATA / "watch_screen.typescript")
    watch = [c for c in a.commands if c.command == "watch -n1 nvidia-smi"]
    assert [(c.host, c.category) for c in watch] == [("gpu01", watch[0].category)]
    gpu = [e for e in a.errors if e.seq == watch[0].seq]
    assert [(e.kind, e.message) for e in gpu] == [
        ("cuda_error", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.")]
    assert [e.kind for e in a.errors] == ["cuda_oom", "traceback", "cuda_error"]
