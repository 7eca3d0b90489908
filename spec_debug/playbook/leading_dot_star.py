"""Refuse, at load time, a capture or `matches:` regex that starts with an unanchored `.*`.

`(?P<v>.*) tok/s` is searched from every character of the output: from each one, `.*` runs to
the end of the line and backs off looking for " tok/s", so a line without it costs its length
squared. Progress bars (tqdm, in sglang.bench_serving and vLLM's benchmarks) redraw with a
carriage return and no newline, so 256 KiB of benchmark output is one line: the search took
minutes (40 KB: 10 s), and since Python's re holds the interpreter while it matches, Ctrl-C
and SIGTERM were not even seen (the run had to be killed with SIGKILL, its record left
"running"). With `^` in front the search starts only at line starts and the cost is linear.

The rewrite changes nothing: runner/attempt.py compiles these with re.MULTILINE, and a greedy
`.*` that can start a match can also start it at its line's start (`.` takes anything but a
newline), so the leftmost match, which re.search and re.finditer return, already begins there.
"""

from __future__ import annotations

import re

from re import _constants as sre  # type: ignore[attr-defined]  # Python 3.11+: the parser's opcodes
from re import _parser as sre_parse  # type: ignore[attr-defined]


class SlowLeadingDotStar(ValueError):
    """A regex that starts with `.*` (or `.+`), not anchored, with something after it."""


def refuse_leading_dot_star(pattern: str, flags: int = re.MULTILINE) -> None:
    """Raise SlowLeadingDotStar for `.*X` / `(?P<v>.*)X` with X needing a character. The
    pattern compiles."""
    parsed = sre_parse.parse(pattern, flags)
    items, rest = list(parsed), []
    # Down the first item of leading groups: `(?P<v>.*) tok/s` starts with the group's `.*`.
    while items and items[0][0] == sre.SUBPATTERN:
        rest = items[1:] + rest
        items = list(items[0][1][3])
    if not items:
        return
    op, av = items[0]
    if op != sre.MAX_REPEAT or av[1] is not sre.MAXREPEAT or av[0] > 1:
        return  # not `.*`/`.+` (a lazy `.*?` moves on as soon as it can; classes are left alone)
    body = list(av[2])
    if len(body) != 1 or body[0][0] != sre.ANY:
        return
    after = sre_parse.SubPattern(parsed.state, items[1:] + rest)
    if after.getwidth()[0] == 0:
        return  # `.*` alone, or `.*$`: the first start matches at once
    raise SlowLeadingDotStar(
        "invalid regex: it starts with .*, so it is tried from every character of a line, and a long line without "
        "a newline (a progress bar's \\r redraws, minified JSON) takes minutes that Ctrl-C cannot stop; "
        f"start it at the line, with the same match: {_anchored(pattern)}"
    )


def _anchored(pattern: str) -> str:
    """`^` after any leading global flags (`(?i)`): re refuses flags anywhere else."""
    flags = re.match(r"(?:\(\?[aiLmsux]+\))*", pattern)
    at = flags.end() if flags else 0
    return pattern[:at] + "^" + pattern[at:]
