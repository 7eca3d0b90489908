"""Asking the person at the terminal (a passphrase, a password, a yes/no about a host key):
one question at a time across host threads, given up when the login is abandoned, through
SSH_ASKPASS where ssh(1) would use it (ssh_askpass)."""

from __future__ import annotations

import getpass
import os
import select
import sys
import termios
import threading
from typing import Callable

from spec_debug.runner.ssh_askpass import ask_with_program, askpass_program
from spec_debug.runner.ssh_auth_options import AuthOptions


_PROMPT_LOCK = threading.Lock()


_PROMPT_POLL_S = 0.1


def ask_on_terminal(question: str, options: AuthOptions, give_up: Callable[[], bool]) -> str | None:
    """Someone's answer to a yes/no question (an unknown host key), shown as typed; None when no
    one can answer: --batch (or BatchMode), no terminal, or the login was abandoned.

    Asked one at a time across host threads, inside the prompt guard (the live display pauses),
    as the passphrase prompts are."""
    if options.batch or (options.prompt is getpass.getpass and not _can_ask()):
        return None
    with _PROMPT_LOCK, options.prompt_guard():
        if options.prompt is getpass.getpass:
            return read_passphrase(question, give_up, echo=True)
        return None if give_up() else options.prompt(question)


def read_passphrase(question: str, give_up: Callable[[], bool], *, echo: bool = False) -> str | None:
    """getpass.getpass on the terminal, given up (None) as soon as `give_up()` is true.

    getpass blocks in a read of /dev/tty that nothing can interrupt from another thread, with
    echo turned off until it returns (cpython: Lib/getpass.py, unix_getpass). Asked from a host
    thread, Ctrl-C then left the run waiting for Enter, and a run killed there left the
    terminal without echo. Here the read waits in poll() and gives up when the login is
    abandoned; echo comes back in every case.
    """
    if give_up():
        return None
    program = askpass_program(has_terminal=_have_terminal())
    if program is not None:
        return ask_with_program(program, question.strip(), give_up)
    fallback = input if echo else getpass.getpass
    try:
        tty = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return fallback(question)  # no terminal of our own: stdin, a terminal (_have_terminal)
    try:
        try:
            saved = termios.tcgetattr(tty)
        except termios.error:
            return fallback(question)  # /dev/tty is not a terminal we can set up
        quiet = list(saved)
        if not echo:
            quiet[3] &= ~termios.ECHO  # lflags
        termios.tcsetattr(tty, termios.TCSAFLUSH, quiet)
        try:
            return _read_line(tty, question, give_up)
        finally:
            termios.tcsetattr(tty, termios.TCSAFLUSH, saved)
            os.write(tty, b"\n")
    except (OSError, termios.error):
        return None  # the terminal went away (hung up): no answer
    finally:
        os.close(tty)


def _read_line(tty: int, question: str, give_up: Callable[[], bool]) -> str | None:
    """The line typed on `tty` after `question`; None when `give_up()` came first or the terminal hung up."""
    os.write(tty, question.encode())
    typed = bytearray()
    poller = select.poll()
    poller.register(tty, select.POLLIN)
    # Canonical mode: a read returns a whole line once Enter is pressed.
    while b"\n" not in typed:
        if give_up():
            return None
        if not poller.poll(int(_PROMPT_POLL_S * 1000)):
            continue
        chunk = os.read(tty, 1024)
        if not chunk:
            return None
        typed += chunk
    return typed.split(b"\n", 1)[0].decode("utf-8", "replace")


def _can_ask() -> bool:
    """Whether someone can be asked: on the terminal, or through SSH_ASKPASS as ssh(1) would (ssh_askpass)."""
    return _have_terminal() or askpass_program(has_terminal=False) is not None


def _have_terminal() -> bool:
    """Whether getpass can ask someone: it reads /dev/tty, else stdin if that is a terminal."""
    try:
        os.close(os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY))
        return True
    except OSError:
        return sys.stdin is not None and sys.stdin.isatty()
