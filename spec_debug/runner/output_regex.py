"""A playbook regex's first match in a step's output, in time linear in a long line.

``(?P<v>\\S+) tok/s`` searched in one 40 KB line without the literal (minified JSON, base64, a
tqdm bar redrawn with ``\\r``) tries every start in the run of non-spaces, and from each one
runs to the run's end and back: quadratic, 12 s for 40 KB, minutes for 256 KiB, during which
Python's ``re`` holds off Ctrl-C and SIGTERM (the run had to be killed, its record left
"running").

When a regex starts with an unbounded repetition of one character class C (``\\S+``, ``\\w*``,
``[^,]{2,}``, ``.+``, or one character: ``=+``, ``a+``, a progress bar's, `` +`` before an aligned column unless verbose), also inside leading
groups and after global flags such as ``(?i)``, its first match never starts right after a C:
had it matched at p with a C at p - 1, the same repetition taken once more matches at p - 1,
which the search tries first. So ``(?<!C)`` in front changes no first match (nor its
groups), and every start inside a run fails at once: one pass per run. A regex with a back
reference or a conditional group is left as written (``(\\S+) \\1`` can match inside a run
and not at its start), and so is one that starts otherwise or with a top-level alternation.

Only first matches are guarded (``matches:``, and captures without ``all: true``): for every
match, a guarded search from the end of the previous one would refuse a match that starts
right after it."""

from __future__ import annotations

import functools
import re
from typing import Any

try:  # the parser re.compile uses; it moved in Python 3.11 (sre_parse is deprecated there)
    from re import _constants as _sre, _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

# The source text of a leading class repetition, after any opening groups: the class is what
# the lookbehind repeats, so it is taken as written (the parse below confirms the shape).
_LEADING_RUN = re.compile(r"""
    (?P<flags>(?:\(\?[aiLmsu]+\))*)                           # global flags first: (?i) (?s)
    (?:\((?:\?P<\w+>|\?:)?)*                                   # opening groups: ( (?P<n> (?:
    (?P<cls>\\[SsWwDd]|\.|\[\^?\]?(?:\\.|[^\]\\])*\]          # \S \w \d \s .. or [...]
       |\\[^A-Za-z0-9]|[^\\()\[\]{}?*+|^$.\s\#]                # or one character: = \- a \(space)
       |(?P<blank>[\x20\t]))                                  # or a space or tab, unless verbose
    (?:[+*]|\{\d*,\})                                          # unbounded: + * {m,}
""", re.VERBOSE)

_REPEATS = {_sre.MAX_REPEAT, _sre.MIN_REPEAT} | ({_sre.POSSESSIVE_REPEAT} if hasattr(_sre, "POSSESSIVE_REPEAT") else set())
_ONE_CHARACTER = {_sre.IN, _sre.ANY, _sre.LITERAL, _sre.NOT_LITERAL, _sre.CATEGORY}
_CROSS_REFERENCES = {_sre.GROUPREF, _sre.GROUPREF_EXISTS} | ({_sre.GROUPREF_IGNORE} if hasattr(_sre, "GROUPREF_IGNORE") else set())


@functools.lru_cache(maxsize=256)
def compile_first_match(source: str, flags: int = re.MULTILINE) -> re.Pattern[str]:
    """``source`` compiled for first-match searches, guarded as the module says when that
    gives the same first match."""
    lead = _leading_class(source, flags)
    if lead is None:
        return re.compile(source, flags)
    # Global flags must stay at the very start (Python 3.11 refuses them elsewhere); they apply
    # to the guard's class as to the repetition's, so the two still read the same characters.
    # (?x) is not taken: a trailing comment in the source would swallow the closing ")".
    flags_text, guard = lead
    return re.compile(f"{flags_text}(?<!{guard})(?:{source[len(flags_text):]})", flags)


def first_match(source: str, text: str, flags: int = re.MULTILINE) -> re.Match[str] | None:
    return compile_first_match(source, flags).search(text)


def _leading_class(source: str, flags: int) -> tuple[str, str] | None:
    """The leading global flags as written and the class of the leading repetition, when the
    guard applies."""
    lead = _LEADING_RUN.match(source)
    if lead is None:
        return None
    if lead.group("blank") and flags & re.VERBOSE:
        return None  # (?x) drops a bare space: the regex does not start with it
    try:
        parsed = _sre_parse.parse(source, flags)
    except re.error:
        return None
    if _has_cross_reference(parsed):
        return None
    node: Any = parsed
    while True:  # down the leading groups to the first item, which must be the repetition
        if not len(node):
            return None
        op, value = node[0]
        if op is _sre.SUBPATTERN:
            node = value[-1]
            continue
        break
    if op not in _REPEATS:
        return None
    low, high, body = value
    if high is not _sre.MAXREPEAT or len(body) != 1 or body[0][0] not in _ONE_CHARACTER:
        return None
    return lead.group("flags"), lead.group("cls")


