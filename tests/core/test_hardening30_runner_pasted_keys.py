"""Keys as they arrive pasted from a web page, a chat or another keyboard layout. A YAML snippet
copied from a rendered page indents with no-break spaces; YAML reads those as text, so
`\\u00a0\\u00a0\\u00a0\\u00a0run: echo hi` under a step became a top-level key of its own, said as
"unknown key '    run'" with the top level's allowed keys. A key typed with a Cyrillic letter
(`іd`, `nаme`) was "unknown key 'іd'" with no match (difflib finds none for two letters) or a
"did you mean 'name'?" naming what looked like the very key written."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text


def _error(text: str) -> PlaybookError:
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(text, "pasted.yaml")
    return caught.value


def test_a_key_indented_with_no_break_spaces_is_named_with_the_character():
    error = _error("name: t\nsteps:\n  - id: check\n\u00a0\u00a0\u00a0\u00a0run: nvidia-smi\n")
    assert (error.line, error.column) == (4, 1)
    assert "key 'run' is indented with a U+00A0 NO-BREAK SPACE" in str(error)
    assert error.hint == "indent with plain spaces"


def test_a_key_with_a_zero_width_space_says_which_key_to_write():
    error = _error("name: t\nsteps:\n  - id\u200b: check\n    run: nvidia-smi\n")
    assert (error.line, error.column) == (3, 5)
    assert "holds an invisible U+200B ZERO WIDTH SPACE" in str(error) and error.hint == "delete it: write 'id'"


@pytest.mark.parametrize("text, meant, letter", [
    ("name: t\nsteps:\n  - \u0456d: check\n    run: nvidia-smi\n", "id", "U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I"),
    ("n\u0430me: t\nsteps:\n  - id: check\n    run: nvidia-smi\n", "name", "U+0430 CYRILLIC SMALL LETTER A"),
])
def test_a_key_spelt_with_a_look_alike_letter_names_the_letter(text, meant, letter):
    error = _error(text)
    assert error.hint.startswith(f"did you mean {meant!r}?") and letter in error.hint
