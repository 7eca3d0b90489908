"""A form body's first field (`curl -d 'token=abc&x=1'`, --data, --data-raw, --data-binary, a
client's `data="..."`) is masked to its "&", as a query's parameter is: it was masked to the closing
quote, and the fields after the secret were lost from the evidence (everything.curl.dev, "Simple
POST": the fields joined by "&", the bytes sent as given)."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

SECRET = "abc123XYZ"


@pytest.mark.parametrize("template", [
    "curl -d 'token={s}&x=1' http://127.0.0.1:8000/v1/x",
    'curl -d "token={s}&x=1&model=m" http://127.0.0.1/',
    "curl -d'api_key={s}&x=1' http://127.0.0.1/",
    "curl -X POST -H 'Content-Type: application/x-www-form-urlencoded' -d 'password={s}&username=bob' http://127.0.0.1/login",
    'curl --data-raw "api_key={s}&x=1" http://127.0.0.1/',
    "curl --data-binary 'db_pass={s}&x=1' http://127.0.0.1/",
    "curl --data 'client_secret={s}&grant_type=client_credentials' http://127.0.0.1/token",
    'requests.post(url, data="client_secret={s}&grant_type=x")',
])
def test_first_form_field_masked_to_its_ampersand(template: str) -> None:
    text = template.format(s=SECRET)
    assert redact_text(text) == template.format(s=MASK)
    (start, end), = secret_spans(text)
    assert text[start:end] == SECRET


def test_form_field_keeps_hash_and_parentheses() -> None:
    # a body has no fragment: "#" and "(" are the password's own
    text = "curl -d 'password=Pa#ss(1)&u=bob' http://127.0.0.1/"
    assert redact_text(text) == f"curl -d 'password={MASK}&u=bob' http://127.0.0.1/"


@pytest.mark.parametrize("text, masked", [
    # curl URL-encodes --data-urlencode's content: its "&" is the value's own (sent as %26)
    ("curl --data-urlencode 'password=a&b' http://127.0.0.1/", f"curl --data-urlencode 'password={MASK}' http://127.0.0.1/"),
    # -D is --dump-header, no body
    ("curl -D 'token=a&b' http://127.0.0.1/", f"curl -D 'token={MASK}' http://127.0.0.1/"),
    ("body = 'token=a&b'", f"body = 'token={MASK}'"),
])
def test_not_a_form_body_is_masked_whole(text: str, masked: str) -> None:
    assert redact_text(text) == masked
