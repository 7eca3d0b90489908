"""`aws ssm get-parameter --name /prod/llm/serving --with-decryption` with `--output yaml` prints
`Type: SecureString` and, below it, `Value: <the secret>`; with `--output text` a row
`PARAMETER<TAB>ARN<TAB>...<TAB>SecureString<TAB><the secret><TAB>3` (the CLI writes a row's fields
in its keys' sorted order: Type, Value, Version). Only the JSON form was masked: the YAML and text
forms (a session's terminal, a step run through `ssh host '...'` or a script, which the runner does
not read as the secret command) kept the decrypted value in clear in text and a spilled stream.
Now the SecureString's Value is masked in both; a String parameter's value, the ARN, the name and
the version stay, and the value is masked wherever a stream is cut."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text

SECRET = "Zq8-local serving key"  # a space in it: the whole value, to its line's end
ARN = "arn:aws:ssm:us-east-1:123456789012:parameter/prod/llm/serving"

YAML = f"""Parameter:
  ARN: {ARN}
  DataType: text
  LastModifiedDate: '2026-12-01T10:00:00.123000+00:00'
  Name: /prod/llm/serving
  Type: SecureString
  Value: {SECRET}
  Version: 3
"""

YAML_LIST = f"""InvalidParameters: []
Parameters:
- ARN: {ARN}
  DataType: text
  Name: /prod/llm/serving
  Type: SecureString
  Value: '{SECRET}'
  Version: 3
- ARN: arn:aws:ssm:us-east-1:123456789012:parameter/prod/llm/model
  DataType: text
  Name: /prod/llm/model
  Type: String
  Value: meta-llama/Llama-3.1-8B-Instruct
  Version: 1
"""

TEXT = f"PARAMETER\t{ARN}\ttext\t2026-12-01T10:00:00.123000+00:00\t/prod/llm/serving\tSecureString\t{SECRET}\t3\n"
TEXT_LIST = (f"PARAMETERS\t{ARN}\ttext\t2026-12-01T10:00:00.123000+00:00\t/prod/llm/serving\tSecureString\t{SECRET}\t3\n"
             "PARAMETERS\tarn:aws:ssm:us-east-1:123456789012:parameter/prod/llm/model\ttext\t2026-12-01T10:00:00+00:00"
             "\t/prod/llm/model\tString\tmeta-llama/Llama-3.1-8B-Instruct\t1\n")


@pytest.mark.parametrize("text", [YAML, YAML_LIST, TEXT, TEXT_LIST])
def test_the_secure_value_alone_is_masked(text: str) -> None:
    assert redact_text(text) == text.replace(SECRET, MASK)


def test_the_value_of_the_same_mapping_only() -> None:
    text = "Type: SecureString\nName: /x\nValue: AbC-9z\n"  # another key between them: same mapping
    assert redact_text(text) == "Type: SecureString\nName: /x\nValue: ***REDACTED***\n"
    outer = "  Type: SecureString\nValue: top-level\n"  # a Value of an outer mapping: not the parameter's
    assert redact_text(outer) == outer


def _streamed(text: str, pad: int) -> str:
    filler = "".join(f"line {i}\n" for i in range(pad))
    redactor = StreamRedactor()
    redactor.BLOCK, redactor.OVERLAP = 512, 256  # the cut falls on each line for some filler
    redactor._next_at = 512
    data = (filler + text + filler).encode()
    out = b"".join(redactor.feed(data[i:i + 29]) for i in range(0, len(data), 29)) + redactor.close()
    return out.decode()[len(filler):len(out) - len(filler)]


@pytest.mark.parametrize("text", [YAML, YAML_LIST, TEXT])
def test_stream_masked_wherever_cut(text: str) -> None:
    whole = redact_text(text)
    for pad in range(0, 120):
        assert _streamed(text, pad) == whole, pad
