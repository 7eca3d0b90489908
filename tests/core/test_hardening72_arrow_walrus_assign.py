"""A secret assigned with `=>` (Ruby, PHP, Perl) or `:=` (Go, Python's walrus).

Before: `'password' => 'secret'` (a Laravel config's array, a Ruby hash) read
`'password' =***REDACTED*** 'secret'`: the ">" was taken for the value and the secret kept; Go's
`apiKey := "..."` was left whole (":" then "=" read as a comparison). A call's result stays
readable as with "=".
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans


@pytest.mark.parametrize("text, masked", [
    ("'password' => 's3cret-pw',", f"'password' => '{MASK}',"),
    ("token => 'abc123'", f"token => '{MASK}'"),
    (':api_key => "abc123"', f':api_key => "{MASK}"'),
    ("db_pass => 'x1y2z3'", f"db_pass => '{MASK}'"),
    ('apiKey := "abc123"', f'apiKey := "{MASK}"'),
    ("hfToken:=abc123", f"hfToken:={MASK}"),
])
def test_secret_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "if (token := get_token()):",
    "token:=get()",
    "'password' => env('DB_PASSWORD'),",
    "dbPass => get(x)",
    "token == 'abc'",
    "token =>",
    "token := 5",
])
def test_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
