"""`contains:` (or `not_contains:`, `matches:`) written as a list of texts, each meant to be found.

The hint said "contains is one text, not a list: write it without [ ] (several lines: contains: |
and the text below)": a block of the two texts looks for them as two lines one after the other,
and failed on a log where both appear apart. Now it says to write one expectation per text, each
in single quotes (a regex's backslashes kept).
"""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

HEAD = "name: p\nsteps:\n  - id: a\n    run: echo hi\n    expect:\n"


@pytest.mark.parametrize("line, hint", [
    ('      - contains: ["Uvicorn running", "ready"]\n',
     "contains takes one text: write one expectation per text (- contains: 'Uvicorn running', then - contains: 'ready')"),
    ("      - matches: ['accept_len: \\d+', 'tok/s']\n",
     "matches takes one text: write one expectation per text (- matches: 'accept_len: \\d+', then - matches: 'tok/s')"),
])
def test_a_list_of_texts_is_told_one_expectation_each(line, hint):
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(HEAD + line, "p.yaml")
    assert caught.value.line == 6
    assert caught.value.hint == hint


def test_the_expectations_offered_load():
    loaded = load_playbook_text(HEAD + "      - matches: 'accept_len: \\d+'\n      - matches: 'tok/s'\n", "p.yaml")
    assert [e.matches for e in loaded.steps[0].expect] == ["accept_len: \\d+", "tok/s"]
