"""A token of the sequence (the model's next token, a drafter's draft token, the target's token it is
checked against) is what a speculative-decoding debug session prints and compares, not a secret:
masked, `next_token = logits[:, -1].argmax(dim=-1)` read `next_token = ***REDACTED***` and a dump
record's {"draft_token": "▁the"} lost the very token whose acceptance was being debugged."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, is_secret_name, redact_text, redact_value, secret_spans


@pytest.mark.parametrize("text", [
    "next_token = logits[:, -1].argmax(dim=-1)",
    "draft_token = draft_tokens[0]",
    "    target_token = target_logits.argmax(-1)\n    accepted_token = draft_token if ok else target_token",
    '{"step": 3, "draft_token": "▁the", "target_token": "▁a", "bonus_token": "."}',
    "sampled_token: ' the'",
    "print(f'prev_token={prev_token!r}')",
    "last_token=ids[-1]",
    "predicted_token = tok.decode(pred)",
    "first_token: 'Hello'",
])
def test_tokens_of_the_sequence_stay_readable(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


def test_values_under_sequence_token_keys_stay() -> None:
    record = {"draft_token": "▁the", "target_token": "▁a", "next_token": "x", "generated_token": "y"}
    assert redact_value(record) == record
    for name in ("next_token", "DRAFT_TOKEN", "accepted_tokens", "rejected_token", "current_token", "output_token"):
        assert not is_secret_name(name), name


@pytest.mark.parametrize("text, masked", [
    ("ACCESS_TOKEN=abc", "ACCESS_TOKEN=" + MASK),
    ("id_token = 'eyJabc'", "id_token = '" + MASK + "'"),
    ("refresh_token: abc", "refresh_token: " + MASK),
    ("NEW_TOKEN=abc", "NEW_TOKEN=" + MASK),
    ("session_token=abc", "session_token=" + MASK),
    ("next_token_secret=abc", "next_token_secret=" + MASK),
])
def test_credentials_named_token_are_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    assert redact_value({"auth_token": "a", "bearer_token": "b"}) == {"auth_token": MASK, "bearer_token": MASK}
