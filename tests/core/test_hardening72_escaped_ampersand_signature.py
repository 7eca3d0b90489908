"""A pre-signed URL's signature after an escaped "&" (`&amp;sig=` in HTML/XML, `\\u0026X-Amz-Signature=`
in the JSON a Go tool prints: encoding/json escapes "&") is masked, and the parameters after it stay."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text

SIG = "a1b2c3d4e5f60718293a4b5c6d7e8f90"


@pytest.mark.parametrize("template", [
    "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&amp;sp=r&amp;sig={s}",
    "<a href=\"https://acct.blob.core.windows.net/c/b?sv=2022-11-02&amp;sig={s}&amp;se=2026-01-01\">ckpt</a>",
    '{{"url": "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256\\u0026X-Amz-Signature={s}\\u0026X-Amz-Expires=3600"}}',
    '{{"share": "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256\\u0026X-Goog-Signature={s}"}}',
    '{{"url": "https://acct.blob.core.windows.net/c?sv=2022\\u0026sig={s}"}}',
])
def test_signature_after_escaped_ampersand_masked(template: str) -> None:
    assert redact_text(template.format(s=SIG)) == template.format(s=MASK)


@pytest.mark.parametrize("text", ["see &amp;sig= in prose", '{"x": "a\\u0026design=1"}'])
def test_no_signature_stays(text: str) -> None:
    assert redact_text(text) == text
