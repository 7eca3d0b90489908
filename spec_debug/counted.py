"""How a count is said in a line people read: "1 step", "3 steps", "0 errors"."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun in the number it needs (was "1 errors", "1 session(s)" in a report)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
