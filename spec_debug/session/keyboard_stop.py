"""A command stopped with Ctrl-C in a terminal log: the ``^C`` the terminal echoed at the start
of an output line.

The tty echoes the key as ``^C`` (stty(1), ``echoctl``, on by default) where the cursor is: after
the Enter, at the start of an output line (bash 5.2 under util-linux script 2.38.1: ``tail -f
server.log`` then ``^C``; ``python3 x.py`` then ``^CTraceback (most recent call last):`` ...
``KeyboardInterrupt``; tmux capture-pane of SGLang: ``^C[2025-08-18 10:03:05] Received sigquit
from a child process``). What the program printed after the key is how it stopped, not why it
failed. A ``^C`` at the end of the typed line (before Enter) ran nothing: the reader drops that
line (formats/text_log.py, ``_CANCELLED``)."""

from __future__ import annotations

from spec_debug.session.follow import follows_output
from spec_debug.session.shell import last_program, opens_repl

CTRL_C = "^C"

_READERS = frozenset({"cat", "head", "tail", "less", "more", "grep", "egrep", "zcat", "zgrep", "sed", "awk",
                      "jq", "tac", "strings", "rg"})
"""Programs whose output is a file's lines: a ``^C`` at a line's start there is the file's (a
typescript read back with ``cat``), unless they follow the file (``tail -f``: see below)."""


def stopped_output(command: str, output: str) -> tuple[str, str] | None:
    """``(before, stop_line)`` when ``command``'s ``output`` in a terminal log shows the person
    stopping it with Ctrl-C: what it printed before the key, and the line the key was echoed on;
    else None."""
    at = output.find(CTRL_C)
    while at > 0 and output[at - 1] != "\n":
        at = output.find(CTRL_C, at + 1)
    if at < 0:
        return None
    if last_program(command) in _READERS and follows_output(command) is None:
        return None
    if opens_repl(command):
        return None  # `python3` at a prompt: the key stops a statement (or a line), the interpreter goes on
    end = output.find("\n", at)
    return output[:at], output[at:end if end >= 0 else len(output)].strip()
