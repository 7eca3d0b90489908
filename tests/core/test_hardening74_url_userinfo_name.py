"""A clone's remote as actions/checkout leaves it, `https://x-access-token:TOKEN@github.com/org/repo.git`
(`git remote -v`, `git config --get remote.origin.url`), or `https://token:...@git.internal/...`:
the user name ends in "token", so NAME=value read `x-access-token:` as a secret's name and masked
to the next space, the host and the repository with the token (`https://x-access-token:***REDACTED***
(fetch)`): which repository the session cloned was lost. Now the URL's password alone is masked, as
for any other user name; a name after `//` that is no URL's (`//password:x`, a comment) still is."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

GHS = "ghs_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"


@pytest.mark.parametrize("text, masked", [
    (f"origin\thttps://x-access-token:{GHS}@github.com/acme/eagle3-drafter.git (fetch)",
     f"origin\thttps://x-access-token:{MASK}@github.com/acme/eagle3-drafter.git (fetch)"),
    ("git clone https://token:s3cr3t-value@git.internal/ml/eagle3.git",
     f"git clone https://token:{MASK}@git.internal/ml/eagle3.git"),
    ("url = https://oauth-token:abc123def@gitlab.example.com/ml/specdec.git",
     f"url = https://oauth-token:{MASK}@gitlab.example.com/ml/specdec.git"),
])
def test_only_the_password_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    assert len(secret_spans(text)) == 1


@pytest.mark.parametrize("text, masked", [
    ("//password:hunter2", f"//password:{MASK}"),
    ("token: abc123", f"token: {MASK}"),
])
def test_names_elsewhere_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
