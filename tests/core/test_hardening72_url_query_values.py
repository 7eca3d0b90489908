"""A secret in a URL query (`/v1/models?token=abc&model=x`) is masked to its parameter's end, the
next "&" or "#" (RFC 3986 3.4/3.5; the urlencoded parser splits on "&"): it was masked to the next
space or quote, and the parameters after it were lost from the evidence."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

SECRET = "abc123XYZ"


@pytest.mark.parametrize("template", [
    "curl 'http://localhost:8000/v1/models?token={s}&model=x'",
    "GET http://host/v1/x?token={s}&model=x&stream=true HTTP/1.1",
    "http://host/x?api_key={s}#frag more",
    "http://host/x?a=1&access_token={s}&b=2",
    'curl "http://host/x?password={s}&user=bob"',
    "http://h/x?db_pass={s}&user=bob",
    "http://h/x?dbPass={s}&u=1",
    "[docs](http://h/x?hf_token={s})",
    "http://h/x?max_tokens=5&token={s}&b=1",
])
def test_query_value_masked_to_its_parameter(template: str) -> None:
    text = template.format(s=SECRET)
    assert redact_text(text) == template.format(s=MASK)
    (start, end), = secret_spans(text)
    assert text[start:end] == SECRET


@pytest.mark.parametrize("text", ["http://h/x?token=${T}&b=1", "http://h/x?token=$T&b=1", "http://h/x?token=&b=1",
                                  "http://h/x?max_tokens=5&b=1"])
def test_no_secret_in_query_stays(text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize("text, masked", [
    ("password: a&b", "password: " + MASK),
    ("PASSWORD=a&b#c", "PASSWORD=" + MASK),
    ("DB_PASS=a&b", "DB_PASS=" + MASK),
])
def test_value_outside_a_query_is_whole(text: str, masked: str) -> None:
    assert redact_text(text) == masked
