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

from spec_debug.session.failures import ErrorInfo
from spec_debug.session.follow import follows_output
from spec_debug.session.shell import last_program, opens_repl

CTRL_C = "^C"

_READERS = frozenset({"cat", "head", "tail", "less", "more", "grep", "egrep", "zcat", "zgrep", "sed", "awk",
                      "jq", "tac", "strings", "rg"})
"""Programs whose output is a file's lines: a ``^C`` at a line's start there is the file's (a
typescript read back with ``cat``), unless they follow the file (``tail -f``: see below)."""


SIGINT_STATUS = 130
"""The status of a command SIGINT ended, 128 + 2 (bash(1), EXIT STATUS; fish's ``$status``):
in a terminal log the tty sent it, for the person's Ctrl-C. A prompt that shows statuses shows
it where the ``^C`` is gone from the screen (fish redraws its prompt over the key's line:
``root@gpu01 /w [SIGINT]# ``)."""


def stopped_output(command: str, output: str, exit_code: int | None = None) -> tuple[str, str] | None:
    """``(before, said)`` when ``command``'s ``output`` in a terminal log shows the person
    stopping it with Ctrl-C (the ``^C``, or the status :data:`SIGINT_STATUS` the prompt after it
    showed): what it printed before the key (all of it where only the status tells), and the
    line the key was echoed on; else None."""
    if opens_repl(command):
        return None  # `python3` at a prompt: the key stops a statement (or a line), the interpreter goes on
    at = output.find(CTRL_C) if "^" in output else -1
    while at > 0 and output[at - 1] != "\n":
        at = output.find(CTRL_C, at + 1)
    if at >= 0 and last_program(command) in _READERS and follows_output(command) is None:
        at = -1
    if at < 0:
        return (output, f"exit {SIGINT_STATUS} (SIGINT)") if exit_code == SIGINT_STATUS else None
    end = output.find("\n", at)
    return output[:at], output[at:end if end >= 0 else len(output)].strip()


def ended_by_the_key(error: ErrorInfo) -> bool:
    """The error is how a program dies of SIGINT (Python's ``KeyboardInterrupt``), no failure."""
    return error.exception == "KeyboardInterrupt" or (error.kind == "signal" and error.exception == "SIGINT")
