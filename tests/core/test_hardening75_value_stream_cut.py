"""`terraform output -json` prints a sensitive output as `"api_key": {` then `"sensitive": true,`
and `"type": "string",` lines before its `"value": "<the secret>"` ("sensitive values are displayed
in plain text" with -json), and `aws ssm get-parameter --with-decryption` prints `"Type":
"SecureString",` before the `"Value"`. A step's output is spilled and masked in blocks
(StreamRedactor); where the block was cut between the name (or the type) and the value, the next
block held a `"value"` with nothing before its mapping to say it is a secret, and the artifact kept
it in clear, though the same text masked whole was right. Now the cut never parts them: the value is
masked wherever the stream is cut."""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text

SECRET = "Zq8-local-serving-key"

TERRAFORM = json.dumps({
    "api_key": {"sensitive": True, "type": "string", "value": SECRET},
    "model": {"sensitive": False, "type": "string", "value": "meta-llama/Llama-3.1-8B-Instruct"},
}, indent=2) + "\n"

SSM = json.dumps({"Parameter": {"Name": "/prod/llm/serving", "Type": "SecureString", "Value": SECRET, "Version": 3,
                                "ARN": "arn:aws:ssm:us-east-1:123456789012:parameter/prod/llm/serving"}}, indent=4) + "\n"


def _streamed(text: str, pad: int) -> str:
    filler = "".join(f"line {i}\n" for i in range(pad))
    redactor = StreamRedactor()
    # a smaller block and overlap than a run's (still longer than the document): the cut falls
    # on each line of it for some length of the filler before it
    redactor.BLOCK, redactor.OVERLAP = 512, 256
    redactor._next_at = 512
    data = (filler + text + filler).encode()
    out = b"".join(redactor.feed(data[i:i + 29]) for i in range(0, len(data), 29)) + redactor.close()
    return out.decode()[len(filler):len(out) - len(filler)]


@pytest.mark.parametrize("text", [TERRAFORM, SSM])
def test_masked_wherever_cut(text: str) -> None:
    whole = redact_text(text)
    assert SECRET not in whole and whole.count(MASK) == 1
    for pad in range(0, 120):
        assert _streamed(text, pad) == whole, pad


def test_terraform_masked_whole() -> None:
    doc = json.loads(redact_text(TERRAFORM))
    assert doc["api_key"]["value"] == MASK
    assert doc["model"]["value"] == "meta-llama/Llama-3.1-8B-Instruct"
