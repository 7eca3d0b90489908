"""Where a real sshd or a real ssh config made spec-debug differ from ssh(1), round 7.

Each test sets up a real OpenSSH server (tests/sshd_fixture.py) and, where it is cheap, runs
ssh(1) itself on the same config to show what the user expects.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from spec_debug.errors import AuthenticationError, HostKeyError, UsageError
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target
from spec_debug.runner.ssh_connect import abandon_connects
from spec_debug.runner.ssh_errors import HandshakeError
from spec_debug.runner.ssh_hostkeys import configured_key_types
from spec_debug.runner.transport import CommandOutcome
from tests.sshd_fixture import SSHD, ClientKey, ClientSetup, SshServer, keygen, write_ssh_config

StartServer = Callable[..., SshServer]
OFFERED = ["ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "rsa-sha2-512", "rsa-sha2-256"]


def reinstall(server: SshServer, client: ClientSetup) -> None:
    """The host gets a new key; known_hosts keeps its old one (the restart moves the port)."""
    old_key = server.known_hosts_line.split(" ", 1)[1]
    server.stop()
    server.regenerate_host_key()
    server.start()
    with open(client.known_hosts, "a") as handle:
        handle.write(f"{server.known_hosts_name} {old_key}")


def ssh_agrees(client: ClientSetup, alias: str, *options: str) -> int:
    """ssh(1)'s exit status for `ssh -F CONFIG ALIAS true` (BatchMode), or skip without ssh."""
    if shutil.which("ssh") is None:
        pytest.skip("no ssh(1) to compare with")
    flags = [arg for option in options for arg in ("-o", option)]
    done = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", *flags, alias, "true"],
                          capture_output=True, timeout=30, check=False)
    return done.returncode


def test_strict_host_key_checking_no_connects_despite_a_changed_key_with_a_warning_as_ssh_does(
    client: ClientSetup, sshd_factory: StartServer, capfd: pytest.CaptureFixture[str]
) -> None:
    """ssh_config(5): with `StrictHostKeyChecking no` ssh(1) connects to a host whose key
    changed (key logins only, after a warning); we refused it as for `yes`."""
    server = sshd_factory("h7changed")
    reinstall(server, client)
    client.alias("reinstalled", server, StrictHostKeyChecking="no")
    before = client.known_hosts.read_text()
    assert ssh_agrees(client, "reinstalled") == 0
    capfd.readouterr()
    with SSHTransport.connect("reinstalled", client.options()) as transport:
        assert transport.connection.transport.host_key_warning is not None
    warned = capfd.readouterr().err
    assert "HOST KEY CHANGED" in warned and server.host_key_fingerprint in warned and "StrictHostKeyChecking no" in warned
    assert client.known_hosts.read_text() == before  # the old key stays, as ssh(1) leaves it
    # accept-new (and the default) still refuse a changed key, as in ssh(1).
    client.alias("reinstalled", server, StrictHostKeyChecking="accept-new")
    with pytest.raises(HostKeyError, match="HOST KEY CHANGED"):
        SSHTransport.connect("reinstalled", client.options())


def test_host_key_algorithms_of_the_config_choose_the_key_the_server_proves(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """`HostKeyAlgorithms ^ecdsa-sha2-nistp256` must make the server prove its ECDSA key, and
    `-ssh-ed25519` rules ed25519 out; the config line was ignored."""
    ecdsa = tmp_path / "ecdsa_host_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ecdsa", "-b", "256", "-N", "", "-f", str(ecdsa)], check=True)
    server = sshd_factory("h7twokeys", extra_config=f"HostKey {ecdsa}\n")
    client.trust(server)
    kind, blob = Path(f"{ecdsa}.pub").read_text().split()[:2]
    with open(client.known_hosts, "a") as handle:
        handle.write(f"{server.known_hosts_name} {kind} {blob}\n")
    client.alias("prefers-ecdsa", server, HostKeyAlgorithms="^ecdsa-sha2-nistp256")
    with SSHTransport.connect("prefers-ecdsa", client.options()) as transport:
        assert transport.connection.transport.get_remote_server_key().get_name() == "ecdsa-sha2-nistp256"
    client.alias("no-ed25519", server, HostKeyAlgorithms="-ssh-ed25519")
    with SSHTransport.connect("no-ed25519", client.options()) as transport:
        assert transport.connection.transport.get_remote_server_key().get_name() == "ecdsa-sha2-nistp256"


