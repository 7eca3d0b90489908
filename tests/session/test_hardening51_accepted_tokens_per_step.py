"""The accept length said as tokens per step ("Our SGLang deployment accepts ~1.1 tokens per
step", "only 1.1 accepted tokens per verify step") was no reading: the report that started a
session had no accept length to compare the fixed server's 3.1 with."""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import extract_metrics


@pytest.mark.parametrize("text, value", [
    ("Our SGLang EAGLE3 deployment on gpu-b200-2 accepts ~1.1 tokens per step.", 1.1),
    ("it is accepting 2.4 tokens per round now", 2.4),
    ("only 1.1 accepted tokens per verify step", 1.1),
    ("The draft proposes 3 tokens per step and we accept 1.2 tokens per decode step.", 1.2),
])
def test_tokens_accepted_per_step_are_the_accept_length(text: str, value: float) -> None:
    assert [(m.name, m.value, m.unit) for m in extract_metrics(text)] == [("accept_length", value, "tokens")]


@pytest.mark.parametrize("text", [
    "We accepted the PR. 10 tokens per step at most.",
    "The draft proposes 3 tokens per step.",
    "accepts 0.4 tokens per step",  # below the one token every step keeps: no accept length
])
def test_no_accept_length_without_one(text: str) -> None:
    assert [m for m in extract_metrics(text) if m.name == "accept_length"] == []
