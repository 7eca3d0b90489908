"""Real sshd faults, round 6: what a real server does that our other fixtures do not.

Each test sets up a real OpenSSH server (tests/sshd_fixture.py) with one fault and checks
what the user sees: a prompt end, one clear line, the right answer.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from spec_debug.errors import AuthenticationError, UsageError
from spec_debug.runner.hosts import resolve_hosts
from spec_debug.runner.output import StreamCapture
from spec_debug.runner.ssh import SSHTransport
from spec_debug.runner.ssh_errors import (
    ConnectionLostError,
    HostUnreachableError,
    RemoteFileError,
    RemoteShellError,
)
from spec_debug.runner.transport import CommandOutcome
from tests.ssh.faults import freeze
from tests.ssh.h6_helpers import (
    TINY,
    PamServer,
    SftpStartsElsewhere,
    StartServer,
    Terminal,
    ctrl_c_when,
    dialing,
    ipv6_sshd,
    load_run,
    run_began_a_while_ago,
    run_with_resolv_conf,
    spec_debug_run,
    sshd_with_accounts,
    wait_until_closed_by_server,
)
from tests.ssh.test_abandon_connects import blackhole  # noqa: F401, F811 - a fixture: a port whose SYNs go unanswered
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer, write_ssh_config


def test_ctrl_c_while_the_bastion_is_still_reaching_the_target_ends_the_run_at_once(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, blackhole: int, tmp_path: Path
) -> None:
    """The bastion is logged in; its sshd is still connecting to a firewalled target (the
    direct-tcpip open is not answered until that TCP connect ends). Ctrl-C must not wait for it."""
    bastion = sshd_factory("h6bastion")
    client.trust(bastion)
    client.alias("bastion", bastion)
    # ConnectTimeout 120: a run that waited for the bastion's connect would outlast the wait
    # for its end (40 s, ctrl_c_when) and the bound below, both far from the good path.
    client.alias("behind", sshd, Port=blackhole, ProxyJump="bastion", ConnectTimeout=120)
    playbook = tmp_path / "tiny.yaml"
    playbook.write_text(TINY)
    out = tmp_path / "runs"
    fillers = dialing(blackhole)  # the blackhole's own backlog fillers
    process = spec_debug_run(client, playbook, out, "behind")
    # Once the bastion's sshd is dialing the target (one more SYN_SENT to the port).
    _, took, _ = ctrl_c_when(process, lambda: dialing(blackhole) > fillers, out)
    assert took < 30, f"Ctrl-C waited {took:.1f} s for the bastion's connect"


def test_a_target_the_bastion_cannot_reach_in_time_is_named_with_the_bastion(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, blackhole: int
) -> None:
    bastion = sshd_factory("h6bastion2")
    client.trust(bastion)
    client.alias("bastion", bastion)
    client.alias("behind", sshd, Port=blackhole, ProxyJump="bastion", ConnectTimeout=1)
    with pytest.raises(HostUnreachableError) as caught:
        SSHTransport.connect("behind", client.options())
    assert caught.value.message == f"behind: jump host bastion did not reach 127.0.0.1:{blackhole} within 1 s"


def test_a_fetch_after_sshd_closed_the_idle_sftp_channel_opens_a_new_one(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """sshd's ChannelTimeout (OpenSSH 9.2+) closes an SFTP channel that stayed idle, e.g.
    while a long benchmark step ran between two fetches; the connection itself stays up."""
    # sshd ends the channel after that long without traffic, also between two requests of the
    # copies below: 1 s was reached there by a loaded machine's pause, and a copy then failed
    # with "the SFTP session ended". The test waits this long once.
    server = sshd_factory("h6chantimeout", extra_config="ChannelTimeout session:subsystem:sftp=5\n")
    client.trust(server)
    client.alias("idle", server)
    source = tmp_path / "log.txt"
    source.write_text("first\n")
    with SSHTransport.connect("idle", client.options()) as transport:
        transport.put(source, str(tmp_path / "remote.txt"))
        deadline = time.monotonic() + 60
        while not transport._files._client.get_channel().closed:  # sshd ended it for idling
            assert time.monotonic() < deadline, "sshd never closed the idle SFTP channel"
            time.sleep(0.2)
        transport.get(str(tmp_path / "remote.txt"), tmp_path / "back.txt")
        assert transport.exists(str(tmp_path / "remote.txt"))
    assert (tmp_path / "back.txt").read_text() == "first\n"


def test_ssh_config_paths_with_environment_variables_and_tokens_work_as_in_ssh(
    client: ClientSetup, sshd: SshServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ssh_config(5): IdentityFile and UserKnownHostsFile take `${VAR}` and `%` tokens."""
    keys = client.home / "keys"
    keys.mkdir()
    shutil.copy(client.key.path, keys / "id_gpu")
    os.chmod(keys / "id_gpu", 0o600)
    per_host = client.home / ".ssh" / "known_hosts.d"
    per_host.mkdir()
    (per_host / "gpu").write_text(sshd.known_hosts_line)
    monkeypatch.setenv("GPU_KEYS", str(keys))
    client.alias("gpu", sshd, IdentityFile="${GPU_KEYS}/id_gpu", UserKnownHostsFile="${HOME}/.ssh/known_hosts.d/%n")
    client.known_hosts.write_text("")  # only the per-host file knows the key
    with SSHTransport.connect("gpu", client.options()) as transport:
        out = StreamCapture("stdout")
        transport.run("echo in", stdout=out, stderr=StreamCapture("stderr"))
    assert out.text() == "in\n"
    client.alias("unset", sshd, IdentityFile="${SPEC_DEBUG_H6_UNSET}/id_gpu")
    with pytest.raises(UsageError) as caught:
        SSHTransport.connect("unset", client.options())
    assert "environment variable SPEC_DEBUG_H6_UNSET is not set" in caught.value.message


