"""ssh config files as people write them, read the way `ssh -G` reads them (checked against it)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from tests.sshd_fixture import ClientSetup, SshServer

SSH = shutil.which("ssh")


def ssh_g(config: Path, alias: str) -> dict[str, str]:
    """`ssh -G`'s view of `alias` (first value of each keyword)."""
    if SSH is None:
        pytest.skip("OpenSSH client not installed")
    done = subprocess.run([SSH, "-G", "-F", str(config), alias], capture_output=True, text=True, check=True,
                          stdin=subprocess.DEVNULL, timeout=30)
    seen: dict[str, str] = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        seen.setdefault(key, value)
    return seen


# Trailing comments, as in dotfiles repos and cluster onboarding docs: OpenSSH 8.7+ ends a line
# at a `#` that starts an unquoted word (openssh-portable: misc.c, argv_split).
COMMENTED = """\
Include conf.d/*.conf # per-team files
Host gpu01 gpu02   # the two A100 boxes in rack 3
  HostName 10.20.0.11   # mgmt network
  Port 2222 # sshd for the training containers
  User ml   # service account, not your own
  ConnectTimeout 10 # seconds
  ProxyJump bastion # everything goes through the bastion
  ProxyCommand none
  IdentityFile ~/.ssh/id_lab#2
  StrictHostKeyChecking accept-new # first contact is fine

Host bastion  # the jump host itself
  ProxyJump none

Match host h100-* # the new cluster
  User "svc # quoted"
"""


def test_trailing_comments_are_comments_as_in_ssh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".ssh" / "conf.d").mkdir(parents=True)
    (tmp_path / ".ssh" / "conf.d" / "team.conf").write_text("Host team-box  # theirs\n  HostName 10.9.9.9 # yes\n")
    config = tmp_path / "config"
    config.write_text(COMMENTED)
    expected = ssh_g(config, "gpu02")
    target = resolve_target("gpu02", load_ssh_config(config))
    assert (target.hostname, str(target.port), target.user) == (expected["hostname"], expected["port"], expected["user"]) == (
        "10.20.0.11", "2222", "ml")
    assert target.connect_timeout_s == float(expected["connecttimeout"]) == 10.0
    assert [hop.destination.host for hop in target.proxy_jump] == [expected["proxyjump"]] == ["bastion"]
    assert target.identity_files == (str(tmp_path / ".ssh" / "id_lab#2"),)  # a `#` inside a word is kept
    assert target.strict_host_key_checking == expected["stricthostkeychecking"] == "accept-new"
    assert resolve_target("bastion", load_ssh_config(config)).proxy_jump == ()
    assert resolve_target("h100-01", load_ssh_config(config)).user == ssh_g(config, "h100-01")["user"] == "svc # quoted"
    assert resolve_target("team-box", load_ssh_config(config)).hostname == ssh_g(config, "team-box")["hostname"] == "10.9.9.9"


