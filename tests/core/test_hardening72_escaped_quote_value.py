r"""A quoted secret holding an escaped quote (`"a\"b"`), as JSON and a shell's double quotes write it.

Before: `{"password": "pa\"ss-word"}` read `{"password": "***REDACTED***"ss-word"}`: the quoted value
ended at the escaped quote, and the rest of the password stayed in clear (RFC 8259 7: `\"` is a
quotation mark inside a string; bash(1), QUOTING: `\"` inside double quotes is one).
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text


@pytest.mark.parametrize("text, masked", [
    ('{"password": "pa\\"ss-word"}', f'{{"password": "{MASK}"}}'),
    ('export DB_PASSWORD="pa\\"ss" && ./run', f'export DB_PASSWORD="{MASK}" && ./run'),
    ('db_pass: "x\\"y\\\\"', f'db_pass: "{MASK}"'),
    ('{"hf_token": "abc", "x": "y"}', f'{{"hf_token": "{MASK}", "x": "y"}}'),
    ('path = "C:\\\\dir\\\\"; token = "abc"', f'path = "C:\\\\dir\\\\"; token = "{MASK}"'),
])
def test_value_masked_whole(text: str, masked: str) -> None:
    assert redact_text(text) == masked
