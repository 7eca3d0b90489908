"""A pre-signed URL's signature (S3 X-Amz-Signature / Signature, GCS X-Goog-Signature, Azure SAS
sig) is masked to its parameter's end; the other parameters stay."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text

SIG = "a1b2c3d4e5f60718293a4b5c6d7e8f90"


@pytest.mark.parametrize("template", [
    "curl 'https://b.s3.amazonaws.com/ckpt.safetensors?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature={s}'",
    "https://b.s3.amazonaws.com/k?X-Amz-Security-Token=" + MASK + "&X-Amz-Signature={s}&X-Amz-Expires=3600",
    "https://b.s3.amazonaws.com/k?AWSAccessKeyId=x&Expires=1700000000&Signature={s}",
    "wget https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature={s} -O w.bin",
    "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&se=2026-01-01&sp=r&sig={s}",
])
def test_signature_masked(template: str) -> None:
    assert redact_text(template.format(s=SIG)) == template.format(s=MASK)


def test_security_token_and_signature_both_masked() -> None:
    text = "https://b.s3.amazonaws.com/k?X-Amz-Security-Token=FwoGZXIvYXdzEabc&X-Amz-Signature=" + SIG + "&X-Amz-Expires=3600"
    assert redact_text(text) == ("https://b.s3.amazonaws.com/k?X-Amz-Security-Token=" + MASK
                                 + "&X-Amz-Signature=" + MASK + "&X-Amz-Expires=3600")


@pytest.mark.parametrize("text", ["see https://h/x?design=1&sig_level=2", "https://h/x?Signature=", "signature=abc in prose"])
def test_no_signature_stays(text: str) -> None:
    assert redact_text(text) == text
