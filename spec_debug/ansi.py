"""Terminal escape sequences in command output: colours, hyperlinks, window titles.

Servers and tools colour their logs (SGLang's and vLLM's loggers under a TTY or FORCE_COLOR,
``pip``, ``pytest``): ``\\x1b[1;31mERROR\\x1b[0m: ...``. People read the text without them, so
expectations, captures and reports do too.
"""

from __future__ import annotations

import re

# ECMA-48: CSI (ESC [ params intermediates final), OSC (ESC ] ... BEL or ESC \, used for
# hyperlinks and window titles), and the two-byte escapes (ESC followed by @..Z, \, ], ^, _).
ANSI_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\^_]|\x9b[0-?]*[ -/]*[@-~]")


def strip_ansi(text: str) -> str:
    """``text`` without escape sequences (a memchr first: most output has none)."""
    return ANSI_ESCAPE.sub("", text) if "\x1b" in text or "\x9b" in text else text