def test_user_known_hosts_file_none_reads_no_file_and_writes_none(
    client: ClientSetup, sshd: SshServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`UserKnownHostsFile none` with `StrictHostKeyChecking accept-new`: the key is taken for
    this run and filed nowhere (a file named `none` in the current folder before)."""
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    client.alias("throwaway", sshd, UserKnownHostsFile="none", StrictHostKeyChecking="accept-new")
    client.known_hosts.write_text("")
    for _ in range(2):
        with SSHTransport.connect("throwaway", client.options()):
            pass
    assert list(workdir.iterdir()) == []
    assert client.known_hosts.read_text() == ""


def test_an_inventory_of_ipv6_hosts_runs_on_them(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ansible's IPv6 host forms: `[addr]:port` and a bare `addr` in INI, `"[addr]:port"` in
    YAML; before, `[::1]:2222` was a "bad section header" (INI) or a "bad range" (YAML,
    --hosts), and a bare `::1` became host `:` port 1."""
    server = ipv6_sshd("h6v6", sshd_factory, monkeypatch)
    client.trust(server)
    client.hosts["*"] = {"IdentityFile": str(client.key.path), "UserKnownHostsFile": str(client.known_hosts)}
    write_ssh_config(client.config, client.hosts)
    playbook = tmp_path / "where.yaml"
    playbook.write_text(
        "name: where\ndescription: t\nsteps:\n  - id: where\n    title: where\n    why: w\n"
        "    run: echo \"${SSH_CONNECTION##* }\"\n"
    )
    ini = tmp_path / "hosts.ini"
    ini.write_text(f"[gpus]\n[::1]:{server.port} rack=a\n")
    out = tmp_path / "runs"
    process = spec_debug_run(client, playbook, out, args=("--inventory", str(ini)))
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr.decode()
    record = load_run(out)
    assert [h["name"] for h in record["hosts"]] == ["::1"] and record["hosts"][0]["status"] == "passed"
    [step] = record["steps"]
    assert step["stdout"].strip() == str(server.port), step
    # The other forms name the same host the same way.
    (tmp_path / "bare.ini").write_text(f"::1 ansible_port={server.port}\n")
    (tmp_path / "hosts.yml").write_text(f'all:\n  hosts:\n    "[::1]:{server.port}":\n')
    for inventory in ("bare.ini", "hosts.yml"):
        [spec] = resolve_hosts([], [], tmp_path / inventory, None)
        assert (spec.name, spec.address, spec.port) == ("::1", "::1", server.port), inventory
    [spec] = resolve_hosts([], [f"[::1]:{server.port}"], None, None)
    assert (spec.address, spec.port) == ("::1", server.port)


@pytest.fixture
def variant_factory(tmp_path: Path, client_key: ClientKey) -> Iterator[Callable[[type[SshServer]], StartServer]]:
    """sshd_factory for an SshServer subclass (a changed sshd_config line): servers stopped at the end."""
    started: list[SshServer] = []

    def factory_for(kind: type[SshServer]) -> StartServer:
        def start(name: str, **kwargs: Any) -> SshServer:
            server = kind(tmp_path / f"sshd-{name}", [client_key], **kwargs)
            started.append(server)
            return server.start()

        return start

    yield factory_for
    for server in started:
        server.stop()


def test_an_expired_password_is_named_as_the_cause_not_the_login_shell(
    client: ClientSetup, variant_factory: Callable[[type[SshServer]], StartServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With PAM, an expired password stops every command, key logins included (sshd prints
    "WARNING: Your password has expired."): before, the hint sent the user after a nologin
    shell or a ForceCommand."""
    if not Path("/etc/pam.d/sshd").exists():
        pytest.skip("no PAM configuration for sshd here")
    server = sshd_with_accounts("h6expired", variant_factory(PamServer), tmp_path, monkeypatch, password_expired=True)
    client.trust(server)
    client.alias("expired", server)
    with pytest.raises(RemoteShellError) as caught:
        SSHTransport.connect("expired", client.options())
    assert caught.value.message.startswith("expired: the login shell did not run the command: the account's password has expired")
    assert "chage" in (caught.value.hint or "")


def test_an_account_whose_login_shell_is_sh_runs_steps_and_kills_them_on_timeout(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dash = shutil.which("dash") or "/bin/sh"
    server = sshd_with_accounts("h6dash", sshd_factory, tmp_path, monkeypatch, shell=dash)
    client.trust(server)
    client.alias("dashhost", server)
    marker = f"{time.monotonic_ns() % 100000 + 1000}"
    with SSHTransport.connect("dashhost", client.options()) as transport:
        out = StreamCapture("stdout")
        transport.run('echo "$SHELL"', stdout=out, stderr=StreamCapture("stderr"))
        assert out.text().strip() == dash
        hung = transport.run(f"sleep {marker} & sleep {marker}; wait", stdout=StreamCapture("o"), stderr=StreamCapture("e"), timeout_s=1)
        assert hung.timed_out
        left = StreamCapture("stdout")
        transport.run(f"ps -eo args= | grep -c '^sleep {marker}$' || true", stdout=left, stderr=StreamCapture("stderr"))
        assert left.text().strip() == "0"
    # The nologin shell: named as such.
    nologin = shutil.which("nologin") or "/usr/sbin/nologin"
    if os.path.exists(nologin):
        server = sshd_with_accounts("h6nologin", sshd_factory, tmp_path, monkeypatch, shell=nologin)
        client.trust(server)
        client.alias("nologin", server)
        with pytest.raises(RemoteShellError) as caught:
            SSHTransport.connect("nologin", client.options())
        assert caught.value.message.startswith("nologin: the login shell did not run the command: the account's shell is nologin")


def test_a_proxyjump_pattern_that_also_matches_the_bastion_is_a_loop_said_at_once(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer
) -> None:
    """`Host *` + `ProxyJump bastion` gives the bastion a ProxyJump to itself (ssh(1) forks
    `ssh -W` without end). Before, the shared jump connection waited on itself: a silent hang."""
    bastion = sshd_factory("h6loop")
    client.trust(bastion)
    client.config.write_text(
        f"Host bastion\n  HostName 127.0.0.1\n  Port {bastion.port}\n"
        f"Host gpu01\n  HostName 127.0.0.1\n  Port {sshd.port}\n"
        f"Host *\n  ProxyJump bastion\n  IdentityFile {client.key.path}\n  UserKnownHostsFile {client.known_hosts}\n"
    )
    outcome: list[BaseException | None] = []

    def connect() -> None:
        try:
            SSHTransport.connect("gpu01", client.options()).close()
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - the outcome is what the test checks
            outcome.append(exc)

    worker = threading.Thread(target=connect, daemon=True)
    worker.start()
    worker.join(15)
    assert outcome, "connecting through a ProxyJump loop hung"
    [error] = outcome
    assert isinstance(error, UsageError), repr(error)
    assert error.message == "gpu01: ProxyJump loop in ssh config: gpu01 -> bastion -> bastion (bastion is set to be reached through itself)"
    # Excluding the bastion from the pattern, as the hint says, works.
    client.config.write_text(client.config.read_text().replace("Host *\n  ProxyJump bastion\n", "Host * !bastion\n  ProxyJump bastion\nHost *\n"))
    with SSHTransport.connect("gpu01", client.options()) as transport:
        assert transport.connection.via[0].target.alias == "bastion"


@pytest.fixture
def silent_dns(tmp_path: Path) -> Iterator[Path]:
    """A resolv.conf naming a DNS server on loopback that never answers (a UDP socket that
    reads nothing), for processes started in a mount namespace where it replaces /etc/resolv.conf."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root (port 53, a mount namespace)")
    sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for attempt in range(20):
        address = f"127.53.{(os.getpid() + attempt) % 250 + 1}.{attempt + 1}"
        try:
            sink.bind((address, 53))
            break
        except OSError:
            continue
    else:
        pytest.skip("no free loopback address for a DNS sink")
    resolv = tmp_path / "resolv.conf"
    # A lookup waits a minute (glibc's longest timeout, twice): a run that waited it out would
    # outlast ctrl_c_when's 40 s wait; a Ctrl-C that ends the run ends far sooner.
    resolv.write_text(f"nameserver {address}\noptions timeout:30 attempts:2\n")
    yield resolv
    sink.close()


def test_ctrl_c_while_a_host_name_is_still_being_looked_up_ends_the_run_at_once(
    client: ClientSetup, tmp_path: Path, silent_dns: Path
) -> None:
    """A DNS server that does not answer holds getaddrinfo for 10 s or more (resolver timeout x
    attempts), in C, where nothing interrupts it: Ctrl-C waited it out."""
    client.hosts["gpu-behind-dns"] = {"HostName": "gpu01.spec-debug-h6.test", "IdentityFile": str(client.key.path)}
    write_ssh_config(client.config, client.hosts)
    playbook = tmp_path / "tiny.yaml"
    playbook.write_text(TINY)
    out = tmp_path / "runs"
    inner = [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu-behind-dns", "-F", str(client.config),
             "--batch", "--out", str(out)]
    process = run_with_resolv_conf(silent_dns, inner)
    # A second after the run began, its lookup waits on the silent server.
    _, took, _ = ctrl_c_when(process, run_began_a_while_ago(out), out)
    assert took < 20, f"Ctrl-C waited {took:.1f} s for a DNS lookup"


def test_ctrl_c_while_a_hung_sshd_has_not_opened_the_steps_channel_stops_at_once(
    client: ClientSetup, sshd_factory: StartServer, frozen: list[int], tmp_path: Path
) -> None:
    """sshd froze between two steps (a host thrashing): the next step's channel open is never
    answered, and paramiko waits out the channel timeout (ConnectTimeout, here 30 s)."""
    server = sshd_factory("h6frozen")
    client.trust(server)
    client.alias("frozen", server, ConnectTimeout=30)
    with SSHTransport.connect("frozen", client.options()) as transport:
        transport.run("true", stdout=StreamCapture("o"), stderr=StreamCapture("e"))
        freeze(server, frozen)
        ended: dict[str, object] = {}

        def step() -> None:
            try:
                ended["step"] = transport.run("echo never", stdout=StreamCapture("o"), stderr=StreamCapture("e"))
            except BaseException as exc:  # noqa: BLE001 - the outcome is what the test checks
                ended["step"] = exc

        def fetch() -> None:
            try:
                ended["fetch"] = transport.get("/etc/hostname", tmp_path / "hostname")
            except BaseException as exc:  # noqa: BLE001 - the outcome is what the test checks
                ended["fetch"] = exc

        workers = [threading.Thread(target=step, daemon=True), threading.Thread(target=fetch, daemon=True)]
        for worker in workers:
            worker.start()
        time.sleep(0.5)
        interrupted = time.monotonic()
        transport.interrupt()
        for worker in workers:
            worker.join(40)
        took = time.monotonic() - interrupted
        # Far from both: a moment, and the channel open's 30 s (ConnectTimeout)
        assert took < 15, f"the interrupted step and copy waited {took:.1f} s for their channels"
        assert isinstance(ended["step"], CommandOutcome) and ended["step"].exit_code is None, ended
        assert isinstance(ended["fetch"], RemoteFileError), ended
        assert "the run was interrupted" in ended["fetch"].message


def test_a_domain_account_with_an_at_sign_logs_in_as_ssh_would_split_it(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`alice@corp.example@gpu01`: ssh(1) splits user and host at the last `@` (SSSD/AD logins);
    we refused it as an unparsable host."""
    me = pwd.getpwuid(os.getuid())
    account = f"alice@corp.example:x:{me.pw_uid}:{me.pw_gid}:domain account:{me.pw_dir}:/bin/sh"
    server = sshd_with_accounts("h6domain", sshd_factory, tmp_path, monkeypatch, more_accounts=(account,))
    client.trust(server)
    client.alias("gpu01", server)
    with SSHTransport.connect("alice@corp.example@gpu01", client.options()) as transport:
        out = StreamCapture("stdout")
        transport.run('echo "$USER"', stdout=out, stderr=StreamCapture("stderr"))
    assert out.text() == "alice@corp.example\n"


def test_ctrl_c_at_the_passphrase_prompt_ends_the_run_and_gives_the_terminal_back(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """getpass blocks a host thread in a read of /dev/tty that nothing interrupts: Ctrl-C at the
    prompt left the run waiting for Enter (and a run killed there, the terminal without echo)."""
    locked = ClientKey.create(tmp_path / "locked", passphrase="open sesame")
    server = sshd_factory("h6passphrase")
    server.authorized_keys_path.write_text(locked.public + "\n")
    client.trust(server)
    client.alias("locked", server, IdentityFile=str(locked.path))
    playbook = tmp_path / "tiny.yaml"
    playbook.write_text(TINY)
    argv = [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "locked", "-F", str(client.config)]
    # Typed at the prompt, the passphrase opens the key.
    terminal = Terminal([*argv, "--out", str(tmp_path / "typed")])
    try:
        terminal.wait_for(b"Enter passphrase for key")
        terminal.type(b"open sesame\n")
        assert terminal.process.wait(timeout=30) == 0, terminal.seen.decode(errors="replace")
        assert load_run(tmp_path / "typed")["status"] == "passed"
    finally:
        terminal.close()
    # Ctrl-C at the prompt ends the run at once, recorded as aborted, echo back on.
    terminal = Terminal([*argv, "--out", str(tmp_path / "interrupted")])
    try:
        terminal.wait_for(b"Enter passphrase for key")
        time.sleep(0.3)
        interrupted = time.monotonic()
        terminal.type(b"\x03")
        code = terminal.process.wait(timeout=30)
        took = time.monotonic() - interrupted
        assert code == 3, terminal.seen.decode(errors="replace")
        assert took < 20, f"Ctrl-C at the passphrase prompt waited {took:.1f} s"  # never, with the fault (the wait above gives up at 30 s)
        assert terminal.echo_is_on()
        record = load_run(tmp_path / "interrupted")
        assert record["status"] == "aborted" and record["hosts"][0]["status"] == "aborted", record["hosts"]
    finally:
        terminal.close()


def test_the_passphrase_prompt_runs_inside_the_prompt_guard(client: ClientSetup, sshd_factory: StartServer, tmp_path: Path) -> None:
    """The CLI's spinner redraws its line ~12 times a second, over the prompt; a prompt_guard
    (where the CLI pauses it) is entered around the question, and only then."""
    from contextlib import contextmanager

    locked = ClientKey.create(tmp_path / "guarded", passphrase="open sesame")
    server = sshd_factory("h6guard")
    server.authorized_keys_path.write_text(locked.public + "\n")
    client.trust(server)
    client.alias("guarded", server, IdentityFile=str(locked.path))
    events: list[str] = []

    @contextmanager
    def guard() -> Iterator[None]:
        events.append("paused")
        yield
        events.append("resumed")

    def prompt(question: str) -> str:
        events.append(question.split("'")[0].strip())
        return "open sesame"

    options = client.options(batch=False, prompt=prompt, prompt_guard=guard)
    with SSHTransport.connect("guarded", options):
        pass
    with SSHTransport.connect("guarded", options):  # the opened key is kept: no second question
        pass
    assert events == ["paused", "Enter passphrase for key", "resumed"]


def reconfigure(server: SshServer, extra_config: str) -> None:
    """Give the running sshd another extra_config, on the same port: SIGHUP makes it exec itself
    afresh and read its sshd_config again (sshd(8)); connections it serves keep theirs."""
    server.extra_config = extra_config
    server.config_path.write_text(server._sshd_config())
    log_start = server.log_path.stat().st_size
    assert server.process is not None
    os.kill(server.process.pid, signal.SIGHUP)
    assert server._wait_ready(log_start), server.log_tail()


def test_a_connection_sshd_closed_for_being_idle_is_opened_again_for_the_next_step(
    client: ClientSetup, sshd_factory: StartServer
) -> None:
    """sshd's UnusedConnectionTimeout (OpenSSH 9.2+) closes a connection with no channel open,
    e.g. while `run --step` waits for the user: the host was then failed as "connection lost"."""
    unused = "UnusedConnectionTimeout 1\n"
    server = sshd_factory("h6unused", extra_config=unused)
    client.trust(server)
    client.alias("idle", server)
    with SSHTransport.connect("idle", client.options()) as transport:
        wait_until_closed_by_server(transport)
        # The connection opened again keeps no such timeout: under it that one too was closed
        # when a second passed between its login and the step's channel reaching sshd (a loaded
        # machine's pause), and the step then failed as lost.
        reconfigure(server, "")
        out = StreamCapture("stdout")
        assert transport.run("echo again", stdout=out, stderr=StreamCapture("stderr")).exit_code == 0
        assert out.text() == "again\n"
    # A host that is really gone still fails, saying why it could not be reached again.
    reconfigure(server, unused)
    with SSHTransport.connect("idle", client.options()) as transport:
        wait_until_closed_by_server(transport)
        server.stop()
        with pytest.raises(ConnectionLostError) as caught:
            transport.run("true", stdout=StreamCapture("o"), stderr=StreamCapture("e"))
        assert caught.value.message == (
            f"idle: SSH connection lost before the step could start; reconnecting failed: "
            f"idle: connection refused by 127.0.0.1:{server.port}"
        )


def test_an_inventory_host_ansible_reaches_through_docker_fails_alone_saying_so(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path
) -> None:
    """`ansible_connection=community.docker.docker` (a container in the inventory): we went over
    SSH to its name and reported "cannot resolve host name", sending the user after DNS."""
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ntarget\ntrainer ansible_connection=community.docker.docker\n")
    playbook = tmp_path / "tiny.yaml"
    playbook.write_text(TINY)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--inventory", str(inventory), "-F", str(client.config), "--batch", "--out", str(out))
    assert result.code == 3, result.stderr
    hosts = {h["name"]: h for h in load_run(out)["hosts"]}
    assert hosts["target"]["status"] == "passed"
    assert hosts["trainer"]["status"] == "error"
    assert hosts["trainer"]["error"] == (
        f"trainer: ansible_connection 'community.docker.docker' (in {inventory}) is not supported: "
        "spec-debug reaches hosts over ssh, or local"
    )


def test_time_values_in_ssh_config_are_read_as_ssh_reads_them(client: ClientSetup, sshd: SshServer) -> None:
    """`ServerAliveInterval 1m` and `ConnectTimeout 1m30s` are valid for ssh(1) (TIME FORMATS);
    they stopped the whole run as "not a number"."""
    client.alias("timed", sshd, ServerAliveInterval="1m", ConnectTimeout="1m30s")
    with SSHTransport.connect("timed", client.options()) as transport:
        target = transport.connection.target
        assert (target.keepalive_s, target.connect_timeout_s) == (60.0, 90.0)
    client.alias("untimed", sshd, ConnectTimeout="soon")
    with pytest.raises(UsageError) as caught:
        SSHTransport.connect("untimed", client.options())
    # Named with the file and line since ssh(1)'s own check of every line (test_hardening44_config_syntax).
    assert caught.value.message.startswith(f"ssh config {client.config} line ")
    assert ": ConnectTimeout 'soon' is not a time" in caught.value.message


def test_match_criteria_paramiko_does_not_know_are_evaluated_not_taken_as_met(client: ClientSetup, sshd: SshServer) -> None:
    """paramiko counted `Match localnetwork` / `Match tagged` (OpenSSH 9.4) as always met: the
    "off the office network, go through the bastion" block applied everywhere."""
    elsewhere = "240.0.0.0/8"  # reserved (RFC 1112 class E): on no interface
    client.config.write_text(
        f"Match originalhost gpu01 localnetwork {elsewhere}\n  ProxyJump bastion.unreachable.invalid\n"
        f"Match originalhost gpu01 tagged prod\n  ProxyJump bastion.unreachable.invalid\n"
        f"Match originalhost gpu01 localnetwork 127.0.0.0/8\n  Port {sshd.port}\n"
        f"Host gpu01\n  HostName 127.0.0.1\n  Port 1\n  IdentityFile {client.key.path}\n  UserKnownHostsFile {client.known_hosts}\n"
    )
    with SSHTransport.connect("gpu01", client.options()) as transport:
        assert transport.connection.via == [] and transport.connection.target.port == sshd.port
    # A criterion ssh(1) does not know makes the config unusable, as for ssh(1).
    client.config.write_text("Host typo\n  HostName 127.0.0.1\nMatch hots gpu*\n  User nobody\n")
    with pytest.raises(UsageError) as caught:
        SSHTransport.connect("typo", client.options())
    assert caught.value.message == f"ssh config {client.config} line 3: Match hots: unsupported Match attribute"


@pytest.mark.parametrize("bastion_config", ["DisableForwarding yes\n", "PermitOpen 192.0.2.1:22\n"], ids=["no-forwarding", "permitopen"])
def test_a_bastion_that_forbids_forwarding_says_so_at_once(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, bastion_config: str
) -> None:
    bastion = sshd_factory("h6noforward", extra_config=bastion_config)
    client.trust(bastion)
    # "At once": not after a wait as long as ConnectTimeout, here far from the bound below, which
    # two logins on a loaded machine stay well under (was < 5 s with the 15 s default: the
    # logins alone can take that long there).
    client.alias("bastion", bastion, ConnectTimeout=120)
    client.alias("behind", sshd, ProxyJump="bastion", ConnectTimeout=120)
    started = time.monotonic()
    with pytest.raises(HostUnreachableError) as caught:
        SSHTransport.connect("behind", client.options())
    assert time.monotonic() - started < 60
    assert caught.value.message == (
        f"behind: jump host bastion could not open a connection to 127.0.0.1:{sshd.port}: "
        "it refuses to forward connections there (Administratively prohibited)"
    )
    assert "AllowTcpForwarding no" in (caught.value.hint or "")


def test_tilde_paths_are_the_login_home_even_where_sftp_starts_elsewhere(
    client: ClientSetup, variant_factory: Callable[[type[SshServer]], StartServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Subsystem sftp internal-sftp -d /srv/drop`: SFTP paths were relative to /srv/drop, so
    `~/x` was uploaded there while the steps (and the probe bundle's runner) looked in the home."""
    home, elsewhere = tmp_path / "home-of-h6", tmp_path / "sftp-start"
    home.mkdir()
    elsewhere.mkdir()
    me = pwd.getpwuid(os.getuid())
    account = f"h6home:x:{me.pw_uid}:{me.pw_gid}:h6:{home}:/bin/sh"

    def start(name: str, **kwargs: Any) -> SshServer:
        return variant_factory(SftpStartsElsewhere)(name, sftp_start=str(elsewhere), **kwargs)

    server = sshd_with_accounts("h6sftpstart", start, tmp_path, monkeypatch, more_accounts=(account,))
    client.trust(server)
    client.alias("gpu", server, User="h6home")
    source = tmp_path / "note.txt"
    source.write_text("uploaded\n")
    with SSHTransport.connect("gpu", client.options()) as transport:
        transport.put(source, "~/notes/note.txt")
        out = StreamCapture("stdout")
        transport.run("cat ~/notes/note.txt", stdout=out, stderr=StreamCapture("stderr"))
        assert out.text() == "uploaded\n"
        transport.run("echo made-here > made.txt", stdout=StreamCapture("o"), stderr=StreamCapture("e"))
        transport.get("made.txt", tmp_path / "made.txt")  # relative: the login home, as for the steps
    assert (tmp_path / "made.txt").read_text() == "made-here\n"
    assert list(elsewhere.iterdir()) == []


# A login shell with a language of its own, as fish, csh or nushell: it runs `exec PROGRAM ARGS`
# like any shell, and rejects POSIX syntax (fish says of `$$`: "$$ is not the pid").
NOT_POSIX_SHELL = """#!/usr/bin/env python3
import os, sys
if len(sys.argv) == 3 and sys.argv[1] == "-c" and sys.argv[2].startswith("exec "):
    words = sys.argv[2].split()[1:]
    os.execv(words[0], words)
sys.stderr.write("fish: $$ is not the pid. In fish, please use $fish_pid.\\n")
sys.exit(127)
"""


def test_an_account_whose_login_shell_is_not_posix_runs_steps_through_sh(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fish or csh as the login shell (an engineer's own choice on a GPU box): the wrapper was
    rejected and the host failed as "the login shell did not run the command"."""
    shell = tmp_path / "notposix"
    shell.write_text(NOT_POSIX_SHELL)
    shell.chmod(0o755)
    server = sshd_with_accounts("h6fish", sshd_factory, tmp_path, monkeypatch, shell=str(shell))
    client.trust(server)
    client.alias("fishy", server)
    marker = f"{time.monotonic_ns() % 100000 + 2000}"
    with SSHTransport.connect("fishy", client.options()) as transport:
        out = StreamCapture("stdout")
        transport.run('echo "$SHELL" $((6 * 7))', stdout=out, stderr=StreamCapture("stderr"))
        assert out.text() == f"{shell} 42\n"
        long = StreamCapture("stdout", limit_bytes=1 << 20)
        transport.run("cat <<'EOF'\n" + "x" * 150_000 + "\nEOF\n", stdout=long, stderr=StreamCapture("stderr"))
        assert long.text() == "x" * 150_000 + "\n"  # longer than one exec request may carry
        hung = transport.run(f"sleep {marker} & sleep {marker}; wait", stdout=StreamCapture("o"), stderr=StreamCapture("e"), timeout_s=1)
        assert hung.timed_out
        left = StreamCapture("stdout")
        transport.run(f"ps -eo args= | grep -c '^sleep {marker}$' || true", stdout=left, stderr=StreamCapture("stderr"))
        assert left.text().strip() == "0"  # the timed-out step's tree was killed


def test_an_identity_file_that_does_not_exist_is_named_when_the_login_fails(
    client: ClientSetup, sshd: SshServer, tmp_path: Path
) -> None:
    """A typo in IdentityFile (or an inventory's ansible_ssh_private_key_file): the login failed
    with "no keys found (agent empty, no identity files)", not naming the file that is missing."""
    typo = tmp_path / "keys" / "id_gpu_typo"
    client.alias("gpu01", sshd, IdentityFile=str(typo))
    with pytest.raises(AuthenticationError) as caught:
        SSHTransport.connect("gpu01", client.options())
    assert caught.value.message.endswith(f"(tried: no such IdentityFile: {typo})"), caught.value.message


def test_ctrl_c_while_ssh_config_canonicalizes_a_name_against_a_silent_dns_ends_at_once(
    client: ClientSetup, tmp_path: Path, silent_dns: Path
) -> None:
    """`CanonicalizeHostname yes` looks the name up in each CanonicalDomains before any connect."""
    client.hosts["*"] = {"CanonicalizeHostname": "yes", "CanonicalDomains": "spec-debug-h6.test", "IdentityFile": str(client.key.path)}
    write_ssh_config(client.config, client.hosts)
    playbook = tmp_path / "tiny.yaml"
    playbook.write_text(TINY)
    out = tmp_path / "runs"
    inner = [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu01", "-F", str(client.config),
             "--batch", "--out", str(out)]
    process = run_with_resolv_conf(silent_dns, inner)
    # A second after the run began, its lookup waits on the silent server.
    _, took, _ = ctrl_c_when(process, run_began_a_while_ago(out), out)
    assert took < 20, f"Ctrl-C waited {took:.1f} s for the canonicalizing lookup"
