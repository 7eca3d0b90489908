"""An Authorization header's credentials under any one-word scheme, or with no scheme, in text.

Before: the text pattern knew Bearer, Basic and Token only: `curl -H "Authorization: ApiKey ..."`
(Elasticsearch), `Authorization: Key ...`, FCM's `Authorization: key=...` and a bare key in quotes
(`-H 'Authorization: KEY'`, `{"Authorization": "KEY"}` in a script's text) kept the credential,
while a parsed headers dict masked the same values. A `$VAR`, an empty value, a scheme alone and
prose stay.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, redact_value, secret_spans

KEY = "dGVzdGtleTpzM2NyM3Q0Mg"


@pytest.mark.parametrize("text, masked", [
    (f'curl -H "Authorization: ApiKey {KEY}" http://es:9200/_cat', f'curl -H "Authorization: ApiKey {MASK}" http://es:9200/_cat'),
    (f"Authorization: Key {KEY}\n", f"Authorization: Key {MASK}\n"),
    (f"curl -H 'Authorization: key={KEY}' https://fcm", f"curl -H 'Authorization: key={MASK}' https://fcm"),
    (f"curl -H 'Authorization: {KEY}' http://h/v1/models", f"curl -H 'Authorization: {MASK}' http://h/v1/models"),
    (f'headers = {{"Authorization": "{KEY}"}}', f'headers = {{"Authorization": "{MASK}"}}'),
    (f"Authorization: DPoP {KEY}", f"Authorization: DPoP {MASK}"),
    (f'headers = {{"Authorization": "Bearer {KEY}"}}', f'headers = {{"Authorization": "Bearer {MASK}"}}'),
])
def test_credential_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


def test_text_masks_what_the_dict_masks() -> None:
    for value, masked in ((f"ApiKey {KEY}", f"ApiKey {MASK}"), (KEY, MASK)):
        assert redact_value({"Authorization": value}) == {"Authorization": masked}
        assert redact_text(f'{{"Authorization": "{value}"}}') == f'{{"Authorization": "{masked}"}}'


@pytest.mark.parametrize("text", [
    '-H "Authorization: Bearer $TOKEN"',
    '-H "Authorization: $API_KEY"',
    '{"Authorization": "Bearer"}',
    '{"authorization": ""}',
    "Authorization header missing",
    "Authorization: required for this route",
])
def test_no_credential_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
