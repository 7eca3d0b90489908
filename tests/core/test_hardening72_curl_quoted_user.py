"""curl's `-u USER:PASSWORD` in quotes, the password holding a space.

Before: `curl --user 'admin:hunter 2' URL` read `--user 'admin:***REDACTED*** 2'`: the password ran
to the first space, and its rest stayed in clear. In quotes it now runs to the closing quote.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text


@pytest.mark.parametrize("text, masked", [
    ("curl --user 'admin:hunter 2 x' http://h/x", f"curl --user 'admin:{MASK}' http://h/x"),
    ('curl -s -u "admin:p w" http://h/x', f'curl -s -u "admin:{MASK}" http://h/x'),
    ("curl -u admin:hunter2 http://h/x", f"curl -u admin:{MASK} http://h/x"),
])
def test_password_masked_whole(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", ['curl -u "$U:$P" http://h/x', "curl -u 'bot:' http://h/x", "curl -u admin: http://h/x"])
def test_no_password_stays(text: str) -> None:
    assert redact_text(text) == text
