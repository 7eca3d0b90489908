"""A netrc `default` entry's password (netrc(5): default matches any machine) is masked, as a
`machine` entry's is: `cat ~/.netrc` kept `default login anonymous password PASS` in clear."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

SECRET = "s3cretPass9"


@pytest.mark.parametrize("template", [
    "default login anonymous password {s}",
    "machine api.wandb.ai login user password abc\ndefault login bob password {s}\n",
    "default\n  login bob\n  account acct\n  password {s}\n",
])
def test_default_entry_password_masked(template: str) -> None:
    text = template.format(s=SECRET)
    assert SECRET not in redact_text(text)
    assert redact_text(text).endswith(template.format(s=MASK).rsplit("abc", 1)[-1])
    at = text.index(SECRET)
    assert (at, at + len(SECRET)) in secret_spans(text)


@pytest.mark.parametrize("text", ["the default password is changeme", "set a default password quickly",
                                  "default login page, password reset"])
def test_prose_stays(text: str) -> None:
    assert redact_text(text) == text
