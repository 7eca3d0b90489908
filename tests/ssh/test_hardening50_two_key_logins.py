"""A host whose sshd asks for two different keys (`AuthenticationMethods publickey,publickey`,
sshd_config(5): "requires successful authentication using two different public keys"; a
user key plus a hardware- or CA-held one): ssh(1) offers its next key after the first is
accepted in part (openssh-portable: sshconnect2.c, input_userauth_failure with partial success)
and logs in. spec-debug stopped at the first: "server wants a second factor after the key
(publickey) ... only keyboard-interactive and password second factors are supported; use a
key-only account", for an account that takes nothing but keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer, keygen

TWO_KEYS = "AuthenticationMethods publickey,publickey\n"


def _server(tmp_path: Path, client: ClientSetup, keys: list[ClientKey]) -> SshServer:
    server = SshServer(tmp_path / "sshd-two-keys", keys, extra_config=TWO_KEYS).start()
    client.trust(server)
    return server


def test_a_host_that_asks_for_two_keys_is_given_the_second(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    second = ClientKey(keygen(tmp_path / "token_ed25519"))
    server = _server(tmp_path, client, [client.key, second])
    try:
        client.alias("gpu01", server, IdentityFile=[str(client.key.path), str(second.path)])
        done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
        assert done.code == 0 and record["hosts"][0]["status"] == "passed", done.stdout + done.stderr
    finally:
        server.stop()


def test_a_host_that_asks_for_a_second_key_we_lack_says_so(
        cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    second = ClientKey(keygen(tmp_path / "token_ed25519"))
    server = _server(tmp_path, client, [client.key, second])
    try:
        client.alias("gpu01", server)  # only the first key
        done, record = run_tiny(cli, tmp_path, "run", "--host", "gpu01")
        assert done.code == 3, done.stdout + done.stderr
        error = record["hosts"][0]["error"]
        assert f"accepted {client.key.path}" in error and "a second, different key" in error, error
        assert "use a key-only account" not in done.stderr, done.stderr
        assert "IdentityFile" in done.stderr, done.stderr
    finally:
        server.stop()
