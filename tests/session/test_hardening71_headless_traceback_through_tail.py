"""A Python program that died through `| tail -3`: the tail cut the traceback's header, its frames
and exception line are what is left (recorded, CPython 3.11.7, bash 5.2.15: ``python3 barcrash.py
2>&1 | tail -3``, the pipeline's status 0). The traceback whose header was kept already failed a
Claude Code call (test_hardening71_traceback_through_tail); this one, read as a headless
traceback, was no failure. A log read back the same way, and a program that printed on after the
traceback, still are none."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening67_install_folder import _session

TAIL_3 = ("  File \"/tmp/textlogs8-scratch/rec/barcrash.py\", line 6, in <module>\n"
          "    raise RuntimeError(\"CUDA error: out of memory\")\n"
          "RuntimeError: CUDA error: out of memory\n")
STEPS = [  # (command, output, failed)
    ("python3 barcrash.py 2>&1 | tail -3", TAIL_3, True),
    ("tail -3 /tmp/barcrash.log", TAIL_3, False),
    ("python3 barcrash.py 2>&1 | tail -4", TAIL_3 + "retrying on the CPU\n", False),
]


def test_a_traceback_the_tail_cut_the_header_of_failed_the_run(tmp_path: Path) -> None:
    analysis = analyze_path(_session(tmp_path / "s.jsonl", [(c, out, "/root") for c, out, _ in STEPS]))
    assert [(c.command, c.exit_code, c.is_error) for c in analysis.commands] == [(c, 0, f) for c, _, f in STEPS]
    assert [e.message for e in analysis.errors] == ["CUDA error: out of memory"] * 3