def test_a_commented_config_reaches_its_host(cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """The whole way: a commented Host block gets a run going instead of 'Port ... is not a number'."""
    client.config.write_text(
        f"Host commented   # the shared test box\n"
        f"  HostName {sshd.address}   # loopback\n"
        f"  Port {sshd.port} # its own port\n"
        f"  IdentityFile {client.key.path}\n"
        f"  IdentitiesOnly yes # only that key\n"
        f"  UserKnownHostsFile {client.known_hosts} # private file\n"
    )
    with SSHTransport.connect("commented", client.options()) as transport:
        assert transport.connection.target.port == sshd.port
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\ndescription: d\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: echo hi\n")
    result = cli("run", str(playbook), "--host", "commented", "-F", str(client.config), "--batch", "--out", str(tmp_path / "runs"))
    assert result.code == 0, result.stdout + result.stderr


def test_a_file_included_inside_a_host_block_applies_to_those_hosts_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`Host *.work` + `Include work_config`: the work file's `Host *` (its bastion, its user)
    is for *.work hosts only; ssh(1) never applies blocks included from a block that does not
    match (readconf.c, SSHCONF_NEVERMATCH). We sent every host through the work bastion."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".ssh").mkdir()
    (tmp_path / ".ssh" / "work_config").write_text(
        "User corp\n"
        "Host *  # every work host\n  ProxyJump work-bastion\n"
        "Host db-* !db-legacy\n  Port 5022\n"
        "Match user corp\n  IdentityFile ~/.ssh/id_work\n"
    )
    config = tmp_path / "config"
    config.write_text(
        "Host *.work\n  Include work_config\n  ConnectTimeout 7\n"
        "Host gpu01\n  HostName 10.0.0.1\n"
        "Host *\n  User me\n"
    )
    for alias in ("gpu01", "db-2", "x.work", "db-1.work", "db-legacy.work"):
        expected = ssh_g(config, alias)
        target = resolve_target(alias, load_ssh_config(config))
        assert (target.user, str(target.port)) == (expected["user"], expected["port"]), alias
        assert [hop.destination.host for hop in target.proxy_jump] == ([expected["proxyjump"]] if "proxyjump" in expected else []), alias
        assert target.connect_timeout_s == (15.0 if expected.get("connecttimeout", "none") == "none" else float(expected["connecttimeout"]))
    gpu01, work = resolve_target("gpu01", load_ssh_config(config)), resolve_target("db-1.work", load_ssh_config(config))
    assert (gpu01.user, gpu01.proxy_jump) == ("me", ())
    assert (work.user, work.port, work.identity_files) == ("corp", 5022, (str(tmp_path / ".ssh" / "id_work"),))


def test_minus_f_none_reads_no_config_at_all(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ssh -F none host`: no config file, not even the system one. It was 'file not found: none'."""
    system = tmp_path / "system_config"
    system.write_text("Host *\n  Port 1\n  User nobody-here\n")  # would break the login if read
    monkeypatch.setenv("SPEC_DEBUG_SYSTEM_SSH_CONFIG", str(system))
    client.config.write_text("Host *\n  Port 1\n")
    assert ssh_g(Path("none"), f"root@{sshd.address}")["port"] == "22"  # ssh(1) reads nothing
    target = resolve_target(f"root@{sshd.address}:{sshd.port}", load_ssh_config("none"))
    assert (target.port, target.user, target.identity_files) == (sshd.port, "root", ())
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\ndescription: d\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: echo hi\n")
    # Without a config the key comes from the default place, as for ssh(1).
    shutil.copy(client.key.path, client.home / ".ssh" / "id_ed25519")
    shutil.copy(str(client.key.path) + ".pub", client.home / ".ssh" / "id_ed25519.pub")
    result = cli("run", str(playbook), "--host", f"{sshd.address}:{sshd.port}", "-F", "none", "--batch", "--out", str(tmp_path / "runs"))
    assert result.code == 0, result.stdout + result.stderr


def test_a_bare_ipv6_address_is_a_host_as_in_ssh(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ssh root@2001:db8::5` and `ssh fe80::1%eth0` work (ssh(1) reads no port there); `--host`
    answered "cannot parse host", although inventories already took bare addresses."""
    import getpass

    from tests.ssh.h6_helpers import ipv6_sshd

    server = ipv6_sshd("h8v6", sshd_factory, monkeypatch)
    client.trust(server)
    client.alias("::1", server)  # `Host ::1` gives the port and key, as for ssh(1)
    me = getpass.getuser()
    if SSH is not None:
        said = subprocess.run([SSH, "-F", str(client.config), "-o", "BatchMode=yes", f"{me}@::1", "true"],
                              capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False)
        assert said.returncode == 0, said.stderr
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\ndescription: d\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: echo hi\n")
    result = cli("run", str(playbook), "--host", f"{me}@::1", "-F", str(client.config), "--batch", "--out", str(tmp_path / "runs"))
    assert result.code == 0, result.stdout + result.stderr
    from spec_debug.runner.ssh_config import Destination, parse_destination

    assert parse_destination("fe80::1%eth0") == Destination("fe80::1%eth0")
    assert parse_destination("bob@2001:db8::5") == Destination("2001:db8::5", user="bob")
    assert parse_destination("[2001:db8::5]:2222") == Destination("2001:db8::5", port=2222)


def test_connect_timeout_0_means_no_timeout_of_its_own_not_a_failed_connect(client: ClientSetup, sshd: SshServer) -> None:
    """`ConnectTimeout 0`: ssh(1) connects without a timeout of its own; we failed every host with
    "cannot reach 127.0.0.1:PORT: Operation now in progress" (a socket timeout of 0 is non-blocking)."""
    client.alias("zero", sshd, ConnectTimeout=0)
    assert ssh_g(client.config, "zero")["connecttimeout"] == "0"
    with SSHTransport.connect("zero", client.options()) as transport:
        assert transport.connection.target.connect_timeout_s > 0
    with SSHTransport.connect("target", client.options(connect_timeout_s=0)):
        pass


def test_address_family_inet_keeps_a_dual_stack_name_on_ipv4(
    client: ClientSetup, sshd_factory: Any, tmp_path: Path
) -> None:
    """`AddressFamily inet` (set where IPv6 is broken: a VPN, a container network) sends ssh(1)
    to the IPv4 address of a name that also has an IPv6 one; we tried the IPv6 address first
    and, where it is blackholed, waited out ConnectTimeout per host. Here the name resolves to
    ::1 then 127.0.0.1 (a private /etc/hosts) and sshd listens on both: SSH_CONNECTION says
    which address was used. `-4` in an inventory's ssh args is the same setting."""
    from spec_debug.runner.ssh_config import parse_ssh_args

    if subprocess.run(["unshare", "--mount", "true"], capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot make a mount namespace here")
    server = sshd_factory("dual", extra_config="ListenAddress ::1\n")
    hosts = tmp_path / "hosts"
    hosts.write_text("127.0.0.1 localhost\n::1 gpu-dual\n127.0.0.1 gpu-dual\n")
    client.known_hosts.write_text(f"[gpu-dual]:{server.port} {' '.join(server.known_hosts_line.split()[1:])}\n")
    client.alias("v4", server, HostName="gpu-dual", AddressFamily="inet")
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\ndescription: d\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: echo \"$SSH_CONNECTION\"\n")
    out = tmp_path / "runs"
    argv = [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "v4", "-F", str(client.config), "--batch",
            "--out", str(out)]
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                           f'mount --bind {hosts} /etc/hosts && exec "$@"', "sh", *argv],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    assert record["steps"][0]["stdout"].split()[0] == "127.0.0.1", record["steps"][0]["stdout"]  # ::1 comes first
    assert parse_ssh_args("-4 -o ProxyJump=bastion") == {"addressfamily": "inet", "proxyjump": "bastion"}
    assert parse_ssh_args("-At6")["addressfamily"] == "inet6"


def test_a_config_with_latin1_comments_is_read_as_ssh_reads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ssh(1) reads bytes; a comment saved by an old editor in Latin-1 stopped every run with
    "cannot read ssh config ...: 'utf-8' codec can't decode byte 0xfc"."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".ssh").mkdir()
    (tmp_path / ".ssh" / "lab.conf").write_bytes("# Übungsrechner, Raum 3\nHost lab01\n  Port 2202\n".encode("latin-1"))
    config = tmp_path / "config"
    config.write_bytes("# Rechner für die Gruppe\nInclude lab.conf\nHost gpu01\n  HostName 10.0.0.1\n  Port 2201\n".encode("latin-1"))
    for alias, port in (("gpu01", 2201), ("lab01", 2202)):
        assert resolve_target(alias, load_ssh_config(config)).port == port == int(ssh_g(config, alias)["port"])


def test_an_inventory_whose_ssh_args_name_a_config_file_uses_it(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path
) -> None:
    """`ansible_ssh_common_args='-F ssh.cfg'`: the file that says where the fleet's hosts are
    (their HostName, port, key, bastion). ssh(1) reads it; we ignored -F and the hosts did not
    resolve."""
    fleet_config = tmp_path / "ssh.cfg"
    fleet_config.write_text(
        f"Host gpu-in-cfg\n  HostName {sshd.address}\n  Port {sshd.port}\n  IdentityFile {client.key.path}\n"
        f"  IdentitiesOnly yes\n  UserKnownHostsFile {client.known_hosts}\n"
    )
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"[gpus]\ngpu-in-cfg\n\n[gpus:vars]\nansible_ssh_common_args='-F {fleet_config} -o ConnectTimeout=5'\n")
    if SSH is not None:  # what ansible would run
        said = subprocess.run([SSH, "-F", str(fleet_config), "-o", "BatchMode=yes", "gpu-in-cfg", "true"],
                              capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL, check=False)
        assert said.returncode == 0, said.stderr
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\ndescription: d\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: echo hi\n")
    result = cli("run", str(playbook), "-i", str(inventory), "--batch", "--out", str(tmp_path / "runs"))
    assert result.code == 0, result.stdout + result.stderr


