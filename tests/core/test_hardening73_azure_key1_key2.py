"""`az cognitiveservices account keys list -n aoai -g rg` (the keys of an Azure OpenAI or AI
Services resource, what a session compares a drafter's outputs against) prints {"key1": ...,
"key2": ...}: each a key to the resource, in clear in the run and the postmortem (no secret's name,
no token shape: 32 hex digits). Now both are masked where a mapping holds key1 and key2 and each
has a key's shape, in text, streams and parsed dicts; a mapping with short values
(`{"key1": "a", "key2": "b"}`) or key1 alone stays."""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text, redact_value

KEY1 = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
KEY2 = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
KEYS = {"key1": KEY1, "key2": KEY2}
MASKED = {"key1": MASK, "key2": MASK}


@pytest.mark.parametrize("dump", [json.dumps, lambda d: json.dumps(d, indent=2), repr])
def test_keys_list_masked(dump) -> None:
    masked = redact_text(dump(KEYS))
    assert masked == dump(MASKED)


def test_parsed_and_nested() -> None:
    assert redact_value(KEYS) == MASKED
    assert redact_value({"resource": "aoai", "keys": KEYS}) == {"resource": "aoai", "keys": MASKED}
    text = "$ az cognitiveservices account keys list -n aoai -g rg\n" + json.dumps(KEYS, indent=2) + "\n"
    data = (("z" * 60 + "\n") * 3000 + text).encode()
    stream = StreamRedactor()
    out = b"".join(stream.feed(data[at:at + 4096]) for at in range(0, len(data), 4096)) + stream.close()
    assert KEY1.encode() not in out and KEY2.encode() not in out
    assert out.decode() == redact_text(data.decode())


@pytest.mark.parametrize("value", [
    {"key1": "a", "key2": "b"},
    {"key1": KEY1},
    {"key1": "$AZURE_KEY1", "key2": "$AZURE_KEY2_VALUE"},
])
def test_kept(value) -> None:
    assert redact_value(value) == value
    assert redact_text(json.dumps(value)) == json.dumps(value)
