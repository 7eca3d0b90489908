"""ProxyJump hops resolved as ssh(1) resolves them, each compared with `ssh -G` (OpenSSH 9.2).

`ProxyJump a,b` (or `-J a,b`) makes ssh(1) run `ssh -J a -W '[%h]:%p' b`, and that one
`ssh -W '[%h]:%p' a` (openssh-portable: ssh.c, main, "Setting implicit ProxyCommand from
ProxyJump"): the first hop reads its own config block, its own ProxyJump/ProxyCommand
included; every later hop reads its block but is reached through the hops before it, and a
`user@hop:port` entry is `-l user -p port`, ahead of the hop's own User and Port. And of the
ProxyJump line ssh(1) reads only its first word, refusing an empty entry in it.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterator

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_config import SSHTarget, load_ssh_config, parse_destination, resolve_target
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]
SSH = shutil.which("ssh")


def ssh_g(config: Path, *args: str) -> dict[str, str]:
    """`ssh -G -F CONFIG ARGS...`: the first value of each option; {"error": ...} when ssh refuses."""
    if SSH is None:
        pytest.skip("needs ssh(1) to compare with")
    done = subprocess.run([SSH, "-G", "-F", str(config), *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=30, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip()}
    seen: dict[str, str] = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        seen.setdefault(key, value)
    return seen


# An HPC site: compute nodes behind a login node, GPU nodes behind a bastion, a gateway for
# everything else; the bastion's and gateway's own `ProxyJump none` above the wildcard that would
# loop them.
HPC = """\
Host cluster-*
  ProxyJump login
  User clu
Host login
  HostName login.hpc.example.edu
  User me
  Port 2200
  ProxyJump gw.example.edu
Match host gpu*
  ProxyJump bastion
Host bastion
  HostName 127.0.0.5
  ProxyJump none
Host relay
  HostName relay.internal
  User relayuser
  ProxyCommand nc %h %p
Host chain
  ProxyJump ops@login:2022,relay,cluster-7
Host through-relay
  ProxyJump relay,login
Host gw.example.edu
  ProxyJump none
Host *
  ProxyJump gw.example.edu
