"""The password in a URL's userinfo typed with an "@" in it, not percent-encoded:
`psql postgresql://admin:p@ss@db01/x`. The mask ended at the first "@", so analyze showed
`postgresql://admin:***REDACTED***@ss@db01/x` (the rest of the password in clear) and distill made
a var of "p" alone. URL parsers end the credentials at the authority's last "@" (WHATWG URL;
Python's urllib.parse splits the netloc with rpartition("@")), and so does the mask now. An "@"
after the authority (a path's `pkg@1.0`, a query's `a@b`) is not the password's."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

SECRET = "Zq9@xK2m@P7"


@pytest.mark.parametrize("command", [
    f"psql postgresql://admin:{SECRET}@db01:5432/metrics -c 'select 1'",
    f"git clone https://oauth2:{SECRET}@gitlab.example/ml/eagle3-drafts.git",
    f"export HTTPS_PROXY=http://svc:{SECRET}@proxy.lab:3128",
    f"mongosh 'mongodb://admin:{SECRET}@db01,db02/admin?replicaSet=rs0'",
])
def test_the_whole_password_is_masked(command: str) -> None:
    assert redact_text(command) == command.replace(SECRET, MASK)
    (start, end), = secret_spans(command)
    assert command[start:end] == SECRET


@pytest.mark.parametrize("command, masked", [
    ("pip download https://u:pw@pypi.lab/simple/pkg@1.0", f"pip download https://u:{MASK}@pypi.lab/simple/pkg@1.0"),
    ("curl 'http://u:pw@h/x?mail=a@b'", f"curl 'http://u:{MASK}@h/x?mail=a@b'"),
    ("curl http://gpu01:30000/v1/models@latest", "curl http://gpu01:30000/v1/models@latest"),
])
def test_an_at_after_the_authority_is_not_the_passwords(command: str, masked: str) -> None:
    assert redact_text(command) == masked
