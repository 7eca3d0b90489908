"""A guess that opens its sentence with "Possibly", "Perhaps", "Maybe", "Probably" or "Likely"
("Possibly the hidden-state layers differ between training and serving.") was no hypothesis,
so the postmortem said none was recognised and the "Confirmed: ..." after the fix settled
nothing. A plan worded the same way ("Maybe the next step is ...", "Perhaps it would be worth
...", "Maybe we should restart") stays none."""

from __future__ import annotations

import pytest

from spec_debug.session.reasoning import hypotheses


@pytest.mark.parametrize("text, said", [
    ("Accept length 1.1 with topk 1. Possibly the hidden-state layers differ between training and serving.",
     ["Possibly the hidden-state layers differ between training and serving."]),
    ("Probably the d2t map is stale.", ["Probably the d2t map is stale."]),
    ("Perhaps the draft was trained on another tokenizer.", ["Perhaps the draft was trained on another tokenizer."]),
    ("Maybe the draft config is stale.\nLet me check it.", ["Maybe the draft config is stale."]),
    ("Likely, the d2t holds absolute ids.", ["Likely, the d2t holds absolute ids."]),
    ("Maybe the next step is to check the config.", []),
    ("Perhaps it would be worth checking the config.", []),
    ("Maybe we should restart the server.", []),
    ("Probably the best move is to read the source.", []),
])
def test_a_guess_that_opens_its_sentence(text: str, said: list[str]) -> None:
    assert hypotheses(text) == said