def test_host_key_algorithms_that_rule_out_the_servers_only_key_fail_as_in_ssh(client: ClientSetup, sshd: SshServer) -> None:
    client.alias("ed25519-only", sshd, HostKeyAlgorithms="ecdsa-sha2-*")
    assert ssh_agrees(client, "ed25519-only") != 0
    with pytest.raises(HandshakeError, match="ed25519"):
        SSHTransport.connect("ed25519-only", client.options())
    client.alias("nothing-left", sshd, HostKeyAlgorithms="ssh-dss")
    with pytest.raises(UsageError, match="HostKeyAlgorithms 'ssh-dss' leaves no host key algorithm"):
        SSHTransport.connect("nothing-left", client.options())


def test_host_key_algorithms_prefixes_read_as_ssh_config_says() -> None:
    assert configured_key_types("-ssh-ed25519*", OFFERED) == OFFERED[1:]
    assert configured_key_types("^rsa-*,ecdsa-sha2-nistp256", OFFERED)[:3] == ["rsa-sha2-512", "rsa-sha2-256", "ecdsa-sha2-nistp256"]
    assert configured_key_types("+ssh-ed25519", OFFERED) == OFFERED
    assert configured_key_types("rsa-sha2-256,ssh-ed25519", OFFERED) == ["rsa-sha2-256", "ssh-ed25519"]


class KbdInteractiveServer(SshServer):
    """A bastion that wants a key and then a one-time code or password (keyboard-interactive
    through PAM), the account's password known only inside the server's mount namespace."""

    def _sshd_config(self) -> str:
        return (super()._sshd_config()
                .replace("UsePAM no\n", "UsePAM yes\n")
                .replace("KbdInteractiveAuthentication no\n", "KbdInteractiveAuthentication yes\n")
                .replace("PermitRootLogin prohibit-password\n", "PermitRootLogin yes\n")
                + "AuthenticationMethods publickey,keyboard-interactive\n")


@pytest.fixture
def bastion(client: ClientSetup, client_key: ClientKey, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SshServer]:
    if not Path("/etc/pam.d/sshd").exists() or os.getuid() != 0 or shutil.which("openssl") is None:
        pytest.skip("needs root, PAM for sshd and openssl")
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot make a mount namespace here")
    import tests.sshd_fixture as fixture

    user = pwd.getpwuid(os.getuid()).pw_name
    hashed = subprocess.run(["openssl", "passwd", "-6", "code-123456"], capture_output=True, text=True, check=True).stdout.strip()
    shadow = tmp_path / "shadow"
    shadow.write_text("".join(
        ":".join([user, hashed, "19000", *line.split(":")[3:]]) + "\n" if line.split(":")[0] == user else line + "\n"
        for line in Path("/etc/shadow").read_text().splitlines()
    ))
    shadow.chmod(0o640)
    wrapper = tmp_path / "sshd-with-password"
    wrapper.write_text(
        "#!/bin/sh\n"
        f"exec unshare --mount --propagation private /bin/sh -c 'mount --bind {shadow} /etc/shadow && exec {SSHD} \"$@\"' sshd \"$@\"\n"
    )
    wrapper.chmod(0o755)
    monkeypatch.setattr(fixture, "SSHD", str(wrapper))
    server = KbdInteractiveServer(tmp_path / "sshd-bastion", [client_key])
    server.start()
    client.trust(server)
    client.alias("bastion", server)
    try:
        yield server
    finally:
        server.stop()


def test_a_bastion_asking_a_one_time_code_under_batch_says_so(client: ClientSetup, bastion: SshServer) -> None:
    """Before: "server wants a second factor ... not supported", with no word of --batch."""
    with pytest.raises(AuthenticationError) as caught:
        SSHTransport.connect("bastion", client.options(batch=True))
    message = caught.value.message
    assert "keyboard-interactive" in message and "--batch forbids prompting" in message, message
    assert "without --batch" in (caught.value.hint or "")


