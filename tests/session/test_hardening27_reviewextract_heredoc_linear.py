"""Heredoc parsing stays linear in the command's length (CPU time, generous bounds: each case took
seconds before its fix and takes under 0.2 s after):
- a script a shell reads from a heredoc is read by changes_host word by word; each simple command
  copied the rest of the words (20,000 lines: 2.8 s);
- each `<<` of a line counted the `((` from the line's start (20,000 `a << b`: 3.5 s);
- ssh's heredoc pattern scanned the rest of the line for each `<<` of a command with no second
  line (5,000 `x <<EOF`: 3 s)."""

import time

from spec_debug.session.host_changes import changes_host
from spec_debug.session.shell import parse_target
from spec_debug.session.shell_words import simple_commands


def _cpu(fn, arg):
    start = time.thread_time()
    result = fn(arg)
    return result, time.thread_time() - start


def test_a_long_script_from_a_heredoc():
    why, took = _cpu(changes_host, "sudo bash <<'EOF'\n" + "echo x\n" * 20000 + "systemctl restart sglang\nEOF\n")
    assert why is not None and took < 1.0


def test_many_operators_on_one_line():
    argvs, took = _cpu(lambda c: list(simple_commands(c)), "a << b " * 20000 + "\nb\n")
    assert argvs and took < 1.0


def test_many_operators_and_no_second_line():
    target, took = _cpu(parse_target, "ssh gpu01 x " + "<<EOF " * 5000)
    assert target.host == "gpu01" and took < 1.0
