"""Command output as a person saw it on the terminal, for reports.

run.json keeps the bytes a step printed; a report shows what the terminal showed. Real output
is full of things that are not text: ANSI colours (``pip``, ``pytest``, SGLang's logger),
progress bars redrawn with carriage returns (``tqdm`` writes ``\\r`` before every update, so a
weight download is thousands of bars on one "line"), and the odd NUL. Left in, an HTML report
shows ``[31m`` litter and a Markdown report a wall of bars.
"""

from __future__ import annotations

import re

from spec_debug.ansi import strip_ansi
# C0 controls other than tab and newline, and DEL: shown as their Unicode control pictures
# (U+2400 block), so a NUL is visible instead of silently cutting or corrupting the text.
# str.translate maps them in C: a re.sub with a function made a Python call and a string per
# character, 70 MB for the 1 MB of NULs a report keeps of a `head -c ... /dev/zero` flood.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_PICTURES = {code: 0x2400 + code for code in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20))} | {0x7F: 0x2421}


def _overprint(line: str) -> str:
    """What a terminal shows after the carriage returns in one line: each segment writes over
    the start of the previous ones (tqdm pads its bars, pip ends with a bare \\r)."""
    if "\r" not in line:
        return line
    shown = ""
    for segment in line.split("\r"):
        shown = segment + shown[len(segment):]
    return shown


# The bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): a terminal shows
# none of them, but a browser or a Markdown viewer reorders the text after one, so a report
# showed `echo <RLO>txt.hsab` as a different command than ran ("Trojan Source", CVE-2021-42574,
# https://trojansource.codes). Marked as the step-through and explain mark them (ansi.py).
# LRM, RLM and ALM stay: they only nudge neutral characters, and real right-to-left text
# (Hebrew and Arabic log lines) is full of them.
_BIDI_CONTROL = re.compile(r"[\u202a-\u202e\u2066-\u2069]")


def screen_text(text: object) -> str:
    """The text without colour codes, with progress-bar redraws collapsed to their last state."""
    value = "" if text is None else str(text)
    value = strip_ansi(value)
    if "\r" in value:
        value = "\n".join(_overprint(line) for line in value.replace("\r\n", "\n").split("\n"))
    if _BIDI_CONTROL.search(value):
        value = _BIDI_CONTROL.sub(lambda m: f"<U+{ord(m.group()):04X}>", value)
    return value.translate(_PICTURES) if _CONTROL.search(value) else value


FIX_LIMIT = 4000
"""Characters of a finding's fix a report shows: ten times the catalog's longest (diagnose/codes.py),
so only a fix that quotes a captured fact (`remediation: "shorten {{ facts.line }}"`) is cut."""


def clip_middle(text: object, limit: int = 20000) -> str:
    """At most ``limit`` characters: the head and the tail (where the traceback is), with a
    line saying how much was left out in between."""
    value = "" if text is None else str(text)
    if len(value) <= limit:
        return value
    half = limit // 2
    left_out = len(value) - 2 * half
    # value[-0:] is the whole text: a share of 0 or 1 keeps only the line (a fleet's budget spent)
    return f"{value[:half]}\n... [{left_out} characters left out of this report; run.json holds them] ...\n{value[len(value) - half:]}"
