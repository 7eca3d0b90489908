"""A repeated alternation whose alternatives overlap backtracks for ever too, and is refused.

`(.|\\s)*x` is how people write "anything, newlines included" (the OWASP ReDoS page lists
`(a|a)+` and `(a|aa)+` as its "evil regex" forms): against a log line of forty spaces without
an "x" it tries 2**40 ways, and Python's re cannot be interrupted. Exclusive alternatives and
the sets the parser builds from one-character alternatives (`(a|b)+`, `(\\s|,)+`) still load.
"""

from __future__ import annotations

import re
import pytest

from tests.core.test_hardening8_playbook_shapes import validate


@pytest.mark.parametrize("pattern", [
    r"(?P<n>(.|\s)*)x",     # . and \s share the space
    r"(?P<n>(a|a)+)$",      # the parser factors it into a, then two empty alternatives
    r"(?P<n>(a|aa)+)$",     # "aa" is one round or two
    r"(?P<n>(ab|abab)+)$",
    r"(?s)(?P<n>(.|\n)*)x",  # under DOTALL, . is \n too
])
def test_overlapping_repeated_alternatives_are_refused(write_playbook, pattern):
    playbook = write_playbook(f"name: x\nsteps:\n  - id: a\n    run: echo\n    capture:\n      - regex: '{pattern}'\n")
    code, message = validate(playbook)
    assert code == 2
    assert "playbook.yaml:6:9: invalid regex: a repeated alternation whose alternatives can match the same text" \
        in message


@pytest.mark.parametrize("pattern", [
    r"(?P<n>(foo|bar)+)", r"(?P<n>(a|ab)+)", r"(?P<n>(x|xy|xyz)+)", r"(?P<n>(.|\n)*)x", r"(?P<n>(a|b)+)",
    r"(?P<n>(\s|,)+)", r"(?P<n>((?:ERROR|WARN)\s)+)",
])
def test_exclusive_repeated_alternatives_load_and_stay_fast(write_playbook, pattern):
    playbook = write_playbook(f"name: x\nsteps:\n  - id: a\n    run: echo\n    capture:\n      - regex: '{pattern}'\n")
    code, message = validate(playbook)
    assert code == 0, message
    # what makes the refused ones hang (2**40 tries), against each accepted one: it returns
    matcher = re.compile(pattern, re.MULTILINE)
    for line in (" " * 40, "a" * 40 + "!", "foo" * 20 + "!", "xy" * 30 + "!"):
        matcher.search(line)
