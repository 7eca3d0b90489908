"""`gcloud auth print-access-token` prints a Google OAuth 2.0 access token alone on a line
(`ya29.a0...`), as a session runs it to reach a GCS bucket of checkpoints with curl; the token (an
hour of the account's access) stood in the run's output and the postmortem in clear: no name, no
header, no shape the patterns knew. Now it is masked wherever it is printed; a reference to it
(`$(gcloud auth print-access-token)`) and prose that names the prefix stay."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text, secret_spans

TOKEN = "ya29.a0AfB_byC3kLrQ9Zp2VwTmD8cJ4fYgN1oE7uH5iK6lA0bR3sX9tW2yC-Tq_0171"


@pytest.mark.parametrize("text, masked", [
    (f"$ gcloud auth print-access-token\n{TOKEN}\n", f"$ gcloud auth print-access-token\n{MASK}\n"),
    (f'{{"access_token_value": "{TOKEN}", "expires_in": 3599}}', f'{{"access_token_value": "{MASK}", "expires_in": 3599}}'),
    (f"curl -H 'X-Goog-Token: {TOKEN}' https://storage.googleapis.com/b/o",
     f"curl -H 'X-Goog-Token: {MASK}' https://storage.googleapis.com/b/o"),
])
def test_token_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


def test_stream() -> None:
    redactor = StreamRedactor()
    out = redactor.feed(f"token for gs://ckpts:\n{TOKEN}\n".encode()) + redactor.close()
    assert out.decode() == f"token for gs://ckpts:\n{MASK}\n"


@pytest.mark.parametrize("text", [
    'curl -H "Authorization: Bearer $(gcloud auth print-access-token)" https://storage.googleapis.com/b/o',
    "Google access tokens start with ya29. and last an hour",
    "ya29.short",
])
def test_no_token_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