def test_a_bastion_asking_a_one_time_code_is_answered_at_the_prompt(client: ClientSetup, bastion: SshServer) -> None:
    asked: list[str] = []

    def prompt(question: str) -> str:
        asked.append(question)
        return "code-123456"

    with SSHTransport.connect("bastion", client.options(batch=False, prompt=prompt)) as transport:
        assert transport.connection.transport.is_authenticated()
    assert len(asked) == 1 and asked[0].startswith("(bastion)") and "assword" in asked[0]
    with pytest.raises(AuthenticationError, match="keyboard-interactive login .* failed"):
        SSHTransport.connect("bastion", client.options(batch=False, prompt=lambda question: "wrong"))


def test_reading_the_code_may_take_longer_than_connect_timeout(client: ClientSetup, bastion: SshServer) -> None:
    """A person reads the code off a phone: ssh(1) waits (sshd's LoginGraceTime bounds it);
    paramiko's auth wait ended at ConnectTimeout."""

    def slow_person(question: str) -> str:
        time.sleep(4)
        return "code-123456"

    # ConnectTimeout 3, not 1: it bounds the handshake too, which a loaded machine may stretch.
    client.alias("bastion", bastion, ConnectTimeout=3)
    with SSHTransport.connect("bastion", client.options(batch=False, prompt=slow_person)) as transport:
        assert transport.connection.transport.is_authenticated()


def test_a_changed_host_key_let_through_by_strict_no_disables_the_interactive_login(
    client: ClientSetup, bastion: SshServer, capfd: pytest.CaptureFixture[str]
) -> None:
    """ssh(1) turns keyboard-interactive off after accepting a changed key (a
    man-in-the-middle would collect the code)."""
    reinstall(bastion, client)
    client.alias("bastion", bastion, StrictHostKeyChecking="no")
    with pytest.raises(AuthenticationError, match="disabled because the host key changed"):
        SSHTransport.connect("bastion", client.options(batch=False, prompt=lambda question: "code-123456"))



def test_ctrl_c_on_a_one_session_host_whose_sshd_stopped_answering_ends_at_once(
    client: ClientSetup, sshd_factory: StartServer, frozen: list[int]
) -> None:
    """MaxSessions 1: the step holds the only session, so its kill goes over a second
    connection. With sshd's listener not answering (host thrashing, MaxStartups), Ctrl-C
    waited that connection's whole ConnectTimeout (here 20 s)."""
    server = sshd_factory("h7onesession", extra_config="MaxSessions 1\n")
    client.trust(server)
    # ConnectTimeout 60: far past the bound below (the good path takes a moment).
    client.alias("one-session", server, ConnectTimeout=60)
    with SSHTransport.connect("one-session", client.options()) as transport:
        ended: dict[str, object] = {}

        def step() -> None:
            ended["step"] = transport.run("sleep 120", stdout=StreamCapture("o"), stderr=StreamCapture("e"))

        worker = threading.Thread(target=step, daemon=True)
        worker.start()
        deadline = time.monotonic() + 60
        while not any("sleep" in _command_line(pid) for pid in server.connection_pids()):
            assert time.monotonic() < deadline, "the step did not start"
            time.sleep(0.05)
        assert server.process is not None
        os.kill(server.process.pid, signal.SIGSTOP)  # the listener only: the step's session lives on
        frozen.append(server.process.pid)
        interrupted = time.monotonic()
        abandon_connects()  # what the runner does on Ctrl-C, before interrupting each host
        transport.interrupt()
        worker.join(90)
        took = time.monotonic() - interrupted
    assert took < 20, f"Ctrl-C waited {took:.1f} s for the second connection"
    assert isinstance(ended["step"], CommandOutcome) and ended["step"].exit_code is None, ended


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
    except OSError:  # ended meanwhile
        return ""


