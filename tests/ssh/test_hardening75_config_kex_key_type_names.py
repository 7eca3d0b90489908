"""A KexAlgorithms, HostKeyAlgorithms or PubkeyAcceptedAlgorithms line (and HostbasedAcceptedAlgorithms,
CASignatureAlgorithms, the old *KeyTypes names) with a name no OpenSSH knows: ssh(1) refuses the
whole file as it reads it, whichever block holds the line ("config line 4: Bad SSH2 KexAlgorithms
'curve25519-sha256,curve25519-sha265'.", "Bad key types 'ssh-ed25519,ecdsa-sha2-nistp265'.";
openssh-portable: readconf.c, oKexAlgorithms with kex_names_valid, oHostKeyAlgorithms with
sshkey_names_valid2), recorded with OpenSSH_9.2p1 `ssh -G`.

Before: the file was read; a list with a misspelt name was used without it, a misspelt name
alone under the host failed at connect time as "KexAlgorithms '...' leaves no algorithm
spec-debug can use" naming no file or line, and under another host's block the line passed.
Now the file is refused with ssh(1)'s words and its file and line, as Ciphers and MACs are
(hardening74). What ssh(1) takes still reads: `-` lists of anything, `+`/`^`, key type patterns
(`*`, `?`, `!`), and a name only a newer OpenSSH than the installed one knows
(mlkem768x25519-sha256, OpenSSH 9.9): a config shared with a newer machine is not refused here.
Real sshd for the run that still connects.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_args import parse_ssh_args
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from spec_debug.runner.ssh_connect import connect
from tests.sshd_fixture import ClientSetup, SshServer


def _ssh_g(config: Path) -> subprocess.CompletedProcess[str] | None:
    if not shutil.which("ssh"):
        return None
    return subprocess.run(["ssh", "-G", "-F", str(config), "gpu01"], capture_output=True, text=True)


@pytest.mark.parametrize("line, said", [
    ("KexAlgorithms curve25519-sha256,curve25519-sha265", "Bad SSH2 KexAlgorithms 'curve25519-sha256,curve25519-sha265'"),
    ("KexAlgorithms +diffie-hellman-group14-sha", "Bad SSH2 KexAlgorithms '+diffie-hellman-group14-sha'"),
    ("KexAlgorithms curve25519*", "Bad SSH2 KexAlgorithms 'curve25519*'"),  # no patterns for key exchanges
    ("HostKeyAlgorithms ssh-ed25519,ecdsa-sha2-nistp265", "Bad key types 'ssh-ed25519,ecdsa-sha2-nistp265'"),
    ("HostKeyAlgorithms ^ed25519*", "Bad key types '^ed25519*'"),  # a pattern that matches no type
    ("PubkeyAcceptedAlgorithms +ssh-rsa,rsa-sha512", "Bad key types '+ssh-rsa,rsa-sha512'"),
    ("PubkeyAcceptedKeyTypes ssh-ed25519,!ssh-rsa2", "Bad key types 'ssh-ed25519,!ssh-rsa2'"),
    ("HostbasedAcceptedAlgorithms ssh-ed25519-cert", "Bad key types 'ssh-ed25519-cert'"),
    ("CASignatureAlgorithms=rsa-sha2-384", "Bad key types 'rsa-sha2-384'"),
])
@pytest.mark.parametrize("block", ["gpu01", "old-switch"])
def test_an_unknown_name_refuses_the_file_at_its_line(tmp_path: Path, line: str, said: str, block: str) -> None:
    config = tmp_path / "config"
    config.write_text(f"Host gpu01\n  Port 2200\nHost {block}\n  {line}\n")
    with pytest.raises(UsageError) as refused:
        resolve_target("gpu01", load_ssh_config(config))  # was read; failed at connect time, or not at all
    assert refused.value.message == f"ssh config {config} line 4: {said}"
    seen = _ssh_g(config)
    assert seen is None or (seen.returncode != 0 and f"line 4: {said}." in seen.stderr), seen


def test_lists_ssh_takes_still_read(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text(
        "Host gpu01\n  KexAlgorithms -diffie-hellman-*,no-such-kex\n  HostKeyAlgorithms ^ssh-ed25519*,rsa-sha2-?12\n"
        "  PubkeyAcceptedKeyTypes +ssh-rsa-cert-v01@openssh.com\nHost other\n  KexAlgorithms +diffie-hellman-group14-sha1\n"
        "  HostKeyAlgorithms ssh-ed25519,!ssh-rsa\n  PubkeyAcceptedAlgorithms -no-such-type\n"
        "  CASignatureAlgorithms ssh-ed25519,rsa-sha2-512\n")
    target = resolve_target("gpu01", load_ssh_config(config))
    assert (target.kex_algorithms, target.host_key_algorithms, target.pubkey_accepted_algorithms) == (
        "-diffie-hellman-*,no-such-kex", "^ssh-ed25519*,rsa-sha2-?12", "+ssh-rsa-cert-v01@openssh.com")
    seen = _ssh_g(config)
    assert seen is None or seen.returncode == 0, seen


def test_a_name_only_a_newer_openssh_knows_is_not_refused_on_reading(tmp_path: Path) -> None:
    """mlkem768x25519-sha256 (OpenSSH 9.9) and sntrup761x25519-sha512 (9.9's name without
    @openssh.com): the installed ssh(1) may be older than the one the config was written for."""
    config = tmp_path / "config"
    config.write_text("Host gpu01\n  KexAlgorithms mlkem768x25519-sha256,sntrup761x25519-sha512,curve25519-sha256\n")
    assert resolve_target("gpu01", load_ssh_config(config)).kex_algorithms == (
        "mlkem768x25519-sha256,sntrup761x25519-sha512,curve25519-sha256")


def test_an_inventory_option_is_refused_with_its_source() -> None:
    with pytest.raises(UsageError) as refused:
        parse_ssh_args("-o HostKeyAlgorithms=ssh-ed25519,ssh-ed25519-cert", source="hosts.yml: host gpu01: ansible_ssh_args")
    assert refused.value.message == ("hosts.yml: host gpu01: ansible_ssh_args: -o HostKeyAlgorithms=ssh-ed25519,ssh-ed25519-cert: "
                                     "Bad key types 'ssh-ed25519,ssh-ed25519-cert'")
    assert parse_ssh_args("-o KexAlgorithms=+diffie-hellman-group14-sha1", source="s") == {
        "kexalgorithms": "+diffie-hellman-group14-sha1"}


def test_known_names_and_patterns_still_connect(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("gpu01", sshd, KexAlgorithms="curve25519-sha256,mlkem768x25519-sha256",
                 HostKeyAlgorithms="ssh-ed25519*,ecdsa-sha2-nistp256")
    connection = connect("gpu01", client.options())
    try:
        assert connection.transport.host_key_type == "ssh-ed25519"
        assert connection.transport.is_authenticated()
    finally:
        connection.close()
