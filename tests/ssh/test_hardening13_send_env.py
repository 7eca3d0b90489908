"""`SetEnv` and `SendEnv` in ~/.ssh/config reach the host's commands, as with `ssh HOST CMD`.

ssh(1) sends them as `env` requests on every session before its command (openssh-portable:
clientloop.c, client_session2_setup), and sshd keeps those its AcceptEnv allows. People pin
GPUs per host (`SetEnv CUDA_VISIBLE_DEVICES=0,1`) or pass their Hugging Face settings along
(`SendEnv HF_*`): spec-debug sent none of them, so a step saw every GPU, or no HF_HOME, where
`ssh gpu01 CMD` saw what the config says.

Also here: quoted values (`IdentityFile ~/.ssh/"my key"`), which ssh(1) reads without their
quotes (misc.c, argv_split) and paramiko kept.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer, keygen

ACCEPTED = "AcceptEnv CUDA_VISIBLE_DEVICES HF_* SPECDEBUG_*\n"


@pytest.fixture
def accepting(client: ClientSetup, client_key: ClientKey, tmp_path: Path) -> Iterator[SshServer]:
    """An sshd that takes the variables a GPU team sends (sshd_config AcceptEnv)."""
    server = SshServer(tmp_path / "sshd-accept-env", [client_key], extra_config=ACCEPTED).start()
    client.trust(server)
    yield server
    server.stop()


def _config(client: ClientSetup, server: SshServer, gpu01: str, everyone: str = "") -> None:
    client.config.write_text(
        "Host gpu01\n"
        f"  HostName {server.address}\n  Port {server.port}\n  IdentityFile {client.key.path}\n"
        f"  IdentitiesOnly yes\n  UserKnownHostsFile {client.known_hosts}\n"
        f"{gpu01}"
        "Host *\n"
        f"{everyone}"
    )


def _shown(client: ClientSetup, command: str, host: str = "gpu01") -> str:
    with SSHTransport.connect(host, client.options()) as transport:
        stdout, stderr = StreamCapture("stdout"), StreamCapture("stderr")
        outcome = transport.run(command, stdout=stdout, stderr=stderr, timeout_s=30)
        stdout.close()
        stderr.close()
        assert outcome.exit_code == 0, stderr.text()
        return stdout.text()


def test_set_env_pins_the_gpus_of_that_host(client: ClientSetup, accepting: SshServer) -> None:
    _config(client, accepting, '  SetEnv CUDA_VISIBLE_DEVICES=0,1 "SPECDEBUG_NOTE=two words"\n')
    assert _shown(client, 'printf "%s|%s" "$CUDA_VISIBLE_DEVICES" "$SPECDEBUG_NOTE"') == "0,1|two words"


def test_set_env_values_expand_tokens_and_variables_as_openssh_10_does(
    client: ClientSetup, accepting: SshServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenSSH 10.0 expands `%` tokens and `${VAR}` in SetEnv values (ssh.c, "expanded SetEnv")."""
    monkeypatch.setenv("SPECDEBUG_SCRATCH", "/scratch/a b")
    _config(client, accepting, '  SetEnv "SPECDEBUG_NOTE=%n on %p" HF_HOME=${SPECDEBUG_SCRATCH}/hf\n')
    assert _shown(client, 'printf "%s|%s" "$SPECDEBUG_NOTE" "$HF_HOME"') == f"gpu01 on {accepting.port}|/scratch/a b/hf"


def test_the_first_set_env_line_that_applies_wins_whole(client: ClientSetup, accepting: SshServer) -> None:
    """ssh(1) takes the first SetEnv line as it stands (readconf.c, oSetEnv): a later `Host *`
    default neither overrides nor adds to it."""
    _config(client, accepting, "  SetEnv CUDA_VISIBLE_DEVICES=0,1\n", "  SetEnv CUDA_VISIBLE_DEVICES=7 SPECDEBUG_EXTRA=1\n")
    assert _shown(client, 'printf "%s|%s" "$CUDA_VISIBLE_DEVICES" "${SPECDEBUG_EXTRA-unset}"') == "0,1|unset"


