"""The instant a transcript's timestamp names, so that times written in different forms order
right; the string itself is what the reports show.

The tools write their times differently: Claude Code ``2025-06-14T10:03:00.123Z`` (JavaScript
``toISOString``), Codex ``…T03:04:09.000Z``, OpenHands a naive local time with microseconds
(``2025-01-27T22:44:56.900854``, Python ``isoformat()``, which drops the fraction when it is
zero), a Python harness's chat log the local offset (``datetime.now().astimezone().isoformat()``:
``…T09:10:00.000000+01:00``), asciicast times built here with ``isoformat()``. Compared as text, ``12:00:00Z`` sorts after ``12:00:00.500Z`` (``Z``
is above ``.``) and ``12:30:00+02:00`` (10:30 UTC) after ``11:00:00Z``.
"""

from __future__ import annotations

from datetime import datetime, timezone


def instant(timestamp: str | None) -> float | None:
    """Seconds since the epoch; ``None`` for a string that is no ISO 8601 time. A naive time is
    taken as UTC: the tool that wrote it knew its zone, the transcript does not say it."""
    if not timestamp:
        return None
    try:
        at = datetime.fromisoformat(timestamp.strip())
    except ValueError:
        return None
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    try:
        return at.timestamp()
    except (OverflowError, OSError, ValueError):
        return None