def test_identities_only_picks_the_agent_key_of_an_encrypted_identity_file_without_pub(
    client: ClientSetup, sshd: SshServer, agent_at: Callable[[Path, list[str]], Path], tmp_path: Path
) -> None:
    """ssh-agent holds 10 other keys and the host's key, whose file is encrypted and has no
    `.pub` beside it. ssh(1) reads the public key from the private file and offers only that
    agent key; we skipped every agent key and then failed on the passphrase under --batch."""
    keys = tmp_path / "agent-keys"
    keys.mkdir()
    decoys = [str(keygen(keys / f"decoy{index}")) for index in range(10)]
    subprocess.run(["cp", str(client.key.path), str(keys / "id_gpu")], check=True)
    socket_path = agent_at(tmp_path / "agent.sock", [*decoys, str(keys / "id_gpu")])
    # Encrypted after it went into the agent, and no .pub: as a key copied without its .pub.
    subprocess.run(["ssh-keygen", "-q", "-p", "-N", "secret", "-f", str(keys / "id_gpu")], check=True, capture_output=True)
    client.alias("agent-held", sshd, IdentityFile=str(keys / "id_gpu"), IdentityAgent=str(socket_path))
    assert ssh_agrees(client, "agent-held") == 0
    with SSHTransport.connect("agent-held", client.options(use_agent=True)) as transport:
        assert transport.connection.transport.is_authenticated()


def test_proxycommand_none_wins_over_a_later_proxyjump_as_in_ssh(client: ClientSetup, sshd: SshServer) -> None:
    """ssh_config(5): of ProxyCommand and ProxyJump the first one met wins. The common
    `Host bastion: ProxyCommand none` + `Host *: ProxyJump bastion` was refused as a jump loop."""
    client.alias("h7bastion", sshd, ProxyCommand="none")
    client.alias("h7via", sshd)
    client.hosts["*"] = {"ProxyJump": "h7bastion", "ProxyCommand": "false"}
    write_ssh_config(client.config, client.hosts)
    for alias in ("h7bastion", "h7via"):
        assert ssh_agrees(client, alias) == 0, alias
        with SSHTransport.connect(alias, client.options()) as transport:
            hops = [hop.target.alias for hop in transport.connection.via]
            assert hops == (["h7bastion"] if alias == "h7via" else []), (alias, hops)


def test_proxycommand_and_proxyjump_resolve_as_ssh_G_says(tmp_path: Path) -> None:
    """The first of the two wins, except that a first `ProxyJump none` lets a later
    ProxyCommand apply (checked against `ssh -G` where ssh(1) is installed)."""
    config = tmp_path / "config"
    config.write_text(
        "Host a\n  ProxyCommand none\nHost b\n  ProxyJump none\nHost c\n  ProxyCommand nc %h %p\n"
        "Host d\n  ProxyJump x\nHost *\n  ProxyJump j\n  ProxyCommand echo hi\n"
    )
    expected = {"a": ([], None), "b": ([], "echo hi"), "c": ([], "nc c 22"), "d": (["x"], None), "e": (["j"], None)}
    loaded = load_ssh_config(config)
    for alias, (hops, command) in expected.items():
        target = resolve_target(alias, loaded)
        assert ([hop.destination.host for hop in target.proxy_jump], target.proxy_command) == (hops, command), alias
        if shutil.which("ssh"):
            shown = subprocess.run(["ssh", "-G", "-F", str(config), alias], capture_output=True, text=True, check=True).stdout
            said = dict(line.split(" ", 1) for line in shown.splitlines() if line.startswith(("proxycommand ", "proxyjump ")))
            assert said.get("proxyjump") == (hops[0] if hops else None), alias
            assert (said.get("proxycommand") is None) == (command is None), alias


