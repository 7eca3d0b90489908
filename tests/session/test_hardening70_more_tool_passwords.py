"""More clients that take a password on their command line under a flag not named "password":
`spec-debug analyze` on a shell log quoted them as typed (commands[].command, the postmortem) and
distill's secret_spans found none: ssh-keygen -N/-P, zip/unzip -P, 7-Zip's -pPASS, keytool's and
jarsigner's -storepass/-keypass (keytool -importkeystore's -srcstorepass/-deststorepass too),
lftp -u user,pass, `echo user:pass | chpasswd`, useradd -p, Samba's `net ads join -U user%pass`,
openssl enc -k and ldappasswd -s/-a. Only the password is masked, each of them where a command
holds two (`ssh-keygen -p -P OLD -N NEW`), and the command stays readable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans
from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json
from spec_debug.session.postmortem import render_postmortem

SECRET = "Zq9xK2mP7vL4"
OTHER = "Wd3nT8rQ1yHs"

TYPED = [
    (f"ssh-keygen -t ed25519 -N {SECRET} -f ~/.ssh/id_lab", [SECRET]),
    (f"ssh-keygen -p -P '{SECRET}' -N {OTHER} -f ~/.ssh/id_lab", [f"'{SECRET}'", OTHER]),
    (f"zip -r -P {SECRET} ckpt.zip ckpt/", [SECRET]),
    (f"unzip -P '{SECRET}' ckpt.zip -d /data", [f"'{SECRET}'"]),
    (f"7z a -p{SECRET} -mhe=on ckpt.7z ckpt/", [SECRET]),
    (f"7za x -p'{SECRET}' ckpt.7z -o/data", [f"'{SECRET}'"]),
    (f"keytool -genkeypair -alias lab -keystore lab.jks -storepass {SECRET} -keypass {OTHER} -dname CN=lab",
     [SECRET, OTHER]),
    (f"keytool -importkeystore -srckeystore a.p12 -srcstorepass {SECRET} -destkeystore b.jks -deststorepass {OTHER}",
     [SECRET, OTHER]),
    (f"keytool -storepasswd -keystore lab.jks -storepass {SECRET} -new {OTHER}", [SECRET, OTHER]),
    (f"jarsigner -keystore lab.jks -storepass {SECRET} app.jar lab", [SECRET]),
    (f"lftp -u alice,{SECRET} sftp://nas01", [SECRET]),
    (f"lftp -e 'open -u alice,{SECRET} ftp://nas01; mirror models; bye'", [SECRET]),
    (f"echo 'alice:{SECRET}' | chpasswd", [SECRET]),
    (f"echo alice:{SECRET} | sudo chpasswd", [SECRET]),
    (f"chpasswd <<< \"alice:{SECRET}\"", [SECRET]),
    (f"useradd -m -p '$6$xyz${SECRET}' alice", [f"'$6$xyz${SECRET}'"]),
    (f"net ads join -U administrator%{SECRET}", [SECRET]),
    (f"openssl enc -aes-256-cbc -salt -k {SECRET} -in a.tar -out a.tar.enc", [SECRET]),
    (f"ldappasswd -x -D cn=admin,dc=lab -w {SECRET} -s {OTHER} uid=alice,dc=lab", [SECRET, OTHER]),
    (f"ldappasswd -x -D cn=admin,dc=lab -W -a {SECRET} -S uid=alice,dc=lab", [SECRET]),
]


@pytest.mark.parametrize("command,secrets", TYPED)
def test_only_the_passwords_are_masked(command: str, secrets: list[str]) -> None:
    masked = redact_text(command)
    assert SECRET not in masked and OTHER not in masked
    assert masked.count(MASK) == len(secrets)
    # the rest of the command as typed, a quoted password's quotes kept
    expected = command
    for secret in secrets:
        expected = expected.replace(secret, f"'{MASK}'" if secret.startswith("'") else MASK, 1)
    assert masked == expected
    assert [command[s:e] for s, e in secret_spans(command)] == secrets


@pytest.mark.parametrize("command", [
    "ssh-keygen -t ed25519 -N '' -f ~/.ssh/id_lab",  # no passphrase
    "ssh-keygen -R gpu01 -f ~/.ssh/known_hosts",
    "unzip -o ckpt.zip -d /data",
    "zip -q -r out.zip . -x '*.git*'",
    "gzip -k -P 4 big.log",  # not zip
    "7z a -p -mhe=on ckpt.7z ckpt/",  # -p alone: 7-Zip asks
    "7z x ckpt.7z -o/data -y",
    "keytool -list -keystore a.jks -storepass:env KS_PASS",  # names where it is
    "keytool -list -keystore a.jks -storepass $KS_PASS",
    "lftp -u alice sftp://nas01",  # asks
    "lftp -u alice,$NAS_PASS sftp://nas01",
    "echo hi:there | tee out.txt",
    "useradd -m -s /bin/bash alice",
    "docker run -p 8000:8000 -u 1000 vllm/vllm-openai",
    "net ads join -U administrator",  # asks
    "openssl s_client -connect gpu01:443 -keylogfile k.log",
    "ldappasswd -x -D cn=admin,dc=lab -W -S uid=alice,dc=lab",  # -W, -S ask
])
def test_what_holds_no_password_is_kept(command: str) -> None:
    assert redact_text(command) == command
    assert secret_spans(command) == []


def test_a_shell_logs_analysis_and_postmortem_hold_no_password(tmp_path: Path) -> None:
    typed = [c for c, _ in TYPED]
    log = "".join(f"root@gpu01:~# {c}\nok\n" for c in typed) + "root@gpu01:~# \n"
    path = tmp_path / "session.log"
    path.write_text(log)
    analysis = analyze_path(path)
    shown = [c["command"] for c in json.loads(analysis_json(analysis))["commands"]]
    assert shown == [redact_text(c) for c in typed]
    assert not any(SECRET in c or OTHER in c for c in shown)
    for fmt in ("md", "html"):
        out = render_postmortem(analysis, fmt)
        assert SECRET not in out and OTHER not in out
