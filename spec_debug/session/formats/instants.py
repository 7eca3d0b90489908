"""The instant a transcript's timestamp names, so that times written in different forms order
right; the string itself is what the reports show.

The tools write their times differently: Claude Code ``2025-06-14T10:03:00.123Z`` (JavaScript
``toISOString``), Codex ``…T03:04:09.000Z``, OpenHands a naive local time with microseconds
(``2025-01-27T22:44:56.900854``, Python ``isoformat()``, which drops the fraction when it is
zero), a Python harness's chat log the local offset (``datetime.now().astimezone().isoformat()``:
``…T09:10:00.000000+01:00``), asciicast times built here with ``isoformat()``. Compared as
text, ``12:00:00Z`` sorts after ``12:00:00.500Z`` (``Z`` is above ``.``) and ``12:30:00+02:00``
(10:30 UTC) after ``11:00:00Z``.

Some write an epoch number instead: mini-swe-agent stamps each reply and observation ``extra.timestamp:
time.time()`` (SWE-agent/mini-swe-agent ``src/minisweagent/models/litellm_model.py``), OpenAI
objects carry ``created``/``created_at`` in whole seconds (openai/openai-python
``types/chat/chat_completion.py``, ``types/responses/response.py``), JavaScript loggers
``Date.now()`` in milliseconds; :func:`stamp` turns those into the ISO form the rest reads.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any


def instant(timestamp: str | None) -> float | None:
    """Seconds since the epoch; ``None`` for a string that is no ISO 8601 time (nor an epoch
    number, see :func:`stamp`). A naive time is taken as UTC: the tool that wrote it knew its
    zone, the transcript does not say it."""
    if not timestamp:
        return None
    try:
        at = datetime.fromisoformat(timestamp.strip())
    except ValueError:
        return _epoch_seconds(timestamp)
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    try:
        return at.timestamp()
    except (OverflowError, OSError, ValueError):
        return None


def stamp(value: Any) -> str | None:
    """A record's time as the events carry it: an ISO string as written; an epoch number (int,
    float or a string of digits) in seconds, milliseconds, microseconds or nanoseconds as UTC
    ``YYYY-MM-DDTHH:MM:SS.mmmZ``, the form Claude Code writes, so that it orders with those as
    text; anything else None. Dropped, a number left its messages without a time: no first or
    last time for the session, and in a folder no timeline ordered by time at all."""
    if isinstance(value, str):
        if "-" in value[1:] or ":" in value:  # ISO 8601 (the usual case): kept as written
            return value
        seconds = _epoch_seconds(value)
        return value if seconds is None else _iso(seconds)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = _epoch_seconds(value)
        return None if seconds is None else _iso(seconds)
    return None


def _epoch_seconds(value: Any) -> float | None:
    """Seconds since the epoch of a number in any of the usual units, told apart by size:
    10^11 seconds is the year 5138, 10^11 milliseconds 1973 (the same cut for µs and ns).
    Under 10^9 (September 2001) it is no epoch time: zero is a default left in the field, a
    small number an offset from the start (asciicast), eight digits a date (``20250101``)."""
    try:
        number = float(value.strip()) if isinstance(value, str) else float(value)
    except (ValueError, OverflowError):
        return None
    if not number >= 1e9 or number == float("inf"):
        return None
    for scale in (1.0, 1e3, 1e6, 1e9):
        if number < 1e11 * scale:
            return number / scale
    return None


def _iso(seconds: float) -> str | None:
    try:
        at = datetime.fromtimestamp(seconds, tz=timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