def test_a_user_certificate_logs_in_where_the_bare_key_is_not_authorized(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """Fleets that trust a user CA (sshd TrustedUserCAKeys) authorize no key: ssh(1) offers
    IDENTITY-cert.pub and CertificateFile certificates; we offered the bare key only."""
    ca = keygen(tmp_path / "user_ca", comment="corp user CA")
    server = sshd_factory("h7usercerts", extra_config=f"TrustedUserCAKeys {ca}.pub\n")
    client.trust(server)
    user = pwd.getpwuid(os.getuid()).pw_name
    keys = tmp_path / "certified"
    keys.mkdir()
    for name in ("id_beside", "id_elsewhere"):
        keygen(keys / name)
        subprocess.run(["ssh-keygen", "-q", "-s", str(ca), "-I", name, "-n", user, str(keys / f"{name}.pub")], check=True)
    (keys / "id_elsewhere-cert.pub").rename(tmp_path / "issued-cert.pub")
    client.alias("beside", server, IdentityFile=str(keys / "id_beside"))
    client.alias("elsewhere", server, IdentityFile=str(keys / "id_elsewhere"), CertificateFile=str(tmp_path / "issued-cert.pub"))
    client.alias("uncertified", server, IdentityFile=str(keys / "id_elsewhere"))
    for alias in ("beside", "elsewhere"):
        assert ssh_agrees(client, alias) == 0, alias
        with SSHTransport.connect(alias, client.options()) as transport:
            assert transport.connection.transport.is_authenticated()
    with pytest.raises(AuthenticationError, match="authentication failed"):
        SSHTransport.connect("uncertified", client.options())


def test_batchmode_in_ssh_config_forbids_the_passphrase_prompt_as_batch_does(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """ssh_config(5) BatchMode yes: ssh(1) never prompts for that host; we asked for the passphrase."""
    key = keygen(tmp_path / "id_locked", passphrase="secret")
    server = sshd_factory("h7batchmode")
    server.authorized_keys_path.write_text(Path(f"{key}.pub").read_text())
    client.trust(server)
    client.alias("scripted", server, IdentityFile=str(key), BatchMode="yes")
    asked: list[str] = []

    def prompt(question: str) -> str:
        asked.append(question)
        return "secret"

    assert ssh_agrees(client, "scripted") != 0
    with pytest.raises(AuthenticationError) as caught:
        SSHTransport.connect("scripted", client.options(batch=False, prompt=prompt))
    assert asked == []
    assert "BatchMode yes in your ssh config forbids the passphrase prompt" in caught.value.message
    assert "BatchMode no" in (caught.value.hint or "")


def test_true_and_false_are_read_as_ssh_reads_them(tmp_path: Path) -> None:
    """`IdentitiesOnly true` is yes for ssh(1) (it read as no: every agent key offered, and
    MaxAuthTries hit), `StrictHostKeyChecking false` is off (it read as yes); a typo is an error."""
    config = tmp_path / "config"
    config.write_text("Host loose\n  IdentitiesOnly true\n  StrictHostKeyChecking false\n  BatchMode TRUE\n")
    loose = resolve_target("loose", load_ssh_config(config))
    assert (loose.identities_only, loose.strict_host_key_checking, loose.batch_mode) == (True, "no", True)
    if shutil.which("ssh"):
        shown = subprocess.run(["ssh", "-G", "-F", str(config), "loose"], capture_output=True, text=True, check=True).stdout
        assert "identitiesonly yes" in shown and "stricthostkeychecking false" in shown and "batchmode yes" in shown
    config.write_text("Host typo\n  StrictHostKeyChecking noo\n")  # ssh(1) refuses the whole file
    with pytest.raises(UsageError, match="StrictHostKeyChecking 'noo'"):
        resolve_target("typo", load_ssh_config(config))


def test_the_configured_key_held_by_an_agent_of_many_keys_is_offered_first(
    client: ClientSetup, sshd: SshServer, agent_at: Callable[[Path, list[str]], Path], tmp_path: Path
) -> None:
    """ssh-agent holds 10 other keys, then the host's key, which IdentityFile names (no
    IdentitiesOnly). ssh(1) offers the configured key first; we offered the agent's keys in
    its order and sshd ended the login at MaxAuthTries (6) before reaching it."""
    keys = tmp_path / "agent-keys"
    keys.mkdir()
    decoys = [str(keygen(keys / f"decoy{index}")) for index in range(10)]
    socket_path = agent_at(tmp_path / "agent.sock", [*decoys, str(client.key.path)])
    client.alias("many-keys", sshd, IdentitiesOnly="no", IdentityAgent=str(socket_path))
    assert ssh_agrees(client, "many-keys") == 0
    with SSHTransport.connect("many-keys", client.options(use_agent=True)) as transport:
        assert transport.connection.transport.is_authenticated()


def test_identity_file_none_offers_agent_keys_only_and_names_no_file(
    client: ClientSetup, sshd: SshServer, agent_at: Callable[[Path, list[str]], Path], tmp_path: Path
) -> None:
    socket_path = agent_at(tmp_path / "agent.sock", [str(client.key.path)])
    client.alias("agent-only", sshd, IdentityFile="none", IdentitiesOnly="no", IdentityAgent=str(socket_path))
    assert ssh_agrees(client, "agent-only") == 0
    with SSHTransport.connect("agent-only", client.options(use_agent=True)):
        pass
    client.alias("agent-only", sshd, IdentityFile="none", IdentitiesOnly="no", IdentityAgent="none")
    with pytest.raises(AuthenticationError) as caught:
        SSHTransport.connect("agent-only", client.options(use_agent=True))
    assert "IdentityFile: none" not in caught.value.message, caught.value.message


def test_host_key_algorithms_with_plus_still_prefer_the_type_known_hosts_has(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """ssh(1) keeps its known_hosts ordering after `+`/`-` (sshconnect2.c, use_known_hosts_order):
    a host known only by its ECDSA key is not made to prove its ed25519 one and look changed."""
    ecdsa = tmp_path / "ecdsa_host_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ecdsa", "-b", "256", "-N", "", "-f", str(ecdsa)], check=True)
    server = sshd_factory("h7plus", extra_config=f"HostKey {ecdsa}\n")
    kind, blob = Path(f"{ecdsa}.pub").read_text().split()[:2]
    client.known_hosts.write_text(f"{server.known_hosts_name} {kind} {blob}\n")
    client.alias("known-by-ecdsa", server, HostKeyAlgorithms="-ssh-rsa")
    assert ssh_agrees(client, "known-by-ecdsa") == 0
    with SSHTransport.connect("known-by-ecdsa", client.options()) as transport:
        assert transport.connection.transport.get_remote_server_key().get_name() == "ecdsa-sha2-nistp256"


def _hold(address: str, port: int) -> socket.socket | None:
    """The port bound without SO_REUSEADDR (sshd's bind sets it, and fails), or None where it
    cannot be bound now: the test then runs as before, the port free meanwhile."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((address, port))
    except OSError:
        sock.close()
        return None
    return sock


def test_connection_attempts_reach_an_sshd_that_comes_back_a_moment_later(
    client: ClientSetup, sshd_factory: StartServer
) -> None:
    """ssh_config(5) ConnectionAttempts: ssh(1) tries again each second; we gave up at the
    first refused connect (sshd restarting, a host finishing its reboot)."""
    server = sshd_factory("h7attempts")
    client.trust(server)
    # ssh(1) tries each second: 30 attempts leave the restarted sshd (1.2 s on) time to listen
    # on a loaded machine (4 attempts gave it 1.8 s).
    client.alias("restarting", server, ConnectionAttempts=30)
    server.stop()  # its sshd_config keeps the port: the same server comes back on it
    # Held until the restart (bound, never listened on: connects are refused as with nothing
    # there, and no sshd can bind it): for those 1.2 s the other xdist worker's next sshd could
    # be given the freed port (free_port), and the attempts then met a stranger's host key.
    held = _hold(server.address, server.port)
    restarted: list[subprocess.Popen[bytes]] = []

    def restart() -> None:
        if held is not None:
            held.close()
        restarted.append(subprocess.Popen([SSHD, "-D", "-e", "-f", str(server.config_path)],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    later = threading.Timer(1.2, restart)
    later.start()
    try:
        with SSHTransport.connect("restarting", client.options()) as transport:
            assert transport.connection.transport.is_authenticated()
    finally:
        later.join()
        for process in restarted:
            process.kill()
            process.wait()
