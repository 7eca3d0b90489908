"""An Azure storage account's key (it reads and writes every blob of the account) stood in clear
where a session pulls a checkpoint from blob storage: `export AZURE_STORAGE_KEY=...`,
AZURE_STORAGE_ACCOUNT_KEY, a connection string's `AccountKey=...;`, `az storage blob download
--account-key ...`, an argv or a parsed config's `accountKey`: no token shape (88 characters of
base64) and no name the patterns knew. Now the key is masked in each; the account's name, the
endpoint and a key that names no secret (`storage_key: path`, `account_key_id: 42`) stay."""

from __future__ import annotations

import base64
import json

import pytest

from spec_debug.redact import MASK, redact_text, redact_value, secret_spans

KEY = base64.b64encode(bytes(range(7, 71))).decode()  # 64 bytes, as Azure's keys are: 88 characters


@pytest.mark.parametrize("text, masked", [
    (f"export AZURE_STORAGE_KEY={KEY}", f"export AZURE_STORAGE_KEY={MASK}"),
    (f'export AZURE_STORAGE_ACCOUNT_KEY="{KEY}"', f'export AZURE_STORAGE_ACCOUNT_KEY="{MASK}"'),
    (f"export AZURE_STORAGE_CONNECTION_STRING='DefaultEndpointsProtocol=https;AccountName=ckpts;AccountKey={KEY};"
     "EndpointSuffix=core.windows.net'",
     f"export AZURE_STORAGE_CONNECTION_STRING='DefaultEndpointsProtocol=https;AccountName=ckpts;AccountKey={MASK};"
     "EndpointSuffix=core.windows.net'"),
    (f"az storage blob download --account-name ckpts --account-key {KEY} -c eagle3 -n model.safetensors -f /models/m",
     f"az storage blob download --account-name ckpts --account-key {MASK} -c eagle3 -n model.safetensors -f /models/m"),
    (f"az storage blob list --account-name ckpts --account-key={KEY} -c eagle3",
     f"az storage blob list --account-name ckpts --account-key={MASK} -c eagle3"),
    (f"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={KEY}",
     f"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={MASK}"),
])
def test_the_key_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


def test_json_config_and_argv() -> None:
    config = {"accountName": "ckpts", "accountKey": KEY, "container": "eagle3"}
    assert json.loads(redact_text(json.dumps(config))) == {**config, "accountKey": MASK}
    assert redact_value(config) == {**config, "accountKey": MASK}
    argv = ["az", "storage", "blob", "download", "--account-name", "ckpts", "--account-key", KEY, "-c", "eagle3"]
    assert redact_value({"argv": argv}) == {"argv": [*argv[:7], MASK, "-c", "eagle3"]}


@pytest.mark.parametrize("text", [
    "storage_key: checkpoints/eagle3/model.safetensors",
    "account_key_id: 42",
    "az storage account keys list --account-name ckpts --query '[0].value' -o tsv",
    "export AZURE_STORAGE_KEY=$(az storage account keys list -n ckpts --query '[0].value' -o tsv)",
    "SharedAccessKeyName=RootManageSharedAccessKey",
])
def test_no_key_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
