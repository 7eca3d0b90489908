"""A session that checks which token it is logged in with prints huggingface_hub's `whoami()`:
`{'type': 'user', 'name': 'bob', 'auth': {'type': 'access_token', 'accessToken': {'displayName':
'ci', 'role': 'read', ...}}}`, no secret in it (the token's name and role). The "{" after
`accessToken` was masked as the token's value, `'accessToken': ***REDACTED***'displayName': ...`: the
dump mangled, no longer a mapping, and what the 403 postmortem needs (role "read") read as a
secret's remains. Now a "{" that opens a mapping is no value: the mapping stays, its keys read on
their own (a secret's name inside is masked), as redact_value walks a dict under any key."""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import MASK, redact_text, redact_value

# the shape of https://huggingface.co/api/whoami-v2 (huggingface_hub HfApi.whoami returns it as a dict)
_WHOAMI = {"type": "user", "id": "6530e4c3a5f6", "name": "bob", "fullname": "Bob", "isPro": False,
           "orgs": [{"type": "org", "name": "acme-ml", "roleInOrg": "write"}],
           "auth": {"type": "access_token",
                    "accessToken": {"displayName": "ci", "role": "read", "createdAt": "2025-01-01T00:00:00.000Z"}}}


@pytest.mark.parametrize("dump", [repr, json.dumps, lambda d: json.dumps(d, indent=2)])
def test_whoami_dump_stays(dump) -> None:
    text = dump(_WHOAMI)
    assert redact_text(text) == text
    assert redact_value(_WHOAMI) == _WHOAMI


def test_secret_name_inside_the_mapping_still_masked() -> None:
    text = json.dumps({"auth": {"accessToken": {"displayName": "ci", "token": "s3cr3t-value"}}})
    assert json.loads(redact_text(text)) == {"auth": {"accessToken": {"displayName": "ci", "token": MASK}}}


@pytest.mark.parametrize("text, masked", [
    ("password={abc,def", f"password={MASK},def"),  # a brace typed in a value is still the value
    ('"accessToken": "s3cr3t-value"', f'"accessToken": "{MASK}"'),
])
def test_values_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
