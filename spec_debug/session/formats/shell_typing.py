"""A shell command typed over several lines in a terminal log: what the shell still waits for
after a line (a trailing backslash, an open quote, a pipe or ``&&``, a here-document), and the
command it finally reads (:mod:`formats.text_log`)."""

from __future__ import annotations

import re

MAX_TYPED_LINES = 500
PS2 = re.compile(r"^(?:[a-z]+(?: [a-z]+)*)?>(?: |$)")
"""The prompt for the rest of a command: bash's ``> `` (PS2), zsh's ``quote> ``, ``dquote> ``,
``heredoc> ``, ``pipe> `` (its PS2 is ``%_> ``, the constructs still open: zshmisc(1),
PROMPT SEQUENCES)."""
_QUOTED_OR_HEREDOC = re.compile(r"'[^']*'|\"(?:[^\"\\\\]|\\\\.)*\"|(?<!<)<<(-?)[ \t]*(['\"]?)([A-Za-z_][\w.-]*)\2")
"""A quoted string (skipped: ``echo "a << b"`` starts no here-document) or a here-document's
``<<[-]word``, whose delimiter may be quoted (bash(1), Here Documents)."""


class TypedCommand:
    """A command typed over several lines, as the shell reads it: a backslash-newline is removed
    (bash(1), QUOTING: "a line continuation"), other line breaks stay (a quoted newline, a
    here-document body)."""

    __slots__ = ("cwd", "heredocs", "host", "line", "lines", "shell", "text", "user")

    def __init__(self, text: str, line: int, host: str | None, cwd: str | None = None,
                 user: str | None = None) -> None:
        self.text = text
        self.line = line
        self.host = host
        self.cwd = cwd
        """The folder the prompt showed (:attr:`Event.cwd`)."""
        self.user = user
        """The user the prompt showed (:attr:`Event.user`)."""
        self.lines = 1
        self.shell = text
        """The text without here-document bodies: what quotes and backslashes are read in."""
        self.heredocs = _heredocs(text)

    def add(self, part: str) -> None:
        self.lines += 1
        if self.heredocs:
            self.text += "\n" + part
            delimiter, tabs = self.heredocs[0]
            if (part.lstrip("\t") if tabs else part) == delimiter:
                self.heredocs.pop(0)
            return
        if ends_escaped(self.shell):
            self.text = self.text[:-1].rstrip() + " " + part.lstrip()
            self.shell = self.shell[:-1] + part
        else:
            self.text += "\n" + part
            self.shell += "\n" + part
        self.heredocs = _heredocs(part)

    def waiting(self) -> bool:
        """bash would print PS2 and read another line."""
        if self.heredocs:
            return True
        if ends_escaped(self.shell) or open_quote(self.shell):
            return True
        return self.shell.rstrip().endswith(("|", "&&")) or open_compounds(self.shell) > 0


_OPENERS = frozenset({"if", "case", "for", "while", "until", "select", "{"})
_CLOSERS = frozenset({"fi", "esac", "done", "}"})
_KEEP_COMMAND_POSITION = frozenset({"then", "do", "else", "elif", "!", "time"}) | _OPENERS - {"for", "case", "select"}
"""Reserved words after which the next word is again a command's first (bash(1), SHELL GRAMMAR:
``if``/``while`` take a command list, ``then``/``do``/``else`` start one)."""
_SHELL_TOKEN = re.compile(r"[;&|()\n]+|[^\s;&|()]+")
_MAY_OPEN = re.compile(r"\b(?:if|case|for|while|until|select)\b|(?:^|[\s;&|()])\{(?:\s|$)")


def open_compounds(shell: str) -> int:
    """How many compound commands ``shell`` opens and does not close: ``for h in gpu01 gpu02; do``
    waits for its ``done``, ``if ...; then`` for ``fi``, ``case`` for ``esac``, ``{`` for ``}``;
    bash prints PS2 and reads on (bash(1), Compound Commands). Reserved words count only where a
    command starts (``echo done`` closes nothing), outside quotes and comments."""
    if _MAY_OPEN.search(shell) is None:
        return 0
    depth, command_start = 0, True
    for token in _SHELL_TOKEN.findall(_bare(shell)):
        if token[0] in ";&|()\n":
            command_start = True
            continue
        if command_start:
            if token in _OPENERS:
                depth += 1
            elif token in _CLOSERS:
                depth = max(depth - 1, 0)
        command_start = command_start and token in _KEEP_COMMAND_POSITION
    return depth


def _bare(shell: str) -> str:
    """``shell`` with each quoted string one word ``_`` and comments left out."""
    out, quote, start = [], None, 0
    i, n = 0, len(shell)
    while i < n:
        c = shell[i]
        if quote is not None:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = None
                out.append("_")
                start = i + 1
        elif c == "\\":
            i += 1
        elif c in "'\"":
            out.append(shell[start:i])
            quote = c
        elif c == "#" and (i == 0 or shell[i - 1] in " \t\n;&|("):
            out.append(shell[start:i])
            end = shell.find("\n", i)
            if end < 0:
                return "".join(out)
            i, start = end, end
            continue
        i += 1
    if quote is None:
        out.append(shell[start:])
    return "".join(out)


def ends_escaped(shell: str) -> bool:
    """A backslash ends the text and escapes the newline (an even run escapes itself)."""
    return (len(shell) - len(shell.rstrip("\\"))) % 2 == 1 and not open_quote(shell[:-1], single_only=True)


def open_quote(shell: str, single_only: bool = False) -> bool:
    """A quote is open at the end of ``shell`` (a ``#`` comment's quotes do not count)."""
    quote = None
    i, n = 0, len(shell)
    while i < n:
        c = shell[i]
        if quote == "'":
            if c == "'":
                quote = None
        elif c == "\\":
            i += 1
        elif quote == '"':
            if c == '"':
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or shell[i - 1] in " \t\n;&|("):
            end = shell.find("\n", i)
            if end < 0:
                break
            i = end
        i += 1
    return quote == "'" if single_only else quote is not None


def _heredocs(shell: str) -> list[tuple[str, bool]]:
    """``(delimiter, tabs stripped)`` of each here-document a line of shell opens."""
    return [(m.group(3), m.group(1) == "-") for m in _QUOTED_OR_HEREDOC.finditer(shell) if m.group(3)]
