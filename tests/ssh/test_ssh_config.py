"""Resolving a host name through ssh_config the way ssh(1) does (pure, no network)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import Destination, load_ssh_config, resolve_target

CONFIG = """
Host gpu*
  HostName %h.cluster.internal
  User ml
  Port 2222
  IdentityFile ~/.ssh/id_gpu
  IdentitiesOnly yes
  ProxyJump bastion,admin@bastion2:2200
  ConnectTimeout 7
  ServerAliveInterval 30
  UserKnownHostsFile ~/.ssh/known_gpu /etc/ssh/known_fleet
  StrictHostKeyChecking accept-new

Host legacy
  HostName 10.1.1.1
  ProxyCommand nc %h %p
  HostKeyAlias legacy-box

Host *
  User fallback
"""


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    path = tmp_path / "ssh_config"
    path.write_text(CONFIG)
    return path


def test_a_gpu_alias_resolves_every_setting(config: Path, tmp_path: Path) -> None:
    target = resolve_target("gpu07", load_ssh_config(config))
    assert (target.hostname, target.port, target.user) == ("gpu07.cluster.internal", 2222, "ml")
    assert target.identity_files == (f"{tmp_path}/.ssh/id_gpu",) and target.identities_only
    assert [hop.destination for hop in target.proxy_jump] == [Destination("bastion"), Destination("bastion2", user="admin", port=2200)]
    assert (target.connect_timeout_s, target.keepalive_s) == (7.0, 30.0)
    assert target.known_hosts_files == (f"{tmp_path}/.ssh/known_gpu", "/etc/ssh/known_fleet")
    assert target.strict_host_key_checking == "accept-new"
    assert target.known_hosts_name == "[gpu07.cluster.internal]:2222"


def test_command_line_user_and_port_win_over_the_config(config: Path) -> None:
    target = resolve_target(Destination("gpu01", user="root", port=22), load_ssh_config(config))
    assert (target.user, target.port, target.known_hosts_name) == ("root", 22, "gpu01.cluster.internal")


def test_proxycommand_tokens_and_host_key_alias(config: Path) -> None:
    target = resolve_target("legacy", load_ssh_config(config))
    assert target.proxy_command == "nc 10.1.1.1 22" and not target.proxy_jump
    assert target.known_hosts_name == "legacy-box" and target.user == "fallback"


def test_unknown_names_pass_through(config: Path) -> None:
    target = resolve_target("10.0.0.9", load_ssh_config(config))
    assert (target.hostname, target.port, target.user) == ("10.0.0.9", 22, "fallback")


def test_missing_or_bad_config_files_are_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not found"):
        load_ssh_config(tmp_path / "nope")
    bad = tmp_path / "bad"
    bad.write_text("Host x\n  Port many\n")
    with pytest.raises(UsageError, match="Port 'many' is not a number"):
        resolve_target("x", load_ssh_config(bad))


def test_include_files_are_read_like_openssh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".ssh" / "config.d").mkdir(parents=True)
    (tmp_path / ".ssh" / "config.d" / "10-gpus").write_text("Host gpu*\n  User ml\n  Port 2200\n")
    (tmp_path / ".ssh" / "config.d" / "20-db").write_text("Host db\n  HostName 10.9.9.9\n")
    main = tmp_path / ".ssh" / "config"
    main.write_text("Include config.d/*\nHost bastion\n  Include missing-is-fine\n  User jump\nHost *\n  User fallback\n")
    config = load_ssh_config(None)
    assert (resolve_target("gpu03", config).user, resolve_target("gpu03", config).port) == ("ml", 2200)
    assert resolve_target("db", config).hostname == "10.9.9.9"
    assert resolve_target("bastion", config).user == "jump"  # the line after the Include stays in its block
    assert resolve_target("other", config).user == "fallback"
