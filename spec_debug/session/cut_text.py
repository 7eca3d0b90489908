"""Text shortened for a title or a line of a report, cut between words.

A cut at a fixed column split whatever stood there: "90 tok/s" became "90 t…", "54.8 tok/s"
"54.…", a reading that reads as another number. A cut now ends after a whole word, and a
number whose unit the cut would leave out goes with it. A text of one long word (a path, a
command without spaces) is still cut inside it: half a path says more than none.
"""

from __future__ import annotations

import re

_NUMBER = re.compile(r"[-+~≈]?\d[\d.,]*(?:e[-+]?\d+)?[x×%]?")
"""A word that is a number (with its sign, ``%`` or ``x``): its unit is the next word."""
_UNIT = re.compile(r"(?:tok(?:en)?s?/s|tokens?|req/s|it/s|[kMGT]i?B(?:/s)?|ms|us|µs|ns|s|sec|seconds?|min|h"
                   r"|%|x|°C|W|T?FLOPS|steps?|layers?)(?=$|[\s.,;:)])", re.IGNORECASE)


def cut_at_word(text: str, limit: int) -> str:
    """``text`` up to ``limit`` characters, ``…`` included, cut after a whole word."""
    if len(text) <= limit:
        return text
    head = text[:limit - 1]
    if not text[limit - 1].isspace() and " " in head:
        kept = head.rsplit(" ", 1)[0]
        if len(kept) >= limit // 2:  # a word of half the line (a path) is cut inside instead
            head = kept
    words = head.rsplit(" ", 1)
    rest = text[len(head):].lstrip()
    if len(words) == 2 and _NUMBER.fullmatch(words[1]) and _UNIT.match(rest) \
            and len(words[0]) >= limit // 2:
        head = words[0]  # "from 90 tok/s" cut before "tok/s": "from…", not "from 90…"
    return head.rstrip(" ,;:(.") + "…"
