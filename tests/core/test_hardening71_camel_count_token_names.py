"""A count, a token of the sequence or a tokenizer's special token named in camelCase, and a list
call's page cursor, hold no secret: their values stay, as their snake_case names' do."""

import pytest

from spec_debug.redact import MASK, is_secret_name, redact_text, redact_value


@pytest.mark.parametrize("text", [
    "maxNewToken=abc",
    '{"maxNewTokens": "auto"}',
    '{"nextToken": "abcdef", "draftToken": "\u2581the", "targetToken": "\u2581a"}',
    '"eosToken": "<|eot_id|>"',
    '"padToken": "<pad>"',
    '"pageToken": "CAESBggDEAIYAQ"',
    "nextPageToken: CAESBggDEAIYAQ",
    "next_page_token=CAESBggDEAIYAQ",
    '"NextToken": "AAEAAxyz"',
])
def test_camel_case_count_and_sequence_tokens_kept(text):
    assert redact_text(text) == text


@pytest.mark.parametrize("name", ["nextToken", "draftToken", "eosToken", "pageToken", "nextPageToken",
                                  "page_token", "next_page_token", "NextToken", "maxNewTokens"])
def test_not_secret_names(name):
    assert is_secret_name(name) is False
    assert redact_value({name: "CAESBggD"}) == {name: "CAESBggD"}


@pytest.mark.parametrize("text,expected", [
    ("accessToken=abcdef", f"accessToken={MASK}"),
    ('"hfToken": "abcdefg"', f'"hfToken": "{MASK}"'),
    ("newToken=abcdef", f"newToken={MASK}"),
    ('"idToken": "abcdefgh"', f'"idToken": "{MASK}"'),
    ("pageTokenSecret=abcdef", f"pageTokenSecret={MASK}"),
])
def test_credentials_in_camel_case_still_masked(text, expected):
    assert redact_text(text) == expected
