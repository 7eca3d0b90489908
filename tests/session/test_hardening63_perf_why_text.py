"""why_text skips the split and join of a text whose tail is single-spaced ASCII with no
control character (a short text is then its own normalised form). Every other text is still
normalised: a tab, a newline, a form feed, the separators U+001C-U+001F that ``str.split``
splits on, a non-breaking space, a double space, a space at either end."""

import pytest

from spec_debug.session import reasoning


@pytest.mark.parametrize("text,expected", [
    ("Let me check the d2t map.", "Let me check the d2t map."),
    ("Let me check\tthe d2t map.", "Let me check the d2t map."),
    ("Let me check\nthe d2t map.", "Let me check the d2t map."),
    ("Let me check\x1cthe d2t map.", "Let me check the d2t map."),
    ("Let me check\x0cthe d2t map.", "Let me check the d2t map."),
    ("Let me check\xa0the d2t map.", "Let me check the d2t map."),
    ("Let me check  the d2t map.", "Let me check the d2t map."),
    (" Let me check the d2t map. ", "Let me check the d2t map."),
    ("Let me check\x7fthe d2t map.", "Let me check\x7fthe d2t map."),  # DEL is no whitespace
    ("", ""),
])
def test_short_text_normalised(text, expected):
    assert reasoning.why_text(text) == expected


def test_long_text_tail_after_a_control_character():
    words = "the draft layer reads the hidden state " * 12
    # a unit separator in the tail: split on, as a space would be
    text = "First sentence here. " + words + "End of it.\x1fNow the last sentence is this one."
    # (the window starts inside a sentence: marked "...")
    expected = "..." + "the draft layer reads the hidden state " * 7 + "End of it. Now the last sentence is this one."
    assert reasoning.why_text(text) == expected
    assert reasoning.why_text(text.replace("\x1f", " ")) == expected
    # a non-breaking space (not ASCII) or a tab before the sentence: the same
    assert reasoning.why_text(text.replace("\x1f", "\xa0")) == expected
    assert reasoning.why_text(text.replace("\x1f", "\t")) == expected
