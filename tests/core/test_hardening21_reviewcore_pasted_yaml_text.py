"""A YAML syntax error was blamed on a bullet or an en dash that starts a line of a `why: |` text
(`• the draft`, `– the target`): valid text, the file's own words, named "where a list item's
'-' goes", while the real error (a tab on a later line) went unsaid. A look-alike is named only
where writing its plain character changes the error."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook import load_playbook_text

TEXT_WITH_BULLETS = (
    "name: p\ndescription: d\nsteps:\n- id: s\n  title: t\n  why: |\n    Two causes:\n"
    "    \u2022 the draft\n    \u2013 the target\n  run: nvidia-smi\n  timeout:\t5\n"
)


def test_the_real_error_is_named_not_the_texts_bullets():
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(TEXT_WITH_BULLETS, "p.yaml")
    assert raised.value.line == 11 and "\\t" in str(raised.value), str(raised.value)
    assert "BULLET" not in str(raised.value) and "EN DASH" not in str(raised.value)


def test_a_pasted_bullet_in_the_structure_is_still_named():
    text = "name: p\ndescription: d\nsteps:\n\u2022 id: s\n  title: t\n  why: w\n  run: nvidia-smi\n"
    with pytest.raises(PlaybookError, match="U\\+2022 BULLET where a list item's '-' goes"):
        load_playbook_text(text, "p.yaml")


def test_a_no_break_space_opening_a_why_text_is_the_texts_own():
    # Made a plain space, it moves the block's indentation and YAML stops sooner: not the cause.
    text = ("name: p\ndescription: d\nsteps:\n- id: s\n  title: t\n  why: |\n    \u00a0quoted from the docs\n"
            "    \u00a0second line\n  run: nvidia-smi\n  timeout:\t5\n")
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(text, "p.yaml")
    assert raised.value.line == 10 and "NO-BREAK" not in str(raised.value), str(raised.value)
