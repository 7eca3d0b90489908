"""`playbooks validate` on `when: "{{ ... }}"` (Ansible's habit) offers the text without the braces
as the fix only when that text is itself a valid expression.

`when: "{{ x ==  }}"` was told "write 'x ==' without {{ }}": the user did so and got a syntax error
again. `when: "{{ a }} and {{ b }}"` was told to write 'a }} and {{ b'. Each fix the hint offers is
loaded back here: it must validate.
"""

from __future__ import annotations

import re

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text


def _playbook(when: str) -> str:
    quoted = '"' + when.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"name: t\nvars:\n  x: 1\n  y: 2\nsteps:\n  - id: a\n    run: echo hi\n    when: {quoted}\n"


def _hint(when: str) -> str:
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(_playbook(when), "pb.yaml")
    return caught.value.hint or ""


@pytest.mark.parametrize(("when", "fix"), [
    ("{{ x == 1 }}", "x == 1"),
    ("{{ x }} and {{ y }}", "x and y"),
    ("{{ x }} == 1", "x == 1"),
    ("{{- x -}}", "x"),
    ("{{ x == '}}' }}", "x == '}}'"),
])
def test_offered_fix_is_the_expression_and_it_validates(when, fix):
    hint = _hint(when)
    assert hint == f"when is an expression already: write {fix!r} without {{{{ }}}}"
    load_playbook_text(_playbook(fix), "pb.yaml")  # the fix as offered: no error


def test_cut_off_expression_is_not_offered_as_the_fix():
    hint = _hint("{{ x ==  }}")
    assert "write 'x ==' without" not in hint
    assert hint == ("when is an expression already: drop the {{ }}; then the expression ends after '==': "
                    "finish it (e.g. facts.NAME == 3), or remove the operator")


def test_empty_braces_ask_for_the_expression():
    assert _hint("{{ }}") == (
        "when is an expression already: drop the {{ }} and write the expression itself (e.g. facts.NAME == 3)")


def test_two_words_inside_the_braces_get_the_two_words_hint():
    hint = _hint("{{ yes please }}")
    assert hint.startswith("when is an expression already: drop the {{ }}; then ")
    assert "write 'yes please' without" not in hint


@pytest.mark.parametrize("when", ["{{ x ==  }}", "{{ x }} and {{ y }}", "{{ x }} == 1", "{{ yes please }}",
                                  "{{ x == 1 }}", "{{ x }} {% if x %}"])
def test_no_hint_offers_text_that_fails_to_load(when):
    for fix in re.findall(r"write ('[^']*'|\"[^\"]*\") without", _hint(when)):
        load_playbook_text(_playbook(fix[1:-1]), "pb.yaml")
