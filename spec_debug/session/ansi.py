"""Terminal colour and cursor sequences in captured output.

A tool run with colours forced (FORCE_COLOR, Python 3.13's coloured tracebacks, Ray's
"\\x1b[36m(RayWorkerWrapper pid=N)\\x1b[0m" prefixes, coloured log levels, ``script`` or
``docker logs`` of a TTY container) writes ECMA-48 CSI sequences between the words every
extractor matches. Each extractor reads the text without them.
"""

from __future__ import annotations

import re

ANSI_CSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
"""One ECMA-48 CSI sequence: ESC [, its parameters, its final letter."""


def without_colours(text: str) -> str:
    """``text`` without its CSI sequences; ``text`` itself when it has no ESC (a memchr:
    colours are rare, so the substitution runs only when one is there)."""
    return ANSI_CSI.sub("", text) if "\x1b" in text else text
