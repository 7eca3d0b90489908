"""The time limit a command set itself with coreutils ``timeout(1)``, for the step that runs it."""

from __future__ import annotations

import math
import re
import shlex

_TIMEOUT = re.compile(r"^\s*timeout\s")
_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)")
_UNIT_S = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def timeout_limit(inner: str) -> int | None:
    """The step timeout for a command run under coreutils ``timeout [OPTION] DURATION CMD``:
    DURATION with its unit (``10m``), plus ``-k``'s grace. ``-k 10 600`` read as 10 s killed a
    ten-minute benchmark at ten seconds (coreutils src/timeout.c: -k and -s take a value)."""
    if not _TIMEOUT.match(inner):
        return None
    try:
        words = shlex.split(inner.split("\n", 1)[0])
    except ValueError:
        return None
    grace, i = 0.0, 1
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        option, _, value = words[i].partition("=")
        if option in ("-k", "--kill-after", "-s", "--signal") and not value:
            value, i = (words[i + 1] if i + 1 < len(words) else ""), i + 1
        elif option.startswith("-k") and len(option) > 2:  # -k5
            value = option[2:]
            option = "-k"
        if option in ("-k", "--kill-after"):
            grace = _seconds(value) or 0.0
        i += 1
    i += words[i:i + 1] == ["--"]
    duration = _seconds(words[i]) if i < len(words) else None
    # 0 means "no timeout" to timeout(1)
    return math.ceil(duration + grace) if duration else None


def _seconds(text: str) -> float | None:
    m = _DURATION.fullmatch(text)
    return float(m.group(1)) * _UNIT_S[m.group(2)] if m else None
