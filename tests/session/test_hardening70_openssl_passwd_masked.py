"""`openssl passwd` takes the password it hashes as its argument (openssl-passwd(1): "openssl
passwd [-1|-5|-6|-apr1|...] [-salt string] [-in file] [-stdin] ... {password}"), as a session
types it to create a login: `useradd -m -p "$(openssl passwd -6 PASS)" alice`. `spec-debug
analyze` quoted it as typed (no pattern read a password with no flag before it), and distill left
it in the playbook. Now it is masked; -stdin and -in read it elsewhere and are kept; distill asks
for it as user_password (it was `secret`, or `xyz_secret` after `-salt xyz`)."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans
from spec_debug.session.distill import _as_template, _secrets_to_slots, _VarNames

SECRET = "Zq9xK2mP7vL4"


@pytest.mark.parametrize("command,secret", [
    (f'useradd -m -p "$(openssl passwd -6 {SECRET})" alice', SECRET),
    (f"openssl passwd -6 -salt xyz {SECRET}", SECRET),
    (f"openssl passwd -1 '{SECRET} x'", f"'{SECRET} x'"),
    (f"openssl passwd -apr1 {SECRET} >> /etc/nginx/.htpasswd", SECRET),
])
def test_the_password_openssl_passwd_hashes_is_masked(command: str, secret: str) -> None:
    masked = f"'{MASK}'" if secret.startswith("'") else MASK
    assert redact_text(command) == command.replace(secret, masked)
    assert [command[s:e] for s, e in secret_spans(command)] == [secret]
    slots = _secrets_to_slots(command, _VarNames())
    assert slots.names == ["user_password"]
    assert SECRET not in _as_template(slots.text)


@pytest.mark.parametrize("command", [
    "openssl passwd -6 -stdin < pw.txt",
    "openssl passwd -6 -in pw.txt",
    "openssl passwd -6 -salt xyz",  # asks
    "openssl passwd -6 $LOGIN_PW",
    "echo x | openssl passwd -6 -stdin",
])
def test_a_password_read_elsewhere_is_kept(command: str) -> None:
    assert redact_text(command) == command
    assert secret_spans(command) == []
