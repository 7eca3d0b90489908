"""ssh_config as people write it, resolved as ssh(1) would: `%` tokens paramiko does not expand,
`Match exec` commands, and CanonicalizeHostname."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from spec_debug.runner.ssh_errors import HostUnreachableError
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer, write_ssh_config


def test_a_key_per_alias_named_with_percent_n_logs_in(client: ClientSetup, sshd: SshServer) -> None:
    """`IdentityFile ~/.ssh/keys/%n.key`: one key per host alias, a common layout. paramiko
    leaves %n as written, the file is not found, and the host failed with "tried: no keys found"."""
    keys = client.home / ".ssh" / "keys"
    keys.mkdir()
    shutil.copy(client.key.path, keys / "gpu-a.key")
    ClientKey.create(client.home / ".ssh", "id_ed25519")  # a default key the server does not know
    write_ssh_config(client.config, {
        "gpu-*": {"HostName": sshd.address, "Port": sshd.port, "IdentityFile": "~/.ssh/keys/%n.key",
                  "IdentitiesOnly": "yes", "UserKnownHostsFile": str(client.known_hosts)},
    })
    with SSHTransport.connect("gpu-a", client.options()) as transport:
        assert isinstance(transport, SSHTransport)
        assert transport.connection.target.identity_files == (str(keys / "gpu-a.key"),)


def test_proxycommand_and_identityfile_tokens_expand_like_openssh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ssh_config(5) TOKENS: ProxyCommand takes %%, %h, %n, %p, %r; IdentityFile also %i, %k, %p.
    Expanded in one pass: `%%h` is a literal `%h` (paramiko made it `%<host>`)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    config_path = write_ssh_config(tmp_path / "config", {
        "gpu07": {
            "HostName": "10.0.0.7", "Port": 2222, "User": "ml", "HostKeyAlias": "gpu07-key",
            "ProxyCommand": "/usr/bin/env PS4=%%h ssh -W %h:%p %r@bastion-for-%n",
            "IdentityFile": ["~/.ssh/%n-%p.key", "/keys/%i/%k", "~/.ssh/%h_%r"],
        },
    })
    target = resolve_target("gpu07", load_ssh_config(config_path))
    assert target.proxy_command == "/usr/bin/env PS4=%h ssh -W 10.0.0.7:2222 ml@bastion-for-gpu07"
    home = str(tmp_path)
    assert target.identity_files == (f"{home}/.ssh/gpu07-2222.key", f"/keys/{os.getuid()}/gpu07-key", f"{home}/.ssh/10.0.0.7_ml")
    # A user and port given on the command line are what the tokens see (ssh(1) sets them first).
    target = resolve_target("bob@gpu07:2200", load_ssh_config(config_path))
    assert target.proxy_command == "/usr/bin/env PS4=%h ssh -W 10.0.0.7:2200 bob@bastion-for-gpu07"
    assert target.identity_files[0] == f"{home}/.ssh/gpu07-2200.key"


def test_match_exec_runs_like_ssh_without_taking_our_stdin(tmp_path: Path) -> None:
    """OpenSSH runs `Match exec` commands with stdin on /dev/null (openssh-portable: readconf.c,
    execute_in_shell). paramiko's invoke.run fed them our stdin, and the command ate it: here
    the `run --step` answers a user pipes in."""
    seen = tmp_path / "exec-saw-stdin"
    config_path = tmp_path / "config"
    config_path.write_text(
        "Host gpu*\n  HostName 10.0.0.1\n"
        f'Match host 10.0.0.1 exec "cat > {seen}; test %n = gpu01"\n  User on-vpn\n'
        'Match exec "exit 1"\n  Port 2222\n'
    )
    script = (
        "import sys, threading\n"
        "from spec_debug.runner.ssh_config import load_ssh_config, resolve_target\n"
        "found = {}\n"
        f"config = load_ssh_config({str(config_path)!r})\n"
        "thread = threading.Thread(target=lambda: found.update(t=resolve_target('gpu01', config)))\n"
        "thread.start(); thread.join()\n"
        "print(found['t'].user, found['t'].port, repr(sys.stdin.read()))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], input="y\ny\nn\n", capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(" ", 2) == ["on-vpn", "22", repr("y\ny\nn\n") + "\n"]
    assert seen.read_text() == ""


def test_canonicalize_hostname_without_domains_is_a_no_op(client: ClientSetup, sshd: SshServer) -> None:
    """`CanonicalizeHostname yes` alone (no CanonicalDomains) changes nothing in ssh(1); paramiko
    raised KeyError('canonicaldomains') and the host was "cannot resolve ... through ssh config"."""
    client.alias("target", sshd, CanonicalizeHostname="yes")
    with SSHTransport.connect("target", client.options()) as transport:
        assert isinstance(transport, SSHTransport)


def test_a_name_in_none_of_the_canonical_domains_is_an_unreachable_host(client: ClientSetup, sshd: SshServer) -> None:
    with open(client.config, "a") as handle:
        handle.write("Host *\n  CanonicalizeHostname yes\n  CanonicalDomains corp.invalid\n  CanonicalizeFallbackLocal no\n")
    started = time.monotonic()
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect("gpu07", client.options())
    assert info.value.message == "gpu07: cannot resolve host name 'gpu07' in any CanonicalDomains of your ssh config"
    assert time.monotonic() - started < 10


def test_canonicalize_hostname_in_host_star_keeps_each_alias_hostname(client: ClientSetup, sshd: SshServer) -> None:
    """The pattern of a site config: `Host *` canonicalizes short names into the site domain,
    aliases name their address with HostName. ssh(1) uses the HostName (an address is never
    canonicalized); paramiko replaced it with the alias itself, a name that does not resolve."""
    with open(client.config, "a") as handle:
        handle.write("Host *\n  CanonicalizeHostname yes\n  CanonicalDomains corp.invalid\n")
    with SSHTransport.connect("target", client.options()) as transport:
        assert isinstance(transport, SSHTransport) and transport.connection.target.hostname == sshd.address
