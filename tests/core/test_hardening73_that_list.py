"""`that:` written as a list, as Ansible's `assert: that:` takes it (every condition must hold).

The hint said "that is one text, not a list: write it without [ ] (several lines: that: | and
the text below)"; two expressions on two lines under `that: |` is a Jinja syntax error, so the
advice broke the playbook a second way. Now it says to write one expectation per condition (so
the one that failed is named), or all of them joined with `and`, as `when:` lists are told.
"""

from __future__ import annotations

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

import pytest

HEAD = "name: p\nsteps:\n  - id: a\n    run: echo hi\n    expect:\n"


def test_a_that_list_is_told_one_expectation_each():
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(HEAD + "      - that:\n          - exit_code == 0\n          - \"'hi' in stdout\"\n", "p.yaml")
    assert (caught.value.line, caught.value.column) == (7, 11)
    assert caught.value.hint == (
        "that is one expression: write one expectation per condition (- that: exit_code == 0, then - that: "
        "\"'hi' in stdout\"), or all in one: that: \"(exit_code == 0) and ('hi' in stdout)\"")


def test_both_forms_offered_load():
    each = load_playbook_text(HEAD + "      - that: exit_code == 0\n      - that: \"'hi' in stdout\"\n", "p.yaml")
    assert [e.that for e in each.steps[0].expect] == ["exit_code == 0", "'hi' in stdout"]
    joined = load_playbook_text(HEAD + "      - that: \"(exit_code == 0) and ('hi' in stdout)\"\n", "p.yaml")
    assert joined.steps[0].expect[0].that == "(exit_code == 0) and ('hi' in stdout)"
