"""Round 30 review of the pasted-key hints (a54e37b2). The look-alike hint took any non-ASCII
letter for any Latin one, so a key written in another language was called a misspelt key of the
same length: '名前' "did you mean 'id'? ... U+540D CJK UNIFIED IDEOGRAPH-540D, a look-alike of a
Latin letter", 'тест' "did you mean 'when'?". And a key led by a zero-width character (a
U+200B, a U+2060 word joiner) was said "indented with" it, with the hint "indent with plain
spaces": it indents nothing, and the key to write is the one without it."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text


def _error(key: str) -> PlaybookError:
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(f"name: t\nsteps:\n  - id: a\n    run: nvidia-smi\n    {key}: x\n", "pasted.yaml")
    return caught.value


@pytest.mark.parametrize("key", ["名前", "ид", "тест", "рое"])
def test_a_key_in_another_script_is_an_unknown_key_not_a_look_alike(key):
    error = _error(key)
    assert str(error).splitlines()[0].endswith(f"unknown key {key!r} (at steps[0].{key})")
    assert error.hint.startswith("allowed keys: ") and "look-alike" not in error.hint


def test_a_look_alike_key_still_names_its_letter():
    assert _error("\u0441apture").hint.startswith("did you mean 'capture'? 'сapture' is spelt with U+0441 CYRILLIC SMALL LETTER ES")


@pytest.mark.parametrize("character, name", [("\u200b", "U+200B ZERO WIDTH SPACE"), ("\u2060", "U+2060 WORD JOINER")])
def test_a_zero_width_character_before_a_key_is_deleted_not_an_indent(character, name):
    error = _error(f"{character}title")
    assert f"holds an invisible {name}" in str(error) and "indented" not in str(error)
    assert error.hint == "delete it: write 'title'"
