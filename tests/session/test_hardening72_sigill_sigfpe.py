"""A command that SIGILL or SIGFPE ended is a signal failure, named by bash's line for it, as a
SIGSEGV is.

The outputs are real (hardening 72, failures6): bash 5.2 running a script whose python3 raised
SIGILL / SIGFPE / SIGSEGV in itself, exit statuses 132, 136 and 139. bash pads the signal's text to
24 columns, so "Floating point exception" (24 characters) runs straight into the command.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

SIGILL = ('loading model\n/tmp/failures6-scratch/sig.sh: line 2:  8499 Illegal instruction     '
          'python3 -c "import os, signal; os.kill(os.getpid(), signal.SIGILL)"\n')
SIGFPE = ('loading model\n/tmp/failures6-scratch/sig2.sh: line 2:  8554 Floating point exception'
          'python3 -c "import os, signal; os.kill(os.getpid(), signal.SIGFPE)"\n')
SIGSEGV = ('loading model\n/tmp/failures6-scratch/sig3.sh: line 2:  8605 Segmentation fault      '
           'python3 -c "import ctypes; ctypes.string_at(0)"\n')


@pytest.mark.parametrize(("output", "status", "signal", "text"), [
    (SIGILL, 132, "SIGILL", "Illegal instruction"),
    (SIGFPE, 136, "SIGFPE", "Floating point exception"),
    (SIGSEGV, 139, "SIGSEGV", "Segmentation fault"),
])
def test_the_signal_and_bash_line(output: str, status: int, signal: str, text: str):
    # before (SIGILL, SIGFPE): ("exit_code", None, "loading model"), the script's first line
    line = output.splitlines()[1]
    assert [(e.kind, e.exception, e.message) for e in extract_errors(output, status, True)] == [
        ("signal", signal, line)]
    # subprocess's -N for the same signal
    assert [(e.kind, e.exception) for e in extract_errors(output, 128 - status, True)] == [("signal", signal)]
    # a terminal log with no status: bash's line says it
    assert [(e.kind, e.exception, e.message) for e in extract_errors(output, None, False, status_known=False)] == [
        ("signal", text, line)]


def test_prose_about_the_signal_is_no_death():
    assert extract_errors("Floating point exceptions are masked by default\n", None, False, status_known=False) == []


def test_the_session_error_is_the_signal(tmp_path: Path):
    messages = [
        {"role": "user", "content": "Start the drafter eval on this box."},
        {"role": "assistant", "content": "Running it.",
         "tool_calls": [{"id": "a", "type": "function",
                         "function": {"name": "bash", "arguments": json.dumps({"command": "bash sig.sh"})}}]},
        {"role": "tool", "tool_call_id": "a", "content": SIGILL + "[exit code: 132]"},
    ]
    path = tmp_path / "sig.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    assert [(e.kind, e.exception) for e in analyze_path(path).errors] == [("signal", "SIGILL")]
