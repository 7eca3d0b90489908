"""A build or a test run whose failure a pipe hid: `make -j8 2>&1 | tail -5` has tail's status, 0
(bash(1), "Pipelines"), so Claude Code's Bash call is no error; only pip's give-up line was read
as the install's failure there. GNU make's `make: *** [Makefile:12: kernels.o] Error 1`, pytest's
`===== 1 failed, 12 passed in 3.21s =====`, cargo's `error: could not compile ...` and ninja's
`ninja: build stopped: subcommand failed.` were no failure and no error: the session's failed
build was missing from the analysis. In a terminal log, where no status is recorded, the same
runs (not piped) were no failure either. Each of these last lines is printed only on a failure
(make exits 2, pytest 1 or 2, cargo 101, ninja 1).

A log of such a run read back (`tail -5 build.log`) did not fail: its errors are the build's."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from tests.session.test_hardening67_install_folder import _session

MAKE = ("nvcc -O2 -c kernels.cu -o kernels.o\nkernels.cu(12): error: identifier \"draft_len\" is undefined\n"
        "1 error detected in the compilation of \"kernels.cu\".\nmake: *** [Makefile:12: kernels.o] Error 2")
MAKE_K = "g++ -c a.cc\na.cc:3:1: error: expected ';' before '}' token\nmake: Target 'all' not remade because of errors."
PYTEST = ("FAILED tests/test_draft.py::test_accept_length - AssertionError: assert 1.1 > 2.0\n"
          "========================= 1 failed, 12 passed in 3.21s =========================")
PYTEST_4 = ("FAILED tests/test_draft.py::test_accept_length - AssertionError\n"
            "=================== 1 failed, 12 passed in 3.21 seconds ===================")
PYTEST_Q = "ERROR tests/test_draft.py - ModuleNotFoundError: No module named 'sglang'\n1 error in 0.42s"
CARGO = ("error[E0425]: cannot find value `x` in this scope\n --> src/main.rs:2:5\n\n"
         "For more information about this error, try `rustc --explain E0425`.\n"
         "error: could not compile `spec` (bin \"spec\") due to 1 previous error")
NINJA = ("[3/8] Building CXX object CMakeFiles/spec.dir/csrc/eagle.cpp.o\nFAILED: CMakeFiles/spec.dir/csrc/eagle.cpp.o\n"
         "/usr/bin/c++ -O2 -c csrc/eagle.cpp\ncsrc/eagle.cpp:40:7: error: 'hidden' was not declared in this scope\n"
         "ninja: build stopped: subcommand failed.")

FAILED = [  # (command, output, the error the analysis reads)
    ("make -j8 2>&1 | tail -4", MAKE, "kernels.cu(12): error: identifier \"draft_len\" is undefined"),
    ("make -k 2>&1 | tail -3", MAKE_K, "a.cc:3:1: error: expected ';' before '}' token"),
    ("python -m pytest tests/ 2>&1 | tail -2", PYTEST, "tests/test_draft.py::test_accept_length: AssertionError: assert 1.1 > 2.0"),
    ("py.test tests/ 2>&1 | tail -2", PYTEST_4, "tests/test_draft.py::test_accept_length: AssertionError"),  # pytest < 5
    ("pytest -q tests/ | tail -2", PYTEST_Q, "tests/test_draft.py: ModuleNotFoundError: No module named 'sglang'"),
    ("cargo build --release 2>&1 | tail -5", CARGO, "error[E0425]: cannot find value `x` in this scope"),
    ("ninja -C build 2>&1 | tail -5", NINJA, "csrc/eagle.cpp:40:7: error: 'hidden' was not declared in this scope"),
]

PASSED = [
    ("make -i 2>&1 | tail -1", "make: [Makefile:3: all] Error 2 (ignored)"),  # -i: make went on, exit 0
    ("python -m pytest tests/ | tail -1", "============ 12 passed, 1 xfailed, 2 warnings in 3.10s ============"),
    ("py.test tests/ | tail -1", "=========== 3 passed in 0.12 seconds ==========="),  # pytest < 5
    ("cargo build 2>&1 | tail -1", "    Finished `release` profile [optimized] target(s) in 0.31s"),
    ("ninja -C build | tail -1", "[8/8] Linking CXX executable spec"),
]


def test_a_failure_a_pipe_hid_is_the_commands(tmp_path: Path) -> None:
    steps = [(c, out, "/root") for c, out, _ in FAILED] + [(c, out, "/root") for c, out in PASSED]
    analysis = analyze_path(_session(tmp_path / "s.jsonl", steps))
    got = [(c.command, c.exit_code, c.is_error) for c in analysis.commands]
    assert got == [(c, 0, True) for c, _, _ in FAILED] + [(c, 0, False) for c, _ in PASSED]
    errors = {e.command_seq: e.message for e in analysis.errors}
    by_command = {c.command: errors.get(c.seq) for c in analysis.commands}
    for command, _, said in FAILED:
        assert by_command[command] == said
    assert all(by_command[c] is None for c, _ in PASSED)


def test_a_build_log_read_back_did_not_fail(tmp_path: Path) -> None:
    analysis = analyze_path(_session(tmp_path / "s.jsonl", [("tail -4 /tmp/build.log", MAKE, "/root")]))
    (read,) = analysis.commands
    assert (read.exit_code, read.is_error) == (0, False)
    assert [e.message for e in analysis.errors] == ["kernels.cu(12): error: identifier \"draft_len\" is undefined"]


@pytest.mark.parametrize("command, out", [(c, out) for c, out, _ in FAILED])
def test_a_terminal_log_reads_a_last_line_alone_as_a_failure(tmp_path: Path, command: str, out: str) -> None:
    # no status shown: the line that only a failure prints says it failed
    typed = command.rsplit(" | tail", 1)[0] + " | tail -1"
    path = tmp_path / "session.log"
    path.write_text(f"root@gpu01:~/spec# {typed}\n{out.splitlines()[-1]}\nroot@gpu01:~/spec# tail -1 /tmp/build.log\n"
                    f"{out.splitlines()[-1]}\nroot@gpu01:~/spec# \n")
    analysis = analyze_path(path)
    run, read = analysis.commands
    assert (run.command, run.exit_code, run.is_error) == (typed, None, True)
    assert (read.command, read.is_error) == ("tail -1 /tmp/build.log", False)
    assert [e.command_seq for e in analysis.errors] == [run.seq, read.seq]
