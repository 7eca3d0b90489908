"""Regex syntax from other engines, in a capture or `matches:` (Python's re reads them).

Authors copy patterns from grep, sed, awk and JavaScript:
- `[[:digit:]]+` (POSIX bracket expressions, grep/sed/awk): Python's re has none and reads
  `[[:digit:]]` as one of the characters `[:digt` followed by `]`, so the pattern compiled
  (with a FutureWarning printed as a raw Python warning) and never matched: the check failed,
  or the fact was never set, with nothing said about why (docs.python.org, re: "Character
  classes such as \\w or \\S ... are also accepted inside a set"; no POSIX classes).
- `(?<name>...)` (PCRE, JavaScript, .NET, Go 1.22): "unknown extension ?<a"; Python 3.11 names
  a group only as `(?P<name>...)`.
- `(?P<accept-len>...)`: a group name becomes a fact name, letters, digits and _ only.

Each is looked for only where it is regex syntax: `\\(?<unk>\\)?` (an optional literal
parenthesis before the text `<unk>`) and `\\[:digit:]` (the literal text `[:digit:]`) are
valid Python patterns, and were refused.
"""

from __future__ import annotations

import re

# POSIX classes (POSIX.1-2017, XBD 9.3.5 "RE Bracket Expression") and what they are inside a
# Python set.
_POSIX_CLASSES = {
    "alnum": "A-Za-z0-9", "alpha": "A-Za-z", "blank": " \\t", "cntrl": "\\x00-\\x1f\\x7f", "digit": "0-9",
    "graph": "!-~", "lower": "a-z", "print": " -~", "punct": "!-/:-@\\[-`{-~", "space": "\\s",
    "upper": "A-Z", "xdigit": "0-9A-Fa-f",
}
# Each starts where an even run of backslashes (none, or escaped backslashes) ends: an escaped
# `\\(` or `\\[` is a literal character, not the start of a group or a class.
_UNESCAPED = r"(?<!\\)((?:\\\\)*)"
_POSIX_CLASS = re.compile(_UNESCAPED + r"\[:(" + "|".join(_POSIX_CLASSES) + r"):\]")
_PCRE_NAMED_GROUP = re.compile(_UNESCAPED + r"\(\?<(?![=!])([A-Za-z_][\w-]*)>")
_BAD_GROUP_NAME = re.compile(_UNESCAPED + r"\(\?P<([A-Za-z_][\w]*(?:-[\w]+)+)>")


def regex_habit(pattern: str) -> str | None:
    """Why `pattern` does not mean in Python what it means where it was copied from, with the
    pattern to write (every habit in it fixed); None when nothing of the kind is in it."""
    fixed = _POSIX_CLASS.sub(lambda m: m.group(1) + _POSIX_CLASSES[m.group(2)], pattern)
    fixed = _PCRE_NAMED_GROUP.sub(lambda m: f"{m.group(1)}(?P<{m.group(2).replace('-', '_')}>", fixed)
    fixed = _BAD_GROUP_NAME.sub(lambda m: f"{m.group(1)}(?P<{m.group(2).replace('-', '_')}>", fixed)
    if fixed == pattern:
        return None
    posix = _POSIX_CLASS.search(pattern)
    if posix is not None:
        why = (f"{posix.group(0)[len(posix.group(1)):]} is a POSIX class (grep, sed), which Python's re reads as a set of its letters, "
               f"so the pattern never matches as meant")
    elif _PCRE_NAMED_GROUP.search(pattern):
        why = "Python names a group (?P<name>...), not (?<name>...)"
    else:
        why = "a group name becomes a fact name, letters, digits and _ only"
    return f"invalid regex: {why}: write {fixed}"
