"""Scanning a pasted text for the end of a bracketed value: a JSON object a `ps` line shows with
its quotes and spaces (`--speculative-config {"method": "eagle3", ...}`), a Python repr a server
logs at startup (`ServerArgs(model_path='m', ...)`).

Plain text helpers with no knowledge of the engines: the launch reader and the paste readers
both use them, and neither imports the other for it.
"""

from __future__ import annotations

import re
import shlex

# JSON has one string quote and two bracket kinds; a Python repr has both quotes and a call's `(`.
JSON_QUOTES, JSON_BRACKETS = '"', ("{[", "}]")
REPR_QUOTES, REPR_BRACKETS = "'\"", ("([{", ")]}")


def bracket_end(text: str, start: int, quotes: str = JSON_QUOTES,
                brackets: tuple[str, str] = JSON_BRACKETS) -> int | None:
    """Just past the bracket closing the first one at or after `start`, or None if it never
    closes. Brackets inside a string quoted by one of `quotes` (a backslash escaping the next
    character) do not count; `brackets` is the opening and the closing set. A text may run on
    after the value (an issue body's next log line), which is not read."""
    opening, closing = brackets
    depth, quote, escaped = 0, None, False
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
        elif ch in quotes:
            quote = ch
        elif ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def split_keeping_json(text: str) -> list[str]:
    """Split a line as `ps` shows it: `{...}` objects that start a word stay whole words
    (quotes and spaces inside kept); the rest is split as a shell would."""
    words: list[str] = []
    pos = 0
    for m in re.finditer(r"(?:^|(?<=[\s=]))\{", text):
        if m.start() < pos:
            continue
        end = bracket_end(text, m.start())
        if end is None:
            continue
        words += shlex.split(text[pos:m.start()].replace("\\\n", " "))
        if text[m.start() - 1:m.start()] == "=" and words:
            words[-1] += text[m.start():end]  # `--speculative-config={...}`
        else:
            words.append(text[m.start():end])
        pos = end
    words += shlex.split(text[pos:].replace("\\\n", " "))
    return words
