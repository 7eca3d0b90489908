"""Refuse, at load time, a capture or `matches:` regex that starts with an unanchored `.*`
the run could not search in linear time.

`(?P<v>.*) tok/s` is searched from every character of the output: from each one, `.*` runs to
the end of the line and backs off looking for " tok/s", so a line without it costs its length
squared. Progress bars (tqdm, in sglang.bench_serving and vLLM's benchmarks) redraw with a
carriage return and no newline, so 256 KiB of benchmark output is one line: the search took
minutes (40 KB: 6 s greedy, 19 s lazy), and since Python's re holds the interpreter while it
matches, Ctrl-C and SIGTERM were not even seen (the run had to be killed with SIGKILL, its
record left "running").

A first match (`matches:`, a capture without `all: true`) is guarded by
runner/output_regex.py (`(?<!.)` in front: one pass per line; 1 MB of tqdm redraws in 0.04 s), so
such a regex is refused only where that guard does not apply (a leading `(?x)`, for one: a
comment in the regex would swallow the guard's closing parenthesis). Every match (`all: true`)
is searched with plain finditer, so there a leading `.*` or `.*?` is always refused.

The advice keeps the matches: a greedy or lazy `.*` that can start a match can also start it at
its line's start (`.` takes anything but a newline), so the first match, and with a greedy `.*`
every match (one per line), already begins there and `^` changes nothing. A lazy `.*?` outside
any group, under `all: true`, finds each later match on the line too: dropping it gives every
match's groups unchanged.
"""

from __future__ import annotations

import re

from re import _constants as sre  # type: ignore[attr-defined]  # Python 3.11+: the parser's opcodes
from re import _parser as sre_parse  # type: ignore[attr-defined]

from spec_debug.runner.output_regex import compile_first_match


class SlowLeadingDotStar(ValueError):
    """A regex that starts with `.*` (or `.+`, `.*?`), not anchored, with something after it."""


_WHY = ("so it is tried from every character of a line, and a long line without a newline (a progress bar's "
        "\\r redraws, minified JSON) takes minutes that Ctrl-C cannot stop")


def refuse_leading_dot_star(pattern: str, flags: int = re.MULTILINE, every_match: bool = False) -> None:
    """Raise SlowLeadingDotStar for `.*X` / `(?P<v>.*)X` with X needing a character, when the
    search the runner makes with it would be quadratic. `every_match`: a capture with
    `all: true`. The pattern compiles."""
    parsed = sre_parse.parse(pattern, flags)
    items, rest, in_group = list(parsed), [], False
    # Down the first item of leading groups: `(?P<rate>.*) tok/s` starts with the group's `.*`.
    while items and items[0][0] == sre.SUBPATTERN:
        rest = items[1:] + rest
        in_group = in_group or items[0][1][0] is not None  # a capturing group, not `(?:...)`
        items = list(items[0][1][3])
    if not items:
        return
    op, av = items[0]
    if op not in (sre.MAX_REPEAT, sre.MIN_REPEAT) or av[1] is not sre.MAXREPEAT or av[0] > 1:
        return  # not `.*`/`.+`/`.*?` (classes are guarded by the runner, or left alone)
    body = list(av[2])
    if len(body) != 1 or body[0][0] != sre.ANY:
        return
    after = sre_parse.SubPattern(parsed.state, items[1:] + rest)
    if after.getwidth()[0] == 0:
        return  # `.*` alone, or `.*$`: the first start matches at once
    if not every_match:
        if compile_first_match(pattern, flags).pattern != pattern:
            return  # the runner's lookbehind guard makes the first-match search linear
        raise SlowLeadingDotStar(f"invalid regex: it starts with .*, {_WHY}; start it at the line, with the "
                                 f"same match: {_anchored(pattern)}")
    lazy = op == sre.MIN_REPEAT
    if not lazy:
        raise SlowLeadingDotStar(f"invalid regex: it starts with .* and takes every match (all: true), {_WHY}; "
                                 f"start it at the line, with the same matches: {_anchored(pattern)}")
    if not in_group:
        raise SlowLeadingDotStar(f"invalid regex: it starts with .*? and takes every match (all: true), {_WHY}; "
                                 f"leave the .*? out, with the same groups in every match: {_dropped(pattern)}")
    raise SlowLeadingDotStar(
        f"invalid regex: its group starts with .*? and it takes every match (all: true), {_WHY}; capture with a "
        f"class that stops where the value ends (e.g. (?P<rate>[\\d.]+) tok/s), or start it with ^ to take the "
        f"first match on each line: {_anchored(pattern)}")


def _anchored(pattern: str) -> str:
    """`^` after any leading global flags (`(?i)`): re refuses flags anywhere else."""
    flags = re.match(r"(?:\(\?[aiLmsux]+\))*", pattern)
    at = flags.end() if flags else 0
    return pattern[:at] + "^" + pattern[at:]


def _dropped(pattern: str) -> str:
    """The pattern without its leading `.*?` (after global flags and non-capturing openings);
    as written when the text does not start so plainly."""
    lead = re.match(r"((?:\(\?[aiLmsux]+\))*(?:\(\?:)*)(\.[*+]\?)", pattern)
    if lead is None:
        return pattern
    if lead.group(2) == ".+?":  # one character is still needed before the rest
        return pattern[:lead.end(1)] + "." + pattern[lead.end():]
    return pattern[:lead.end(1)] + pattern[lead.end():]
