"""distill turns each secret a session typed into a var with an empty default, named by the word
before it (`--api-key KEY` -> api_key). A client's password after a one-letter flag or a user's
name was named by that: `mongosh -p PASS` -> `--var p_secret=...`, `ldapsearch -w PASS` ->
w_secret, `smbclient -U alice%PASS` -> alice_secret (the user's name), `htpasswd -b FILE alice
PASS` -> alice_secret, `ssh-keygen -N PASS` -> N_secret. The var is now named for what it is,
after the client the password was typed to."""

from __future__ import annotations

import pytest

from spec_debug.redact import is_secret_name
from spec_debug.session.distill import _as_template, _secrets_to_slots, _VarNames

SECRET = "Zq9xK2mP7vL4"
OTHER = "Wd3nT8rQ1yHs"


@pytest.mark.parametrize("command,names", [
    (f"mongosh -u admin -p {SECRET} --eval 'db.stats()'", ["mongo_password"]),
    (f"mongodump --host db01 -u backup -p {SECRET} --out /backup", ["mongo_password"]),
    (f'ssh db01 "mongosh -u admin -p {SECRET}"', ["mongo_password"]),
    (f"mysql -u root -p{SECRET} -e 'select 1'", ["mysql_password"]),
    (f"ldapsearch -x -D cn=admin,dc=lab -w {SECRET} -b dc=lab", ["ldap_password"]),
    (f"smbclient //nas01/models -U alice%{SECRET} -c ls", ["smb_password"]),
    (f"net ads join -U administrator%{SECRET}", ["smb_password"]),
    (f"htpasswd -b /etc/nginx/.htpasswd alice {SECRET}", ["htpasswd_password"]),
    (f"redis-cli -a {SECRET} ping", ["redis_password"]),
    (f"docker login -u bot -p {SECRET} registry.internal", ["registry_password"]),
    (f"sshpass -p {SECRET} ssh gpu02", ["ssh_password"]),
    (f"ssh-keygen -p -P {SECRET} -N {OTHER} -f ~/.ssh/id_lab", ["ssh_key_passphrase", "ssh_key_new_passphrase"]),
    (f"7z a -p{SECRET} ckpt.7z ckpt/", ["archive_password"]),
    (f"unzip -P {SECRET} ckpt.zip", ["archive_password"]),
    (f"ssh-keygen -t ed25519 -N {SECRET} -f ~/.ssh/id_lab", ["ssh_key_new_passphrase"]),
    (f"ldappasswd -x -D cn=admin,dc=lab -w {SECRET} -a {OTHER} -s Kp4vB7nM2xZq uid=alice,dc=lab",
     ["ldap_password", "ldap_old_password", "ldap_new_password"]),
    (f"lftp -u alice,{SECRET} sftp://nas01", ["ftp_password"]),
    (f"echo 'alice:{SECRET}' | chpasswd", ["user_password"]),
    (f"openssl enc -aes-256-cbc -k {SECRET} -in a.tar -out a.enc", ["openssl_password"]),
])
def test_the_var_is_named_for_the_clients_password(command: str, names: list[str]) -> None:
    slots = _secrets_to_slots(command, _VarNames())
    assert slots.names == names
    assert all(is_secret_name(n) for n in names)  # run.json masks what the user passes
    assert SECRET not in _as_template(slots.text) and OTHER not in _as_template(slots.text)
    assert _as_template(slots.text).count("{{") == len(names)


@pytest.mark.parametrize("command,names", [
    (f"python3 -m sglang.launch_server --api-key {SECRET}", ["api_key"]),
    (f"curl -u bot:{SECRET} http://registry.internal/v2/", ["bot_secret"]),
    (f"echo {SECRET} | sudo -S journalctl -u sglang", ["sudo_password"]),
    (f"gpg --batch --passphrase {SECRET} -d w.tar.gpg", ["passphrase"]),
])
def test_a_var_named_by_its_flag_keeps_that_name(command: str, names: list[str]) -> None:
    assert _secrets_to_slots(command, _VarNames()).names == names
