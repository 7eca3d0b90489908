"""`spec-debug analyze` masks the secrets a session typed (docs/analyze.md, "Secrets"), and
distill turns each into a var with an empty default (redact.secret_spans). Clients that take a
password on their command line under a flag not named "password" were masked for curl -u,
mysql -pPASS, sshpass -p, docker/podman login -p and redis-cli -a, but not for mongosh -p (and
the legacy mongo shell's and mongodump's), the OpenLDAP clients' -w, openssl's `-passin
pass:PASS`, Samba's `-U user%PASS`, `htpasswd -b FILE USER PASS` nor gpg's `--passphrase`: the
JSON analysis (commands[].command) and the postmortem of a plain shell log quoted them as typed.
Only the password is masked: the command stays readable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans
from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json
from spec_debug.session.postmortem import render_postmortem

SECRET = "Zq9xK2mP7vL4"

TYPED = [
    f"mongosh 'mongodb://db01:27017/admin' -u admin -p {SECRET} --eval 'db.stats()'",
    f"mongo --host db01 -u admin -p '{SECRET}' admin",
    f"mongodump --host db01 -u backup -p {SECRET} --out /backup",
    f"ldapsearch -x -H ldap://ldap01 -D cn=admin,dc=lab -w {SECRET} -b dc=lab uid=alice",
    f"ldapwhoami -x -D cn=admin,dc=lab -w'{SECRET}'",
    f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{SECRET}",
    f"openssl rsa -in server.key -passin 'pass:{SECRET}' -out plain.key",
    f"smbclient //nas01/models -U alice%{SECRET} -c 'get eagle3.tar'",
    f"smbclient //nas01/models --user=LAB\\\\alice%{SECRET} -c ls",
    f"htpasswd -b /etc/nginx/.htpasswd alice {SECRET}",
    f"htpasswd -cbB -C 12 /etc/nginx/.htpasswd alice '{SECRET}'",
    f"htpasswd -nb alice {SECRET} > /etc/nginx/.htpasswd",
    f"gpg --batch --pinentry-mode loopback --passphrase {SECRET} -d weights.tar.gpg",
]


@pytest.mark.parametrize("command", TYPED)
def test_only_the_password_is_masked(command: str) -> None:
    masked = redact_text(command)
    assert SECRET not in masked
    assert masked.replace(MASK, SECRET) == command
    # distill makes a var of what secret_spans gives: the password, its quotes at most
    (start, end), = secret_spans(command)
    assert command[start:end].strip("'") == SECRET


@pytest.mark.parametrize("command", [
    "mongosh -u admin -p --authenticationDatabase admin",  # -p with no value: mongosh asks
    "mongosh -u admin -p",
    "mongosh -u admin -p $MONGO_PASSWORD",
    "docker run -d -p 27017:27017 mongo:7",
    "ldapsearch -x -W -D cn=admin,dc=lab -b dc=lab",  # -W prompts
    "ldapsearch -x -w $LDAP_PW -b dc=lab",
    "openssl pkcs12 -in a.p12 -passin env:P12_PASS -out a.pem",  # names where the password is
    "openssl rsa -in k.pem -passin file:/run/secrets/k -out p.pem",
    "openssl req -new -passout stdin -keyout k.pem",
    "smbclient //nas01/models -U alice -c ls",  # asks
    "smbclient //nas01/models -U alice%$SMB_PASS -c ls",
    "htpasswd -c /etc/nginx/.htpasswd alice",  # no -b: asks
    "htpasswd -B /etc/nginx/.htpasswd alice",
    "gpg --batch --passphrase-file /run/secrets/gpg -d w.tar.gpg",
    "gpg --batch --passphrase \"$GPG_PASS\" -d w.tar.gpg",
    "python3 -m sglang.launch_server --port 30000 -p 2",
])
def test_what_holds_no_password_is_kept(command: str) -> None:
    assert redact_text(command) == command
    assert secret_spans(command) == []


def test_a_shell_logs_analysis_and_postmortem_hold_no_password(tmp_path: Path) -> None:
    log = "".join(f"root@gpu01:~# {c}\nok\n" for c in TYPED) + "root@gpu01:~# \n"
    path = tmp_path / "session.log"
    path.write_text(log)
    analysis = analyze_path(path)
    shown = [c["command"] for c in json.loads(analysis_json(analysis))["commands"]]
    assert shown == [redact_text(c) for c in TYPED]
    assert all(MASK in c for c in shown)
    assert SECRET in analysis_json(analysis, redact=False)  # --no-redact keeps them as typed
    for fmt in ("md", "html"):
        assert SECRET not in render_postmortem(analysis, fmt)
