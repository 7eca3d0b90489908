"""A command line as the shell splits it: words with their quotes removed, and operators.

One splitter for the readers that must tell an operator from a word, on both sides of the
package: the session analyzer's (session/shell_words.py: what a command does to a host, its
pipelines, its status) and the runner's (secret_commands.py: whether a step prints a secret's
value). Each word says whether it is an operator, so a quoted ``'>'`` is a word (``grep '>'
x``) and an unquoted one a redirection; :func:`heredocs` finds the bodies a command's ``<<WORD``
feeds it, which are no commands. (session/shell.py's ``split_words`` is the analyzer's faster,
lossier split, one regex pass per event, for where a command runs.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_OPERATOR_CHARS = ";&|<>()\n"
_JOINING = ";&|<>"
"""Operator characters that join the one before them into one operator (``&&``, ``2>&1``'s
``2>&``, ``&>>``, ``|&``); ``(``, ``)`` and a new line stand alone. A redirection's file
descriptor, written right before it, is part of it (``2>``, ``2>>``, ``0<``): :func:`redirection`
reads the two apart."""


def redirection(op: str) -> tuple[str, str]:
    """A redirection operator's file descriptor ("" where none is written) and its operator:
    ``("2", ">&")`` for ``2>&``, ``("", ">")`` for ``>``."""
    op_at = len(op) - len(op.lstrip("0123456789"))
    return op[:op_at], op[op_at:]


def shell_words(text: str) -> list[tuple[str, bool]]:
    """``text`` as shell words and operators (is_op), quotes removed from words; a quote still
    open at the end closes there."""
    return _scan(text)[0]


def complete_shell_words(text: str) -> list[tuple[str, bool]] | None:
    """:func:`shell_words`, or None for a command no shell would run: a quote still open at its
    end, or a backslash that ends it."""
    words, complete = _scan(text)
    return words if complete else None


def _scan(text: str) -> tuple[list[tuple[str, bool]], bool]:
    out: list[tuple[str, bool]] = []
    word: list[str] = []
    has_word = False
    quote = None
    escaped = after_space = False
    for ch in text:
        if escaped:
            word.append(ch)
            escaped = False
        elif quote:
            if ch == quote:
                quote = None
            elif ch == "\\" and quote == '"':
                escaped = True
            else:
                word.append(ch)
        elif ch == "\\":
            escaped, has_word = True, True
        elif ch in "'\"":
            quote, has_word = ch, True
        elif ch in " \t\r" or ch in _OPERATOR_CHARS:
            if ch in "<>" and word and not has_word and "".join(word).isdigit():
                # `2>&1`, `2>/dev/null`, `0< in`: a number right before a redirection, unquoted,
                # is the file descriptor it redirects, part of the operator (bash(1), REDIRECTION);
                # `cut -f 2 > out` and `"2">x` keep the 2 a word
                out.append(("".join(word) + ch, True))
                word, after_space = [], False
                continue
            if has_word or word:
                out.append(("".join(word), False))
                word, has_word = [], False
            if ch in _OPERATOR_CHARS:
                if out and out[-1][1] and ch not in "()\n" and out[-1][0][-1:] in _JOINING and not after_space:
                    out[-1] = (out[-1][0] + ch, True)
                else:
                    out.append((ch, True))
            after_space = ch in " \t\r"  # `> >` is two operators, `>>` one
            continue
        else:
            word.append(ch)
        after_space = False
    if has_word or word:
        out.append(("".join(word), False))
    return out, quote is None and not escaped


def quote_state(text: str, start: int, end: int, quote: str | None, escaped: bool) -> tuple[str | None, bool]:
    """The quote open (and whether a backslash escapes the next character) at ``end``, from
    the state at ``start``."""
    for ch in text[start:end]:
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
    return quote, escaped


# A heredoc's body runs from the line after its `<<WORD` to a line that is the word and nothing
# else: no spaces around it, leading tabs only after `<<-` (bash(1), Here Documents; bash
# feeds "  EOF", "EOF " and "EOFX" to the command as body lines). A body the input ends inside
# runs to the end ("here-document at line 1 delimited by end-of-file (wanted `EOF')", and bash
# runs the command). The word ends where a word character cannot follow (`<<EOFX` is not
# `<<EOF`); `<<<` is a here-string. session/shell.py's _SSH_HEREDOC reads an ssh's heredoc by the
# same rules.
_HEREDOC = re.compile(r"(?<!<)<<(?!<)(-)?[ \t]*\\?(['\"]?)([A-Za-z0-9_.-]+)\2(?![A-Za-z0-9_.-])")



def heredocs(text: str) -> Iterator[tuple[re.Match, int, int, int]]:
    """Each heredoc of ``text``: its operator, where its body starts and ends, and where the
    text goes on after its terminator line."""
    pos = 0
    while (m := _HEREDOC.search(text, pos)) is not None:
        nl = text.find("\n", m.end())
        if nl < 0:
            return  # the input ends on the `<<` line: no body
        line_start = text.rfind("\n", 0, m.start()) + 1
        pos = nl + 1
        # the line's quotes are followed once from its start, op to op (each op's own scan of
        # the line was quadratic: `a << b` 2000 times on one line took 0.9 s)
        # the same for the `((` still open (each op's own count from the line's start was
        # quadratic again: 10,000 'a << b' took 0.9 s, 0.03 s before 72aa80d)
        scanned, quote, escaped, arith = line_start, None, False, 0
        for op in _HEREDOC.finditer(text, m.start(), nl):
            quote, escaped = quote_state(text, scanned, op.start(), quote, escaped)
            arith += text.count("((", scanned, op.start()) - text.count("))", scanned, op.start())
            scanned = op.start()
            if _shift_or_quoted(op, quote, arith > 0):
                continue
            body_end, after = _body_end(text, pos, op.group(3), tabs=op.group(1) is not None)
            yield op, pos, body_end, after
            pos = after


def _body_end(text: str, start: int, word: str, *, tabs: bool) -> tuple[int, int]:
    """Where the heredoc body that starts at ``start`` ends, and where the text goes on after
    its terminator line; both the end of the input when no terminator comes."""
    indent = r"\t*" if tabs else ""  # <<- strips the terminator's leading tabs
    end = re.compile(rf"^{indent}{re.escape(word)}$", re.MULTILINE).search(text, start)
    return (end.start(), end.end() + 1) if end is not None else (len(text), len(text))


def _shift_or_quoted(op: re.Match, quote: str | None, in_arithmetic: bool) -> bool:
    """Whether the ``<<`` of ``op`` is no heredoc: arithmetic's shift (a number after it, or
    inside an open ``((``: `echo $((1<<20))`) or inside a quote still open on its line
    (`python3 -c "print(1 << n)"`, `ssh h 'cat <<EOF'`)."""
    return op.group(3).isdigit() or in_arithmetic or quote is not None