"""


def hops_as_ssh_runs_them(config: Path, target: str) -> list[dict[str, str]]:
    """`ssh -G` for each hop of target's ProxyJump with the arguments ssh(1) gives the ssh it
    starts for it: `-l`/`-p` from the entry, `-J` with the hops before it."""
    entries = ssh_g(config, target)["proxyjump"].split(",")
    resolved = []
    for number, entry in enumerate(entries):
        hop = parse_destination(entry)
        args = [*(["-l", hop.user] if hop.user else []),
                *(["-p", str(hop.port)] if hop.port else []),
                *(["-J", ",".join(entries[:number])] if number else []),
                hop.host]
        resolved.append(ssh_g(config, *args))
    return resolved


def hops_as_we_reach_them(config: Path, target: str) -> list[SSHTarget]:
    """What spec-debug connects to for each hop (ssh_connect._open): the first with its own
    settings, the later ones reached through the hops before them."""
    parsed = load_ssh_config(config)
    hops = resolve_target(target, parsed).proxy_jump
    first = resolve_target(hops[0].destination, parsed)
    later = [replace(resolve_target(hop.destination, parsed), proxy_jump=(), proxy_command=None) for hop in hops[1:]]
    return [first, *later]


def as_ssh_prints(target: SSHTarget) -> dict[str, str]:
    jump = ",".join(
        f"{hop.destination.user + '@' if hop.destination.user else ''}{hop.destination.host}"
        f"{':' + str(hop.destination.port) if hop.destination.port else ''}"
        for hop in target.proxy_jump
    )
    return {"hostname": target.hostname, "user": target.user, "port": str(target.port),
            "proxyjump": jump or None, "proxycommand": target.proxy_command}


@pytest.mark.parametrize("target", ["cluster-7", "gpu12", "chain", "through-relay", "login"])
def test_each_hop_of_an_hpc_chain_uses_what_ssh_gives_it(tmp_path: Path, target: str) -> None:
    """Host, user, port and onward jump of every hop, as `ssh -G` gives them for the ssh that
    ssh(1) starts for that hop (its ProxyCommand shown with its tokens, ours expanded)."""
    config = tmp_path / "config"
    config.write_text(HPC)
    theirs = hops_as_ssh_runs_them(config, target)
    ours = hops_as_we_reach_them(config, target)
    assert len(ours) == len(theirs)
    for number, (hop, seen) in enumerate(zip(ours, theirs)):
        mine = as_ssh_prints(hop)
        assert (mine["hostname"], mine["user"], mine["port"]) == (seen["hostname"], seen["user"], seen["port"])
        if number == 0:  # the first hop's own way there; later ones go through the hops before
            assert mine["proxyjump"] == seen.get("proxyjump")
            expected_command = seen.get("proxycommand")
            if expected_command is not None:
                expected_command = expected_command.replace("%h", hop.hostname).replace("%p", str(hop.port))
            assert mine["proxycommand"] == expected_command


@pytest.mark.parametrize(
    ("proxy_jump", "hops"),
    [
        ("bastion,login", ["bastion", "login"]),
        ("bastion ,login", ["bastion"]),  # the first word only
        ("bastion login", ["bastion"]),
        ("ops@bastion:2022 ,login", ["ops@bastion:2022"]),
        ("bastion,login spare", ["bastion", "login"]),
        ("none spare", []),
        ("bastion, login", None),  # "bastion," ends in an empty entry: refused
        ("bastion,,login", None),
        ("bastion,", None),
        (",bastion", None),
    ],
)
def test_proxy_jump_line_read_as_ssh_reads_it(tmp_path: Path, proxy_jump: str, hops: list[str] | None) -> None:
    config = tmp_path / "config"
    config.write_text(f"Host target\n  ProxyJump {proxy_jump}\n")
    seen = ssh_g(config, "target")
    if hops is None:
        assert "Invalid ProxyJump" in seen["error"]
        with pytest.raises(UsageError, match="Invalid ProxyJump"):
            resolve_target("target", load_ssh_config(config))
        return
    assert seen.get("proxyjump", "none") == (",".join(hops) or "none")
    ours = resolve_target("target", load_ssh_config(config))
    assert as_ssh_prints(ours)["proxyjump"] == (",".join(hops) or None)


def ssh_exit_status(client: ClientSetup, alias: str) -> int:
    if SSH is None:
        pytest.skip("needs ssh(1) to compare with")
    done = subprocess.run([SSH, "-F", str(client.config), "-o", "BatchMode=yes", alias, "true"],
                          capture_output=True, stdin=subprocess.DEVNULL, timeout=30, check=False)
    return done.returncode


def test_a_second_word_on_the_proxy_jump_line_is_no_hop(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer
) -> None:
    """`ProxyJump bastion ,spare`: ssh(1) jumps through bastion alone and reaches the host. We
    trimmed the space and went on through `spare` too, a login node that is down: the host was
    unreachable here and reachable with ssh."""
    bastion = sshd_factory("h16bastion")
    spare = sshd_factory("h16spare")
    for server in (bastion, spare, sshd):
        client.trust(server)
    client.alias("bastion", bastion)
    client.alias("spare", spare)
    client.alias("behind", sshd, ProxyJump="bastion ,spare")
    spare.stop()
    assert ssh_exit_status(client, "behind") == 0
    with SSHTransport.connect("behind", client.options()) as transport:
        assert [hop.target.alias for hop in transport.connection.via] == ["bastion"]


def test_a_later_hop_is_not_canonicalized_as_ssh_reaches_it_through_the_hops_before(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer
) -> None:
    """`ProxyJump login,node7` beside `CanonicalizeHostname yes` and `CanonicalizeFallbackLocal
    no`: ssh(1) reaches node7 as `ssh -J login node7`, a proxied host it does not canonicalize
    (openssh-portable: ssh.c, main: only direct connections, or `always`), and the name resolves
    on the login node. We canonicalized node7 here and failed: "cannot resolve host name"."""
    login = sshd_factory("h16login")
    node = sshd_factory("h16node")
    for server in (login, node, sshd):
        client.trust(server)
    with open(client.known_hosts, "a") as handle:  # node7 is reached by the name `localhost`
        handle.write(node.known_hosts_line.replace(node.address, "localhost", 1))
    client.alias("login", login)
    client.alias("node7", node, HostName="localhost")
    client.alias("behind", sshd, ProxyJump="login,node7")
    client.alias("*", sshd, CanonicalizeHostname="yes", CanonicalDomains="hpc.invalid", CanonicalizeFallbackLocal="no")
    assert ssh_exit_status(client, "behind") == 0
    with SSHTransport.connect("behind", client.options()) as transport:
        assert [hop.target.hostname for hop in transport.connection.via] == ["127.0.0.1", "localhost"]


@pytest.fixture
def hang_up_port() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts and hangs up: ssh(1) loads its key and certificate
    files once connected, before the banner it then fails to read, and `ssh -v` names them."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
            try:
                peer, _ = listener.accept()
            except OSError:
                return
            peer.close()

    threading.Thread(target=serve, daemon=True).start()
    yield listener.getsockname()[1]
    listener.close()


def test_a_jump_entry_user_names_the_hop_certificate_file(tmp_path: Path, hang_up_port: int) -> None:
    """`ProxyJump ops@login:PORT` with `CertificateFile ~/.ssh/%r@%h-%p-cert.pub` in the login
    block: ssh(1) starts `ssh -l ops -p PORT login`, which loads ops's certificate for that host
    and port (tokens expanded, as `ssh -v` shows). We kept `%r@%h-%p` as written, a file that
    never exists, and offered the key without its certificate."""
    if SSH is None:
        pytest.skip("needs ssh(1) to compare with")
    config = tmp_path / "config"
    config.write_text(
        "Host login\n  HostName 127.0.0.1\n  User me\n  CertificateFile ~/.ssh/%r@%h-%p-%n-cert.pub\n"
        f"Host gpu01\n  ProxyJump ops@login:{hang_up_port}\n"
    )
    done = subprocess.run([SSH, "-v", "-F", str(config), "-o", "BatchMode=yes", "-o", "ConnectTimeout=2",
                           "-l", "ops", "-p", str(hang_up_port), "login", "true"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30, check=False)
    loaded = [line.split()[3] for line in done.stderr.splitlines() if line.startswith("debug1: certificate file ")]
    parsed = load_ssh_config(config)
    hop = resolve_target(resolve_target("gpu01", parsed).proxy_jump[0].destination, parsed)
    assert list(hop.certificate_files) == loaded == [str(Path.home() / f".ssh/ops@127.0.0.1-{hang_up_port}-login-cert.pub")]


def jump_command_of(config: Path, alias: str) -> list[str]:
    """The `ssh ... -W '[%h]:%p' HOP` that ssh(1) runs for alias's ProxyJump, tokens expanded
    (`ssh -v`: "Executing proxy command"); the jump host's name is no host, so it ends there."""
    if SSH is None:
        pytest.skip("needs ssh(1) to compare with")
    done = subprocess.run([SSH, "-v", "-F", str(config), "-o", "BatchMode=yes", alias, "true"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30, check=False)
    marker = "debug1: Executing proxy command: exec "
    return next(line[len(marker):] for line in done.stderr.splitlines() if line.startswith(marker)).split()


@pytest.mark.parametrize(("proxy_jump", "hop"), [("%n-gw", "Alias1-gw"), ("%r@gw-%h", "zed@gw-127.0.0.9")])
def test_proxy_jump_tokens_expanded_as_ssh_expands_them(tmp_path: Path, proxy_jump: str, hop: str) -> None:
    """ssh(1) expands the tokens of the ProxyCommand it makes of ProxyJump, so `%n` (the name
    as typed) names the jump host too; we kept `%n-gw` as a host name."""
    config = tmp_path / "config"
    config.write_text(f"Host Alias1\n  HostName 127.0.0.9\n  Port 2299\n  User zed\n  ProxyJump {proxy_jump}\n")
    command = jump_command_of(config, "Alias1")
    user = command[command.index("-l") + 1] + "@" if "-l" in command else ""
    (jump,) = resolve_target("Alias1", load_ssh_config(config)).proxy_jump
    mine = f"{jump.destination.user + '@' if jump.destination.user else ''}{jump.destination.host}"
    assert mine == user + command[-1] == hop


def test_a_later_hop_is_reached_through_the_hops_before_it_not_its_own_jump(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer
) -> None:
    """`ProxyJump login,node`: the first hop goes its own way (login's ProxyJump gateway), the
    later one through the hops before it, whatever its own ProxyJump says (ssh(1) starts it as
    `ssh -J login node`, and -J wins over the config)."""
    gateway, login, node = (sshd_factory(name) for name in ("h16gw", "h16login2", "h16node2"))
    for server in (gateway, login, node, sshd):
        client.trust(server)
    client.alias("gateway", gateway)
    client.alias("login", login, ProxyJump="gateway")
    client.alias("node", node, ProxyJump="nowhere")
    client.alias("behind", sshd, ProxyJump="login,node")
    assert ssh_exit_status(client, "behind") == 0
    with SSHTransport.connect("behind", client.options()) as transport:
        assert [hop.target.alias for hop in transport.connection.via] == ["login", "node"]
