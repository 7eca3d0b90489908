"""The Azure CLI's service principal secret given as `az login ... -p SECRET`.

Before: `az login --service-principal -u APP_ID -p SECRET --tenant T` kept the client secret in
clear (its `--password` spelling was masked by the flag pattern, its `-p` was no one's: -p means
other things in other commands). A `$VAR` and a login with no -p stay.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text, secret_spans

SECRET = "Xy8Q~abc.DEF_ghi-JKL0123456789mnopq"


@pytest.mark.parametrize("text, masked", [
    (f"az login --service-principal -u 0a1b-2c3d -p {SECRET} --tenant t1",
     f"az login --service-principal -u 0a1b-2c3d -p {MASK} --tenant t1"),
    (f'az login --service-principal -u id -p "-6fk{SECRET}" --tenant t', f'az login --service-principal -u id -p "{MASK}" --tenant t'),
    (f"az login --service-principal --username id --password {SECRET} --tenant t",
     f"az login --service-principal --username id --password {MASK} --tenant t"),
])
def test_secret_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "az login --service-principal -u id -p $AZURE_CLIENT_SECRET --tenant t",
    "az login --use-device-code",
    "baz login -p value",
    "az storage blob list -p prefix",
])
def test_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
