"""The system-wide ssh_config, read after the user's file as ssh(1) reads it.

Clusters ship their jump-host rules in /etc/ssh/ssh_config.d/*.conf (Debian's
/etc/ssh/ssh_config starts with `Include /etc/ssh/ssh_config.d/*.conf`): `ssh gpu01` works there,
so spec-debug must too. With -F only that file is read (ssh(1): "-F ... the system-wide
configuration file will be ignored")."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target


@pytest.fixture
def system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    etc = tmp_path / "etc" / "ssh"
    (etc / "ssh_config.d").mkdir(parents=True)
    (etc / "ssh_config.d" / "50-cluster.conf").write_text(
        "Host gpu*\n  ProxyJump login.cluster\n  User clusteruser\n  Port 2200\n")
    main = etc / "ssh_config"
    # Debian's own file: a relative Include is under /etc/ssh, not ~/.ssh
    main.write_text("Include ssh_config.d/*.conf\nHost *\n  HashKnownHosts yes\n  ConnectTimeout 9\n")
    monkeypatch.setenv("SPEC_DEBUG_SYSTEM_SSH_CONFIG", str(main))
    return main


def test_cluster_rules_from_the_system_file_apply(system: Path) -> None:
    target = resolve_target("gpu07", load_ssh_config(None))
    assert (target.user, target.port, target.connect_timeout_s) == ("clusteruser", 2200, 9.0)
    assert [hop.destination.host for hop in target.proxy_jump] == ["login.cluster"]
    assert target.hash_known_hosts is True


def test_the_users_file_comes_first_and_its_last_block_does_not_swallow_the_system_file(
        system: Path, tmp_path: Path) -> None:
    user = tmp_path / "home" / ".ssh" / "config"
    user.parent.mkdir(parents=True)
    user.write_text("Host gpu07\n  User me\nHost other\n  Port 2022\n")
    config = load_ssh_config(None)
    target = resolve_target("gpu07", config)
    assert (target.user, target.port) == ("me", 2200)  # first value obtained wins, per option
    assert resolve_target("web", config).connect_timeout_s == 9.0  # system Host * is not under "Host other"


def test_minus_f_reads_that_file_only(system: Path, tmp_path: Path) -> None:
    only = tmp_path / "only.conf"
    only.write_text("Host gpu*\n  User fromf\n")
    target = resolve_target("gpu07", load_ssh_config(only))
    assert (target.user, target.port, target.proxy_jump) == ("fromf", 22, ())


def test_a_broken_system_file_is_one_usage_error(system: Path) -> None:
    system.write_bytes(b"Host *\n  User \xff\xfe\n")
    with pytest.raises(UsageError, match="cannot read ssh config .*ssh_config"):
        load_ssh_config(None)
