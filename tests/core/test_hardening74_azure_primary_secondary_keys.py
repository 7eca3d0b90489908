"""Azure's access keys named primaryKey and secondaryKey stood in clear. `az servicebus namespace
authorization-rule keys list` (and Event Hubs', `az redis list-keys`, `az signalr key list`, `az search
admin-key show`) prints {"keyName": ..., "primaryConnectionString": "...;SharedAccessKey=...",
"primaryKey": "...", "secondaryKey": "..."}: the connection strings were masked, the same keys beside
them were not; a SignalR connection string's `AccessKey=` was not either. Now both keys are masked in
a mapping that holds a secondaryKey (text, streams and parsed dicts; PowerShell's PrimaryKey too), and
a connection string's AccessKey; a table schema's {"primaryKey": "id"} stays."""

from __future__ import annotations

import base64
import json

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text, redact_value, secret_spans

K1 = base64.b64encode(bytes(range(11, 43))).decode()  # 44 characters, as a Service Bus key
K2 = base64.b64encode(bytes(range(100, 132))).decode()
NS = "Endpoint=sb://ckpt-ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey="

SERVICE_BUS = {"aliasPrimaryConnectionString": None, "aliasSecondaryConnectionString": None,
               "keyName": "RootManageSharedAccessKey", "primaryConnectionString": NS + K1, "primaryKey": K1,
               "secondaryConnectionString": NS + K2, "secondaryKey": K2}
MASKED = {**SERVICE_BUS, "primaryConnectionString": NS + MASK, "primaryKey": MASK,
          "secondaryConnectionString": NS + MASK, "secondaryKey": MASK}


@pytest.mark.parametrize("dump", [json.dumps, lambda d: json.dumps(d, indent=2)])
def test_service_bus_keys_masked_in_text(dump) -> None:
    text = dump(SERVICE_BUS)
    assert json.loads(redact_text(text)) == MASKED
    spans = [text[s:e] for s, e in secret_spans(text)]
    assert spans.count(K1) == 2 and spans.count(K2) == 2


def test_service_bus_keys_masked_in_stream() -> None:
    text = json.dumps(SERVICE_BUS, indent=2)
    redactor = StreamRedactor()
    out = (redactor.feed(text.encode()) + redactor.close()).decode()
    assert json.loads(out) == MASKED


def test_parsed_dicts() -> None:
    assert redact_value(SERVICE_BUS) == MASKED
    assert redact_value({"PrimaryKey": K1, "SecondaryKey": K2, "KeyName": "k"}) == {
        "PrimaryKey": MASK, "SecondaryKey": MASK, "KeyName": "k"}
    assert redact_text(repr({"primaryKey": K1, "secondaryKey": K2})) == repr({"primaryKey": MASK, "secondaryKey": MASK})


@pytest.mark.parametrize("text, masked", [
    (f"Endpoint=https://sd.service.signalr.net;AccessKey={K1};Version=1.0;",
     f"Endpoint=https://sd.service.signalr.net;AccessKey={MASK};Version=1.0;"),
    (f"endpoint=https://sd.communication.azure.com/;accesskey={K1}", f"endpoint=https://sd.communication.azure.com/;accesskey={MASK}"),
])
def test_connection_string_access_key(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("value", [
    {"primaryKey": "id", "secondaryKey": "name"},  # a table schema's keys name columns
    {"primaryKey": K1},  # no pair: a key of another shape of record
    {"primaryKey": "$PRIMARY_KEY_VALUE_FROM_ENV", "secondaryKey": "$SECONDARY_KEY_VALUE_FROM"},
])
def test_no_secret_stays(value: dict) -> None:
    assert redact_text(json.dumps(value)) == json.dumps(value)
    assert redact_value(value) == value
