"""A login ended by sshd's MaxAuthTries where `IdentitiesOnly yes` is already set.

The hint always said "set `IdentitiesOnly yes` and this host's IdentityFile in your ssh config,
so only that key is offered": advice the user had already followed. A hardened host
(MaxAuthTries 1 or 2, as CIS-style guides write it) ends the login after the one configured
key is refused; the fix there is the key itself (not in the host's authorized_keys), and with
several IdentityFile lines, the list of keys. Real sshd; sshd counts each refused key and
hangs up at MaxAuthTries (openssh-portable auth2.c, userauth_finish: failures >=
max_authtries -> auth_maxtries_exceeded, "Too many authentication failures").
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.sshd_fixture import SSH_KEYGEN, ClientSetup, SshServer, keygen


def _refused(client: ClientSetup, alias: str) -> AuthenticationError:
    with pytest.raises(AuthenticationError) as info:
        SSHTransport.connect(alias, client.options())
    return info.value


def test_one_configured_key_refused_under_identities_only_names_the_key_not_identities_only(
    client: ClientSetup, sshd_factory: Callable[..., SshServer]
) -> None:
    server = sshd_factory("hardened", extra_config="MaxAuthTries 1\n")
    server.authorized_keys_path.write_text("")  # our key is not installed there
    client.trust(server)
    client.alias("gpu01", server)  # IdentitiesOnly yes, one IdentityFile
    refused = _refused(client, "gpu01")
    assert "ended the login after 1 key(s) offered, 0 of them from ssh-agent" in refused.message, refused.message
    hint = refused.hint or ""
    assert "set `IdentitiesOnly yes`" not in hint, hint
    assert hint.startswith("IdentitiesOnly is already set, and the host refused the one key offered "
                           f"({client.key.path}) (most often: it is not in the account's ~/.ssh/authorized_keys "
                           "there): "), hint
    assert f"install it once (`ssh-copy-id -i {client.key.path} " in hint and f" -p {server.port} " in hint, hint


def test_several_configured_keys_under_identities_only_says_to_keep_the_one_the_host_takes(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    server = sshd_factory("hardened2", extra_config="MaxAuthTries 2\n")
    client.trust(server)
    others = [str(keygen(tmp_path / f"id_old_{n}")) for n in ("a", "b")]
    client.alias("gpu02", server, IdentityFile=[*others, str(client.key.path)])
    refused = _refused(client, "gpu02")
    assert "ended the login after 2 key(s) offered" in refused.message, refused.message
    hint = refused.hint or ""
    assert "set `IdentitiesOnly yes`" not in hint, hint
    assert hint.startswith("IdentitiesOnly is already set, and the host's MaxAuthTries ended the login "
                           "after the 2 keys offered: "), hint
    assert "keep only the IdentityFile this host takes" in hint, hint


def test_several_key_files_and_no_agent_key_do_not_say_identities_only_would_help(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    """IdentitiesOnly keeps out only ssh-agent's keys (ssh_config(5)); with no agent key among
    those offered, setting it changes nothing: every IdentityFile line is still offered."""
    server = sshd_factory("hardened3", extra_config="MaxAuthTries 2\n")
    client.trust(server)
    others = [str(keygen(tmp_path / f"id_lab_{n}")) for n in ("a", "b")]
    client.alias("gpu03", server, IdentitiesOnly="no", IdentityFile=[*others, str(client.key.path)])
    refused = _refused(client, "gpu03")
    assert "ended the login after 2 key(s) offered, 0 of them from ssh-agent" in refused.message, refused.message
    hint = refused.hint or ""
    assert hint.startswith("no ssh-agent key was offered (IdentitiesOnly would change nothing), and the host's "
                           "MaxAuthTries ended the login after the 2 keys offered: keep only the IdentityFile "
                           "this host takes"), hint


def test_one_key_and_its_certificate_count_as_one_key_in_the_hint(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    """ssh(1) offers FILE-cert.pub, then FILE's bare key (sshconnect2.c, pubkey_prepare): two tries
    against MaxAuthTries from one IdentityFile line, which "keep only the IdentityFile this host
    takes" does not fit (there is only one)."""
    server = sshd_factory("hardened4", extra_config="MaxAuthTries 2\n")
    server.authorized_keys_path.write_text("")
    client.trust(server)
    ca = keygen(tmp_path / "other_ca")
    key = keygen(tmp_path / "id_cert")
    subprocess.run([SSH_KEYGEN, "-q", "-s", str(ca), "-I", "alice", "-n", "root", f"{key}.pub"], check=True,
                   stdin=subprocess.DEVNULL)
    client.alias("gpu04", server, IdentityFile=str(key))
    refused = _refused(client, "gpu04")
    assert "ended the login after 2 key(s) offered" in refused.message, refused.message
    hint = refused.hint or ""
    assert hint.startswith(f"IdentitiesOnly is already set, and the host refused the one key offered ({key}, "
                           f"with and without its certificate) "), hint
