"""A secret's name spelt in camelCase (accessToken, hfToken, dbPassword, clientSecret, secretKey) is
a secret's name: a JSON config's or a JS client's keys are, and the text patterns already read
`"accessToken": "..."` as one (any letters before the word, no separator needed).

Before: is_secret_name wanted the word after a "_" or "-" (or alone), so a dict parsed from JSON,
a `--var dbPassword=...` or a fact captured as `(?P<authToken>...)` kept its value in run.json and
the reports while the same line as text was masked; `{"secretKey": "..."}` was masked in neither.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, is_secret_name, redact_text, redact_value

SECRET = "Qm7vTz2pLx9Wk4"


@pytest.mark.parametrize("name", ["accessToken", "hfToken", "HFToken", "dbPassword", "clientSecret", "authToken",
                                  "secretKey", "signingKey", "apiKey2"])
def test_a_camel_case_secret_name_is_a_secret_name(name: str) -> None:
    """As the text patterns read `"accessToken": "..."` (masked), a dict's key, a --var or a
    captured fact named so is a secret's: `{"accessToken": ...}` parsed from JSON was kept."""
    assert is_secret_name(name)
    assert redact_value({name: SECRET}) == {name: MASK}
    assert redact_text(f'{{"{name}": "{SECRET}"}}') == f'{{"{name}": "{MASK}"}}'


@pytest.mark.parametrize("name", ["nextToken", "maxTokens", "numDraftTokens", "eosToken", "publicKey", "sortKey",
                                  "secretKeyPath", "primaryKey", "tokenCount", "bypassMode"])
def test_other_camel_case_names_stay(name: str) -> None:
    assert not is_secret_name(name)
    assert redact_value({name: SECRET}) == {name: SECRET}
