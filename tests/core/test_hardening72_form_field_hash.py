"""A form body's later field whose password holds a "#" (`curl -d 'user=bob&password=Pa#ss1'`) is
masked to its "&" or the closing quote: read as a URL query's value it ended at the "#" (a URL's
fragment), and the rest of the password stood after the mask."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text, secret_spans

SECRET = "Pa#ss1"


@pytest.mark.parametrize("template", [
    "curl -d 'username=bob&password={s}' http://127.0.0.1/login",
    'curl -d "username=bob&password={s}&remember=1" http://127.0.0.1/login',
    "curl --data 'u=bob&db_pass={s}&x=2' http://127.0.0.1/login",
    "curl --data-raw 'u=bob&api_key=x{s}(2)' http://127.0.0.1/",
    'requests.post(url, data="grant_type=x&client_secret={s}")',
])
def test_later_form_field_with_hash_masked_whole(template: str) -> None:
    text = template.format(s=SECRET)
    masked = redact_text(text)
    assert "ss1" not in masked
    assert masked == template.format(s=MASK).replace("x" + MASK + "(2)", MASK)
    spans = [text[start:end] for start, end in secret_spans(text)]
    assert len(spans) == 1 and SECRET in spans[0]
    stream = StreamRedactor()
    assert (stream.feed(text.encode()) + stream.close()).decode() == masked


@pytest.mark.parametrize("text, masked", [
    # a URL's query: the "#" starts its fragment
    ("http://127.0.0.1/x?u=1&api_key=abc#frag more", f"http://127.0.0.1/x?u=1&api_key={MASK}#frag more"),
    # outside a form body the query rule stands
    ("see http://127.0.0.1/x?u=1&token=abc#L10 -d", f"see http://127.0.0.1/x?u=1&token={MASK}#L10 -d"),
])
def test_url_fragment_stays(text: str, masked: str) -> None:
    assert redact_text(text) == masked