def test_send_env_patterns_pass_the_local_variables_on(
    client: ClientSetup, accepting: SshServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HOME", "/scratch/hf")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("SPECDEBUG_UNSENT", "local only")
    _config(client, accepting, "  SendEnv HF_*\n")
    assert _shown(client, 'printf "%s|%s|%s" "$HF_HOME" "$HF_HUB_OFFLINE" "${SPECDEBUG_UNSENT-unset}"') == "/scratch/hf|1|unset"


def test_send_env_lines_add_up_and_a_dash_removes_what_it_matches(
    client: ClientSetup, accepting: SshServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every SendEnv line that applies adds its names; `-PATTERN` drops the names listed so far
    that it matches (ssh_config(5), SendEnv; readconf.c, rm_env)."""
    monkeypatch.setenv("HF_HOME", "/scratch/hf")
    monkeypatch.setenv("HF_TOKEN", "hf_secret")
    monkeypatch.setenv("SPECDEBUG_RACK", "r3")
    _config(client, accepting, "  SendEnv HF_HOME HF_TOKEN\n", "  SendEnv -HF_TOK* SPECDEBUG_RACK\n")
    assert _shown(client, 'printf "%s|%s|%s" "$HF_HOME" "${HF_TOKEN-unset}" "$SPECDEBUG_RACK"') == "/scratch/hf|unset|r3"


def test_what_sshd_does_not_accept_is_dropped_quietly_as_with_ssh(client: ClientSetup, sshd: SshServer) -> None:
    """The shared sshd has no AcceptEnv: the host still runs the step, without the variable."""
    _config(client, sshd, "  SetEnv SPECDEBUG_NOTE=1\n")
    assert _shown(client, 'printf "%s" "${SPECDEBUG_NOTE-unset}"') == "unset"


def test_inventory_ssh_args_send_env_too(
    client: ClientSetup, accepting: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`-o SetEnv=...` and `-o SendEnv=...` in ansible_ssh_common_args / ansible_ssh_extra_args:
    each -o SendEnv adds its names (common and extra args both), as on ssh's command line."""
    from spec_debug.runner.hosts import open_transport, resolve_hosts

    monkeypatch.setenv("HF_HOME", "/scratch/hf")
    monkeypatch.setenv("SPECDEBUG_RACK", "r3")
    _config(client, accepting, "")
    inventory = tmp_path / "hosts.yml"
    inventory.write_text("all:\n  hosts:\n    lab01:\n      ansible_host: gpu01\n"
                         "      ansible_ssh_common_args: -o SetEnv=CUDA_VISIBLE_DEVICES=3 -o SendEnv=HF_*\n"
                         "      ansible_ssh_extra_args: -o SendEnv=SPECDEBUG_RACK\n")
    [spec] = resolve_hosts([], [], inventory, None)
    with open_transport(spec, client.options()) as transport:
        stdout, stderr = StreamCapture("stdout"), StreamCapture("stderr")
        transport.run('printf "%s|%s|%s" "$CUDA_VISIBLE_DEVICES" "$HF_HOME" "$SPECDEBUG_RACK"', stdout=stdout, stderr=stderr, timeout_s=30)
        stdout.close()
        stderr.close()
    assert stdout.text() == "3|/scratch/hf|r3"


@pytest.mark.parametrize("line, said", [
    ("SendEnv HF_HOME=/x", "SendEnv 'HF_HOME=/x' is not a variable name"),
    ("SetEnv CUDA_VISIBLE_DEVICES", "SetEnv 'CUDA_VISIBLE_DEVICES' is not NAME=value"),
    ('SetEnv "A=1', 'unclosed "'),
])
def test_a_bad_env_line_is_one_clear_message(tmp_path: Path, line: str, said: str) -> None:
    config = tmp_path / "config"
    config.write_text(f"Host other\n  {line}\n")
    if shutil.which("ssh"):  # ssh(1) refuses each too, for any host
        assert subprocess.run(["ssh", "-F", str(config), "-G", "gpu01"], capture_output=True, check=False,
                              stdin=subprocess.DEVNULL).returncode != 0
    with pytest.raises(UsageError) as refused:
        load_ssh_config(config)
    assert f"{config} line 2: " in refused.value.message and said in refused.value.message, refused.value.message


def test_a_partly_quoted_identity_file_is_the_file_ssh_reads(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """`IdentityFile ~/.ssh/"gpu key"`: ssh(1) reads ~/.ssh/gpu key; the quotes were kept, no key
    was tried and the host "failed authentication"."""
    key = ClientKey(keygen(client.home / ".ssh" / "gpu key"))
    sshd.authorized_keys_path.write_text(client.key.public + "\n" + key.public + "\n")
    client.config.write_text(
        "Host gpu01\n"
        f"  HostName {sshd.address}\n  Port {sshd.port}\n  User 'root'\n"
        '  IdentityFile ~/.ssh/"gpu key"\n  IdentitiesOnly yes\n'
        f"  UserKnownHostsFile '{client.known_hosts}'\n"
    )
    target = resolve_target("gpu01", load_ssh_config(client.config))
    assert target.identity_files == (str(client.home / ".ssh" / "gpu key"),)
    assert target.user == "root" and target.known_hosts_files == (str(client.known_hosts),)
    try:
        assert _shown(client, "printf ok") == "ok"
    finally:
        sshd.authorized_keys_path.write_text(client.key.public + "\n")


def test_quoted_values_read_as_ssh_reads_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    config = tmp_path / "config"
    config.write_text(
        "Host gpu01\n"
        "  HostName 'gpu01.lab'\n"
        '  UserKnownHostsFile ~/.ssh/"known hosts" /tmp/second\\ file\n'
        '  AddKeysToAgent "confirm" 5m\n'
        '  SendEnv "HF_*" LANG\n'
    )
    target = resolve_target("gpu01", load_ssh_config(config))
    assert target.hostname == "gpu01.lab"
    assert target.known_hosts_files == (f"{tmp_path}/.ssh/known hosts", "/tmp/second file")
    assert target.add_keys_to_agent is not None and target.add_keys_to_agent.confirm and target.add_keys_to_agent.lifetime_s == 300
    assert target.send_env == ("HF_*", "LANG")
    if shutil.which("ssh"):  # as `ssh -G` reads the same lines
        shown = subprocess.run(["ssh", "-F", str(config), "-G", "gpu01"], capture_output=True, text=True, check=True,
                               stdin=subprocess.DEVNULL, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}).stdout
        assert "hostname gpu01.lab\n" in shown and "sendenv HF_*\n" in shown and "addkeystoagent confirm 300\n" in shown
