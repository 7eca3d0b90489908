"""A command line as the shell splits it: words with their quotes removed, and operators.

One splitter for the readers that must tell an operator from a word, on both sides of the
package: the session analyzer's (session/shell_words.py: what a command does to a host, its
pipelines, its status) and the runner's (secret_commands.py: whether a step prints a secret's
value). Each word says whether it is an operator, so a quoted ``'>'`` is a word (``grep '>'
x``) and an unquoted one a redirection. (session/shell.py's ``split_words`` is the analyzer's
faster, lossier split, one regex pass per event, for where a command runs.)
"""

from __future__ import annotations

_OPERATOR_CHARS = ";&|<>()\n"
_JOINING = ";&|<>"
"""Operator characters that join the one before them into one operator (``&&``, ``2>&1``'s
``>&``, ``&>>``, ``|&``); ``(``, ``)`` and a new line stand alone."""


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
