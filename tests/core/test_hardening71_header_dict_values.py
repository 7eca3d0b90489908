"""A parsed headers dict ({"Authorization": "Bearer x"}, {"Cookie": "..."}) has its credential
masked, as the text patterns mask the same header written in a string."""

import pytest

from spec_debug.redact import MASK, is_secret_name, redact_text, redact_value

_KEY = "team-serving-7f3a9c2e41d8"


@pytest.mark.parametrize("key,value,expected", [
    ("Authorization", f"Bearer {_KEY}", f"Bearer {MASK}"),
    ("authorization", "Basic dXNlcjpwYXNzd29yZA==", f"Basic {MASK}"),
    ("AUTHORIZATION", _KEY, MASK),
    ("Proxy-Authorization", "Basic dXNlcjpwYXNz", f"Basic {MASK}"),
    ("Cookie", "sessionid=9f8e7d; csrftoken=77aa", MASK),
    ("cookie", "session=abc", MASK),
    ("Set-Cookie", "sid=31d4d96e407aad42; Path=/; HttpOnly", f"{MASK}; Path=/; HttpOnly"),
])
def test_credential_header_value_masked(key, value, expected):
    headers = {key: value, "Content-Type": "application/json"}
    assert redact_value(headers) == {key: expected, "Content-Type": "application/json"}
    assert redact_value({"request": {"headers": headers}}) == {"request": {"headers": {key: expected, "Content-Type": "application/json"}}}
    assert redact_value([headers]) == [{key: expected, "Content-Type": "application/json"}]
    assert redact_value(value, key) == expected


@pytest.mark.parametrize("headers", [
    {"Authorization": "Bearer $VLLM_API_KEY"},
    {"Cookie": "$COOKIE"},
    {"Authorization": ""},
    {"Content-Type": "application/json", "Accept": "text/event-stream"},
    {"X-Request-Id": "abc"},
])
def test_no_credential_kept(headers):
    assert redact_value(headers) == headers


def test_same_as_the_text_pattern():
    assert redact_text(f'{{"Authorization": "Bearer {_KEY}"}}') == f'{{"Authorization": "Bearer {MASK}"}}'
    assert redact_value({"Authorization": f"Bearer {_KEY}"}) == {"Authorization": f"Bearer {MASK}"}


def test_header_names_are_no_secret_names():
    # distill names a cookie's var `cookie_secret` because "cookie" is no secret's name
    assert not is_secret_name("cookie") and not is_secret_name("Authorization")