def _has_cross_reference(parsed: Any) -> bool:
    for op, value in parsed:
        if op in _CROSS_REFERENCES:
            return True
        for part in value if isinstance(value, (tuple, list)) else ():
            if isinstance(part, _sre_parse.SubPattern) and _has_cross_reference(part):
                return True
            if isinstance(part, (tuple, list)):
                for inner in part:
                    if isinstance(inner, _sre_parse.SubPattern) and _has_cross_reference(inner):
                        return True
    return False


_TEXT_ENDS = {_sre.AT_BEGINNING_STRING, _sre.AT_END_STRING}
_LINE_OR_TEXT_ENDS = {_sre.AT_BEGINNING, _sre.AT_END}  # ^ and $: the text's ends without re.M


@functools.lru_cache(maxsize=256)
def anchored_to_text_ends(source: str, flags: int) -> bool:
    """Whether the regex can only match at the start or the end of the whole text searched:
    `\\A`, `\\Z`, or `^`/`$` without MULTILINE. The search of a long stream's cut middle
    (output.StreamCapture) goes a block or a line at a time, and there `tokens/s: (?P<v>\\S+)\\s*\\Z`
    matched at the end of the first block (the first value of the log, not its last) and
    `matches: 'DONE\\s*\\Z'` passed on a log that ended in a traceback. The kept head and tail
    hold the text's true ends, so such a regex is answered from them alone."""
    try:
        parsed = _sre_parse.parse(source, flags)
    except re.error:
        return False
    ends = _TEXT_ENDS | (set() if parsed.state.flags & re.MULTILINE else _LINE_OR_TEXT_ENDS)
    return _has_at(parsed, ends)


def _has_at(parsed: Any, ends: set[Any]) -> bool:
    for op, value in parsed:
        if op is _sre.AT and value in ends:
            return True
        for part in value if isinstance(value, (tuple, list)) else ():
            if isinstance(part, _sre_parse.SubPattern) and _has_at(part, ends):
                return True
            if isinstance(part, (tuple, list)):
                for inner in part:
                    if isinstance(inner, _sre_parse.SubPattern) and _has_at(inner, ends):
                        return True
    return False


# Categories whose characters include "\n": \s, \D, \W (and their UNI_ forms).
_NEWLINE_CATEGORIES = {name for name in ("CATEGORY_SPACE", "CATEGORY_NOT_DIGIT", "CATEGORY_NOT_WORD", "CATEGORY_UNI_SPACE",
                                         "CATEGORY_UNI_NOT_DIGIT", "CATEGORY_UNI_NOT_WORD", "CATEGORY_LOC_NOT_WORD")}


@functools.lru_cache(maxsize=256)
def can_match_newline(source: str, flags: int) -> bool:
    """Whether some part of the regex can match a "\\n", so that a match can span lines:
    `Loading(?s:.*)Done`, `error\\s+at`, `[^;]+`. The part of a long stream cut from the record
    is searched a line at a time (StreamCapture.search_whole), where such a match is not seen."""
    try:
        parsed = _sre_parse.parse(source, flags)
    except re.error:
        return False
    return _newline_in(parsed, bool(parsed.state.flags & re.DOTALL))


def _newline_in(parsed: Any, dotall: bool) -> bool:
    for op, value in parsed:
        if op is _sre.LITERAL and value == 10 or op is _sre.NOT_LITERAL and value != 10:
            return True
        if op is _sre.ANY and dotall:
            return True
        if op is _sre.CATEGORY and str(value) in _NEWLINE_CATEGORIES:
            return True
        if op is _sre.IN and _set_has_newline(value):
            return True
        if op is _sre.SUBPATTERN:
            _, add, remove, inner = value
            inner_dotall = (dotall or bool(add & re.DOTALL)) and not remove & re.DOTALL
            if _newline_in(inner, inner_dotall):
                return True
            continue
        for part in value if isinstance(value, (tuple, list)) else ():
            if isinstance(part, _sre_parse.SubPattern) and _newline_in(part, dotall):
                return True
            if isinstance(part, (tuple, list)):
                if any(isinstance(inner, _sre_parse.SubPattern) and _newline_in(inner, dotall) for inner in part):
                    return True
    return False


def _set_has_newline(items: list[Any]) -> bool:
    negated = any(op is _sre.NEGATE for op, _ in items)
    listed = any(op is _sre.LITERAL and v == 10 or op is _sre.RANGE and v[0] <= 10 <= v[1]
                 or op is _sre.CATEGORY and str(v) in _NEWLINE_CATEGORIES for op, v in items)
    return listed != negated
