"""`gcloud secrets versions access latest --secret=hf-token --format=json` (a session on a GKE or
GCE GPU host reading its HF token) prints {"name": "projects/P/secrets/hf-token/versions/3",
"payload": {"data": "<base64 of the token>", "dataCrc32c": "..."}}; `--format=yaml` the same as
`payload:` then `  data: ...`, and the Python client's response printed (protobuf text) `payload {`
then `  data: "..."`. No secret's name stood before the data and it has no token shape: it stayed in
clear in run.json, a parsed json: capture and a spilled artifact, one `base64 -d` from the token.
Now a SecretPayload's data is masked (in text, a parsed document and a stream wherever it is cut);
its name, dataCrc32c and a `payload` that is no SecretPayload (a webhook's {"data", "type"}) stay."""

from __future__ import annotations

import base64
import json

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text, redact_value

TOKEN = "Pq7-mZ2vLw9xRt4K-local-serving"
DATA = base64.b64encode(TOKEN.encode()).decode()
DOC = {"name": "projects/414/secrets/hf-token/versions/3", "payload": {"data": DATA, "dataCrc32c": "3148302716"}}
MASKED = {"name": DOC["name"], "payload": {"data": MASK, "dataCrc32c": "3148302716"}}

YAML = f"name: projects/414/secrets/hf-token/versions/3\npayload:\n  data: {DATA}\n  dataCrc32c: '3148302716'\n"
PROTO_TEXT = f'name: "projects/414/secrets/hf-token/versions/3"\npayload {{\n  data: "{TOKEN}"\n  data_crc32c: 3148302716\n}}\n'


@pytest.mark.parametrize("indent", [None, 2])
def test_json(indent: int | None) -> None:
    assert json.loads(redact_text(json.dumps(DOC, indent=indent))) == MASKED


def test_json_of_the_payload_alone() -> None:  # --format='json(payload)'
    assert json.loads(redact_text(json.dumps({"payload": {"data": DATA}}))) == {"payload": {"data": MASK}}


def test_yaml() -> None:
    assert redact_text(YAML) == YAML.replace(DATA, MASK)


def test_python_client_response_printed() -> None:
    assert redact_text(PROTO_TEXT) == PROTO_TEXT.replace(TOKEN, MASK)


def test_parsed_document() -> None:
    assert redact_value(DOC) == MASKED
    assert redact_value({"payload": {"data": DATA}}) == {"payload": {"data": MASK}}


def test_a_payload_that_is_no_secret_payload_stays() -> None:
    webhook = {"event": "push", "payload": {"data": "abc123", "type": "webhook"}}
    assert json.loads(redact_text(json.dumps(webhook))) == webhook
    assert redact_value(webhook) == webhook


def _streamed(text: str, pad: int) -> str:
    filler = "".join(f"line {i}\n" for i in range(pad))
    redactor = StreamRedactor()
    redactor.BLOCK, redactor.OVERLAP = 512, 256  # the cut falls on each line for some filler
    redactor._next_at = 512
    data = (filler + text + filler).encode()
    out = b"".join(redactor.feed(data[i:i + 29]) for i in range(0, len(data), 29)) + redactor.close()
    return out.decode()[len(filler):len(out) - len(filler)]


@pytest.mark.parametrize("text", [json.dumps(DOC, indent=2) + "\n", YAML, PROTO_TEXT])
def test_stream_masked_wherever_cut(text: str) -> None:
    whole = redact_text(text)
    assert DATA not in whole and TOKEN not in whole and whole.count(MASK) == 1
    for pad in range(0, 120):
        assert _streamed(text, pad) == whole, pad
