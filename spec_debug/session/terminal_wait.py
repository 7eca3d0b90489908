"""Does a command end by waiting for someone to type at a terminal?

One rule, two uses: a terminal log moves the commands typed after ``ssh -t gpu02 "cd x &&
bash"`` to gpu02 (:mod:`formats.shell_logins`), and ``distill`` leaves such a command out of a
playbook, whose steps run over a pipe with no one to type (:mod:`unattended`). Each caller
picks the kinds it cares about: a REPL waits for keys (distill leaves it out) but the lines
typed in it are Python, not shell commands on the host (a log does not move to it).
"""

from __future__ import annotations

import re
from typing import Literal

from spec_debug.session.shell import split_words

Waiting = Literal["shell", "interpreter", "multiplexer"]

_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ash", "ksh", "fish"})
_SHELL_NOT_INTERACTIVE = frozenset({"-c", "--version", "--help"})
_REPL = re.compile(r"python[\d.]*|ipython3?|bpython|node|irb")
_REPL_FLAGS = re.compile(r"-[iqBuEsSIO]+")
"""Flags a REPL can take and still read what is typed (``python3 -q``); a script, ``-c``,
``-m`` or ``-V`` make it a run that ends by itself."""
_SUDO_VALUE_FLAGS = frozenset("CDghprtTUu")
"""sudo(8) options that take a value (``-u svc``): the word after them is no command."""
_SUDO_SHELL_FLAGS = frozenset({"--login", "--shell"})
_TMUX_VALUE_FLAGS = frozenset("cfLST")
_TMUX_ATTACHING = frozenset({"attach", "attach-session", "a", "at", "att", "new", "new-session"})
"""tmux(1) commands that take over the terminal; any other (``ls``, ``kill-session``,
``send-keys``) does its work and returns. ``new -d`` starts a session detached."""
_SCREEN_RETURNING = frozenset({"-ls", "-list", "-wipe", "-v", "-V", "-X", "-Q", "--version", "--help"})
_ZELLIJ_ATTACHING = frozenset({"attach", "a"})
_EXEC_FLAGS = re.compile(r"-[cl]+")
"""bash's ``exec -l bash``: a login shell replaces this one."""
_LIST_OPERATORS = frozenset({"&&", "||", ";", "\n"})
_BACKGROUND = frozenset({"&", "|", "|&"})
"""What ends a command that then does not read the terminal: ``x &`` runs in the background,
``echo ls | bash`` reads its pipe."""


def waits_at_terminal(command: str) -> Waiting | None:
    """What the last command of ``command`` (a list: ``cd ~/sglang && exec bash -l``) leaves
    waiting for keys: a ``"shell"`` (``bash``, ``sudo -i``, ``su - svc``), an
    ``"interpreter"`` (a bare ``python3``) or a ``"multiplexer"`` (``tmux attach``, ``screen
    -r``); None for a command that ends by itself (``tmux ls``, ``bash -c 'x'``, ``echo ls |
    bash``, ``python < x.py``)."""
    words = split_words(command)
    cut = max((i for i, w in enumerate(words) if w in _LIST_OPERATORS), default=-1)
    last = words[cut + 1:]
    if any(w in _BACKGROUND for w in last):
        return None  # piped into, or sent to the background
    if last[:1] == ["exec"]:
        last = last[1:]
        while last and _EXEC_FLAGS.fullmatch(last[0]):
            last = last[1:]
    return command_waits(last)


def command_waits(argv: list[str]) -> Waiting | None:
    """What one simple command (its words) leaves waiting for keys, as waits_at_terminal."""
    if not argv or any(w.startswith("<") for w in argv):
        return None  # input redirected: it reads that, not the terminal
    program, args = argv[0].rsplit("/", 1)[-1], argv[1:]
    if program in _SHELLS:
        return "shell" if all(a.startswith("-") and a not in _SHELL_NOT_INTERACTIVE for a in args) else None
    if program == "su":
        return None if any(a in ("-c", "--command") or a.startswith("--command=") for a in args) else "shell"
    if program == "sudo":
        return _sudo_waits(args)
    if _REPL.fullmatch(program):
        return "interpreter" if all(_REPL_FLAGS.fullmatch(a) for a in args) else None
    if program in ("tmux", "byobu"):
        return _tmux_waits(args)
    if program == "screen":
        return _screen_waits(args)
    if program == "zellij":
        return "multiplexer" if not args or args[0] in _ZELLIJ_ATTACHING else None
    return None


def _sudo_waits(args: list[str]) -> Waiting | None:
    """``sudo -i``/``-s`` with no command open root's shell; ``sudo [-u svc] CMD`` waits as
    CMD does (``sudo bash``, ``sudo su -``, ``sudo python3``)."""
    shell_flag, i = False, 0
    while i < len(args) and args[i].startswith("-") and args[i] != "--":
        word = args[i]
        if word.startswith("--"):
            shell_flag |= word in _SUDO_SHELL_FLAGS
            i += 1 + (word in ("--user", "--group"))
            continue
        letters = word[1:]
        shell_flag |= "i" in letters or "s" in letters
        i += 2 if letters[-1:] in _SUDO_VALUE_FLAGS else 1
    rest = args[i + (args[i:i + 1] == ["--"]):]
    if not rest:
        return "shell" if shell_flag else None
    return command_waits(rest)


def _tmux_waits(args: list[str]) -> Waiting | None:
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i][-1:] in _TMUX_VALUE_FLAGS and len(args[i]) == 2 else 1
    if "-V" in args[:i]:
        return None
    rest = args[i:]
    if not rest:
        return "multiplexer"  # a bare `tmux` starts a session and attaches to it
    if rest[0] not in _TMUX_ATTACHING:
        return None
    return None if rest[0].startswith("new") and any(a.startswith("-") and "d" in a[1:] and not a.startswith("--")
                                                       for a in rest[1:]) else "multiplexer"


def _screen_waits(args: list[str]) -> Waiting | None:
    if _SCREEN_RETURNING & set(args):
        return None
    flags = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    # `screen -dmS bench cmd`: started detached, back at once
    return None if "d" in flags and "m" in flags else "multiplexer"