@pytest.mark.parametrize("port", ["70000", "-1", "0", "22.7"])
def test_a_port_ssh_calls_bad_is_a_usage_error_not_a_refused_connection(tmp_path: Path, port: str) -> None:
    """ssh(1): "Bad port". We said "connection refused by HOST:70000", "cannot resolve host name"
    (-1), or used port 22 for `Port 22.7`."""
    from spec_debug.errors import UsageError

    config = tmp_path / "config"
    config.write_text(f"Host box\n  HostName 127.0.0.1\n  Port {port}\n")
    if SSH is not None:
        said = subprocess.run([SSH, "-G", "-F", str(config), "box"], capture_output=True, text=True, timeout=30,
                              stdin=subprocess.DEVNULL, check=False)
        assert said.returncode != 0, said.stdout  # ssh(1) refuses the line
    with pytest.raises(UsageError, match=f"Port '{re.escape(port)}' is not a number from 1 to 65535"):
        resolve_target("box", load_ssh_config(config))


def test_a_bad_jump_host_names_the_proxyjump_it_came_from(tmp_path: Path) -> None:
    """"cannot parse host 'bastion:22:x'" did not say that it was a ProxyJump's hop."""
    from spec_debug.errors import UsageError

    config = tmp_path / "config"
    config.write_text("Host gpu01\n  ProxyJump ok-bastion,bastion:22:x\n")
    with pytest.raises(UsageError, match=r"ProxyJump 'ok-bastion,bastion:22:x': cannot parse host 'bastion:22:x'"):
        resolve_target("gpu01", load_ssh_config(config))
