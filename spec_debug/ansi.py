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


# What a terminal acts on instead of showing. Where a user reads a command before it runs (the
# step-through panel, the walkthrough of `explain`), an ESC sequence in it (a var's value, a
# pasted playbook) could conceal part of it (ESC[8m), a CR could print a harmless line over
# the one that runs, and a bidi
# override could show its words in another order ("Trojan Source", CVE-2021-42574,
# https://trojansource.codes). Each is shown as a visible mark; tab and newline stay.
_C0_PICTURES = {code: 0x2400 + code for code in (*range(0x00, 0x09), *range(0x0B, 0x20))} | {0x7F: 0x2421}
_INVISIBLE_CONTROLS = re.compile(r"[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible_controls(text: str, html: bool = False) -> str:
    """text as the terminal must show it: control characters as their control pictures
    (U+2400 block, as the reports show them), C1 and bidi controls as <U+XXXX>.

    html: the text is HTML already escaped, so the mark is written &lt;U+XXXX&gt;. A raw
    <U+200E> there is a start tag to a browser (WHATWG HTML, 13.2.5.8 tag name state: it runs
    to the >), an element that shows nothing: the walkthrough hid the very mark it was for."""
    text = text.translate(_C0_PICTURES)
    mark = "&lt;U+{:04X}&gt;" if html else "<U+{:04X}>"
    return _INVISIBLE_CONTROLS.sub(lambda m: mark.format(ord(m.group())), text)
