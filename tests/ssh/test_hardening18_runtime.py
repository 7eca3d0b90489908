"""Runtime faults of a real sshd, round 18: what happens to a run when the host goes away, or
goes silent, in the middle of a step that has already printed something.

Each test runs `spec-debug run` end to end against a real OpenSSH sshd on 127.0.0.1 and reads
the exit code, run.json and the console.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.attempt import _shorten  # a message names a command in 80 characters at most
from tests.ssh.faults import FREEZE_FROM_STEP, stop_when_running
from tests.conftest import run_cli
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def load_run(out: Path) -> dict[str, Any]:
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    return json.loads((run_dir / "run.json").read_text())


def steps_of(record: dict[str, Any], host: str) -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in record["steps"] if s["host"] == host}


def assert_no_traceback(result: Any) -> None:
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr


def test_a_host_that_dies_under_a_step_keeps_what_the_step_printed_before(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """The on-call story: a step tails the server while the host falls over (OOM, GPU Xid,
    reboot). The last lines it printed are the evidence; the record kept none of them (stdout
    '' and 0 s for a step that ran and printed), so the report showed a bare "connection lost"."""
    doomed = sshd_factory("h18dies")
    client.trust(doomed)
    client.alias("gpu01", doomed)
    wait = f"7.{os.getpid() % 100:02d}1"  # a sleep only this test runs, to spot on the host
    playbook = tmp_path / "launch.yaml"
    playbook.write_text(
        "name: launch\ndescription: a server launch that takes the host down\nsteps:\n"
        "  - id: env\n    title: env\n    why: runs before the fault\n    run: echo python=ok\n"
        "  - id: launch\n    title: launch the server\n    why: the host dies under it\n"
        "    run: |\n"
        "      echo 'Loading safetensors checkpoint shards: 100% 4/4'\n"
        "      echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB' >&2\n"
        f"      sleep {wait}; echo ready\n"
        "    timeout: 60\n"
        "  - id: bench\n    title: bench\n    why: never reached\n    run: echo bench\n"
    )
    dropper = stop_when_running(doomed, ["sleep", wait])
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu01", "-F", str(client.config), "--batch", "--out", str(out))
    dropper.join()
    assert_no_traceback(result)
    assert result.code == 3, result.stderr
    record = load_run(out)
    [host] = record["hosts"]
    assert host["status"] == "error" and "connection lost during command" in host["error"]
    steps = steps_of(record, "gpu01")
    assert steps["env"]["status"] == "passed" and "bench" not in steps
    launch = steps["launch"]
    assert launch["status"] == "error" and "connection lost" in launch["message"]
    assert launch["stdout"] == "Loading safetensors checkpoint shards: 100% 4/4\n"
    assert launch["stderr"] == "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    assert launch["duration_s"] > 0 and launch["started_at"] <= launch["finished_at"]
    assert any(f["code"] == "SD005" for f in record["findings"])


def when_running(watched: SshServer, argv: list[str], fault: Callable[[], None]) -> threading.Thread:
    """Call `fault` as soon as one of `watched`'s sessions runs exactly `argv` (a step is under
    way on the host). Returns the started watcher: join it before the test ends."""
    wanted = b"".join(arg.encode() + b"\0" for arg in argv)

    def watch() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for pid in watched.connection_pids():
                try:
                    if Path(f"/proc/{pid}/cmdline").read_bytes() == wanted:
                        fault()
                        return
                except OSError:
                    continue  # the process ended while we looked
            time.sleep(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    return watcher


# The two ways a frozen host is noticed, each a host of one fleet run (module-scoped: one CLI
# process with both hosts in parallel, where each case was a run of its own: 11 s -> 6 s).
FROZEN_CASES = {
    # ServerAliveInterval x CountMax notices the silence first ...
    "keepalives": ({"ServerAliveInterval": 1, "ServerAliveCountMax": 2},
                   "SSH connection lost after the step timed out (2 s), before its processes could be killed: "
                   "the server stopped answering (2 keepalives unanswered)"),
    # ... or the kill's channel, which sshd never opens, waits ConnectTimeout (3 s: it bounds the
    # login before the freeze too, and a loaded machine's ran past 2 s).
    "connect-timeout": ({"ConnectTimeout": 3},
                        "the step timed out (2 s) and its processes could not be killed: "
                        "the server accepted the login but did not open a session within 3 s"),
}


@pytest.fixture(scope="module")
def frozen_fleet(tmp_path_factory: pytest.TempPathFactory, client_key: Any) -> tuple[Any, float, dict[str, Any], dict[str, str]]:
    """One `spec-debug run` of a benchmark on a host per FROZEN_CASES (gpu02-keepalives, ...),
    each host's sshd frozen (SIGSTOP: thrashing, a dead NFS mount) by the step itself once what
    it printed has reached sshd (faults.FREEZE_FROM_STEP): the freeze comes in the step's first
    moments whatever the load, where a watcher thread polling /proc came as late as the load
    made it, and the step's 2 s timeout was the margin for it. Returns the CLI's result, how long
    it took, its record, and the cases whose sshd did not start (the run goes on with the
    others, so that failure is that case's alone)."""
    tmp_path = tmp_path_factory.mktemp("h18frozen")
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    client = ClientSetup(home=home, key=client_key, config=home / ".ssh" / "config", known_hosts=home / ".ssh" / "known_hosts")
    client.known_hosts.touch()
    servers: list[SshServer] = []
    listeners, frozen = tmp_path / "listeners", tmp_path / "frozen"
    freezer = tmp_path / "freeze.py"
    freezer.write_text(FREEZE_FROM_STEP)
    unstarted: dict[str, str] = {}
    with pytest.MonkeyPatch.context() as monkeypatch:
        # What the function-scoped `client` fixture and conftest's autouse fixture do, for the
        # CLI this fixture runs: a private HOME, no agent, no $SSHPASS.
        monkeypatch.setenv("HOME", str(home))
        monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
        monkeypatch.delenv("SSHPASS", raising=False)
        try:
            for case, (ssh_options, _) in FROZEN_CASES.items():
                try:
                    server = SshServer(tmp_path / f"sshd-{case}", [client_key]).start()
                    servers.append(server)
                    client.trust(server)
                    client.alias(f"gpu02-{case}", server, **ssh_options)
                except Exception as exc:  # noqa: BLE001 - reported by that case's test
                    unstarted[case] = f"{type(exc).__name__}: {exc}"
                    continue
            listeners.write_text("".join(f"{server.process.pid}\n" for server in servers if server.process))
            playbook = tmp_path / "bench.yaml"
            playbook.write_text(
                "name: bench\ndescription: a benchmark on a host that freezes\nsteps:\n"
                "  - id: env\n    title: env\n    why: runs before the fault\n    run: echo ok\n"
                "  - id: bench\n    title: bench\n    why: the host freezes under it\n"
                f"    run: echo 'warmup done'; {sys.executable} -I -S {freezer} {listeners} {frozen}; echo never\n"
                "    timeout: 2\n"
                "  - id: after\n    title: after\n    why: never reached\n    run: echo after\n"
            )
            out = tmp_path / "runs"
            hosts = [arg for case in FROZEN_CASES if case not in unstarted for arg in ("--host", f"gpu02-{case}")]
            if not hosts:
                return None, 0.0, {}, unstarted
            run_cli("--help")  # the CLI zygote's start (seconds when this test runs alone) is not the run's time
            started = time.monotonic()
            result = run_cli("run", str(playbook), *hosts, "-F", str(client.config), "--batch", "--out", str(out))
            took = time.monotonic() - started
        finally:
            for pid in (frozen.read_text().split() if frozen.exists() else []):
                try:
                    os.kill(int(pid), signal.SIGCONT)
                except OSError:
                    pass
            for server in servers:
                server.stop()
    return result, took, load_run(out), unstarted


@pytest.mark.parametrize("case", list(FROZEN_CASES), ids=list(FROZEN_CASES))
def test_a_step_that_times_out_on_a_frozen_host_is_not_said_to_be_killed(
    frozen_fleet: tuple[Any, float, dict[str, Any], dict[str, str]], case: str
) -> None:
    """The timeout's kill needs a channel the frozen sshd never opens. The step was recorded as
    "timed out after 2 s; process tree killed" (SD002) although nothing was killed, and the next
    step then waited on the dead host again before the host was given up."""
    result, took, record, unstarted = frozen_fleet
    if case in unstarted:
        pytest.fail(f"gpu02-{case}'s sshd did not start: {unstarted[case]}")
    name, said = f"gpu02-{case}", FROZEN_CASES[case][1]
    assert_no_traceback(result)
    assert result.code == 3, result.stderr
    # A hang, not a pace (about 7 s here, keepalives and ConnectTimeout of 3 s): the messages and
    # the absent "after" step say that the frozen host was given up at the timeout's kill.
    assert took < 60
    [host] = [h for h in record["hosts"] if h["name"] == name]
    assert host["status"] == "error" and host["error"] == f"{name}: {said}"
    steps = steps_of(record, name)
    assert steps["env"]["status"] == "passed" and "after" not in steps
    bench = steps["bench"]
    assert bench["status"] == "timeout" and bench["message"] == f"{name}: {said}"  # it timed out; the host is lost (hardening70)
    assert bench["stdout"] == "warmup done\n" and bench["duration_s"] >= 2
    assert "process tree killed" not in json.dumps(record) and "process tree killed" not in result.stderr
    assert [f["code"] for f in record["findings"] if f["host"] == name] == ["SD005"]


# A ProxyCommand relay to sshd, as a tunnel (cloudflared access ssh, an SSM session, a VPN
# helper) is one. `RATE` bytes a second each way (0: as fast as it goes) makes it a slow link
# (tc/netem needs privileges the tests do not assume); after `LIFE` seconds (0: never) it fails
# as such tunnels do, an error on stderr and a non-zero exit (cloudflared logs its websocket
# library's error text, as here).
_RELAY = '''
import os, socket, sys, threading, time
host, port, rate, life = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
sock = socket.create_connection((host, port))
def pump(read, write):
    while (data := read(1024 if rate else 65536)):
        write(data)
        if rate:
            time.sleep(len(data) / rate)
    os._exit(0)
threading.Thread(target=pump, args=(lambda n: os.read(0, n), sock.sendall), daemon=True).start()
threading.Thread(target=pump, args=(sock.recv, lambda d: os.write(1, d)), daemon=True).start()
time.sleep(life or 1e9)
sys.stderr.write("ERR failed to serve tunnel error=websocket: close 1006 (abnormal closure): unexpected EOF\\n")
sys.stderr.flush()
os._exit(1)
'''


def relay_command(tmp_path: Path, *, rate: int = 0, life: float = 0) -> str:
    """The ProxyCommand line of a _RELAY (tokens %h %p left for ssh config to expand)."""
    script = tmp_path / "relay.py"
    script.write_text(_RELAY)
    return f"{sys.executable} {script} %h %p {rate} {life:g}"


SLEEPY = (
    "name: sleepy\ndescription: a long step\nvars:\n  wait: '0'\nsteps:\n"
    "  - id: env\n    title: env\n    why: runs before the fault\n    run: echo ok\n"
    "  - id: long\n    title: long\n    why: the link goes under it\n    run: echo started; sleep {{ wait }}; echo done\n"
    "  - id: after\n    title: after\n    why: never reached\n    run: echo after\n"
)


def test_a_tunnel_proxycommand_that_fails_mid_step_is_named_not_the_host(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path
) -> None:
    """The host is fine; the tunnel died. "connection lost ... the host rebooted, sshd restarted"
    sent the on-call engineer to check a GPU box that never went down."""
    # The tunnel fails 8 s after it starts, while the step sleeps 60 s: the login, the env step
    # and the long step's first line take about 1 s here, which the 2 s the tunnel had left
    # to a loaded machine (the tunnel then died at the login or the env step).
    proxy = relay_command(tmp_path, life=8)
    client.alias("gpu03", sshd, ProxyCommand=proxy, HostKeyAlias=sshd.known_hosts_name)
    playbook = tmp_path / "sleepy.yaml"
    playbook.write_text(SLEEPY)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu03", "-F", str(client.config), "--batch", "--out", str(out), "--var", "wait=60")
    assert_no_traceback(result)
    assert result.code == 3, result.stderr
    record = load_run(out)
    [host] = record["hosts"]
    expected_proxy = proxy.replace("%h", sshd.address).replace("%p", str(sshd.port))
    assert host["status"] == "error" and host["error"] == (
        f"gpu03: SSH connection lost during command: its ProxyCommand {expected_proxy!r} exited with code 1: "
        "ERR failed to serve tunnel error=websocket: close 1006 (abnormal closure): unexpected EOF"
    )
    steps = steps_of(record, "gpu03")
    assert steps["env"]["status"] == "passed" and steps["long"]["stdout"] == "started\n" and "after" not in steps


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
@pytest.mark.parametrize("goes_down", ["bastion", "target"])
def test_behind_ssh_w_the_bastion_going_down_is_named_and_the_target_going_down_is_not(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, goes_down: str
) -> None:
    """`ProxyCommand ssh -W %h:%p bastion`, the classic jump: when the bastion's connection drops
    its ssh says "Connection to ... closed by remote host." (and exits 255, or 0 as the race of
    its two EOFs goes), and that is the cause; when the target drops, ssh -W passes the EOF on
    silently and exits 0, and the target is the cause."""
    bastion, target = sshd_factory("h18bastion"), sshd_factory("h18target")
    client.trust(bastion)
    client.trust(target)
    client.alias("bastion", bastion, BatchMode="yes")
    client.alias("gpu04", target, ProxyCommand=f"ssh -F {client.config} -W %h:%p bastion", HostKeyAlias=target.known_hosts_name)
    playbook = tmp_path / "sleepy.yaml"
    playbook.write_text(SLEEPY)
    wait = f"6.{os.getpid() % 100:02d}1"
    dropper = when_running(target, ["sleep", wait], (bastion if goes_down == "bastion" else target).stop)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu04", "-F", str(client.config), "--batch", "--out", str(out), "--var", f"wait={wait}")
    dropper.join()
    assert_no_traceback(result)
    assert result.code == 3, result.stderr
    [host] = load_run(out)["hosts"]
    if goes_down == "bastion":
        assert host["error"].startswith("gpu04: SSH connection lost during command: its ProxyCommand 'ssh -F ")
        assert host["error"].endswith(": Connection to 127.0.0.1 closed by remote host.")
        assert "bastion' exited with code " in host["error"]
    else:
        assert host["error"] == "gpu04: SSH connection lost during command"



HUNG_MOUNT = Path(__file__).resolve().parents[1] / "core" / "hung_mount.py"


def _fuse_mounts_here() -> bool:
    """Whether this machine lets a private mount namespace mount FUSE (root, /dev/fuse)."""
    if not os.path.exists("/dev/fuse") or shutil.which("unshare") is None:
        return False
    probe = "import os; os.close(os.open('/dev/fuse', os.O_RDWR))"
    try:
        return subprocess.run(["unshare", "--mount", sys.executable, "-c", probe], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not _fuse_mounts_here(), reason="needs unshare --mount and /dev/fuse")
def test_a_remote_step_stuck_in_the_kernel_is_named_and_not_retried(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`nvidia-smi` on a GPU after an Xid error, `df` on a dead NFS mount: the process waits in
    the kernel (state D) and outlives SIGKILL. Over SSH the step said "process tree killed" and
    was retried, each attempt hanging beside the last, where the local runner names the survivor.
    Here sshd runs in a private mount namespace holding a FUSE mount that never answers
    (tests/core/hung_mount.py), so every session it starts sees the dead mount."""
    import tests.sshd_fixture as fixture

    mount = tmp_path / "nfs"
    mount.mkdir()
    wrapper = tmp_path / "sshd-with-hung-mount"
    wrapper.write_text(
        "#!/bin/sh\n"
        f"exec unshare --mount --propagation private {sys.executable} {HUNG_MOUNT} {mount} --limit 120 -- {fixture.SSHD} \"$@\"\n"
    )
    wrapper.chmod(0o755)
    monkeypatch.setattr(fixture, "SSHD", str(wrapper))
    server = sshd_factory("h18hung")
    client.trust(server)
    client.alias("gpu05", server)
    playbook = tmp_path / "gpu.yaml"
    playbook.write_text(
        "name: gpu\ndescription: a query that hangs in the kernel\nsteps:\n"
        f"  - id: query\n    title: query\n    why: hangs\n    run: echo querying; stat {mount}/x\n    timeout: 1\n    retries: 2\n"
        "  - id: after\n    title: after\n    why: the host still runs steps\n    run: echo after\n"
    )
    out = tmp_path / "runs"
    started = time.monotonic()
    result = cli("run", str(playbook), "--host", "gpu05", "-F", str(client.config), "--batch", "--out", str(out))
    took = time.monotonic() - started
    assert_no_traceback(result)
    assert result.code == 0, result.stderr  # a timeout is a warning (SD002)
    steps = steps_of(load_run(out), "gpu05")
    query = steps["query"]
    assert query["status"] == "timeout" and query["attempts"] == 1, query
    assert query["stdout"] == "querying\n"
    assert f"({_shorten(f'stat {mount}/x')}, state D) still alive after SIGKILL and left running" in query["message"], query["message"]
    assert "process tree killed" not in query["message"]
    assert query["message"].count(", state D)") == 1, query["message"]  # the stuck stat, named once
    assert query["message"].endswith("not retried: another attempt would hang beside it")
    assert steps["after"]["status"] == "passed" and steps["after"]["stdout"] == "after\n"
    assert took < 60  # about 11 s here (the kill's 5 s reap); a wait for the hung mount is 120 s


class _OneStartupAtATime(SshServer):
    """sshd with `MaxStartups 1:100:1`: a second connection still logging in is dropped before
    the banner ("Exceeded MaxStartups"), as a busy login node or a hardened sshd does."""

    def _sshd_config(self) -> str:
        return super()._sshd_config().replace("MaxStartups 100\n", "MaxStartups 1:100:1\n")


def test_a_fleet_of_names_on_one_sshd_that_allows_one_login_at_a_time_all_run(
    cli: Callable[..., Any], client: ClientSetup, client_key: Any, tmp_path: Path
) -> None:
    """24 inventory names for one sshd, 24 forks: the logins that met MaxStartups were retried
    all together, met it again, and 2 to 8 hosts ended "turned us away before the SSH banner"."""
    names = [f"node{i:02d}" for i in range(24)]
    with _OneStartupAtATime(tmp_path / "h18startups", [client_key]) as server:
        client.trust(server)
        for name in names:
            client.alias(name, server)
        playbook = tmp_path / "hello.yaml"
        playbook.write_text("name: hello\ndescription: one step\nsteps:\n  - id: hello\n    title: hello\n    why: reach\n    run: echo hello\n")
        out = tmp_path / "runs"
        hosts = [arg for name in names for arg in ("--host", name)]
        result = cli("run", str(playbook), *hosts, "--forks", "24", "-F", str(client.config), "--batch", "--out", str(out))
    assert_no_traceback(result)
    assert result.code == 0, result.stderr
    record = load_run(out)
    assert {h["name"]: h["status"] for h in record["hosts"]} == dict.fromkeys(names, "passed")
    assert [s["stdout"] for s in record["steps"]] == ["hello\n"] * 24


def test_a_host_lost_while_its_probe_bundle_uploads_is_recorded_on_that_step(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """The connection drops 30 kB into the bundle upload (the sshd process serving it is killed).
    The host's error said "connection lost while copying", but the record had no entry for the
    probe step at all: the report listed the steps before it and nothing about where it died."""
    from tests.ssh.test_fleet_faults import fresh_server

    fresh_server(client, sshd_factory, tmp_path, "h18upload", sftp="drops")
    playbook = tmp_path / "probe.yaml"
    playbook.write_text(
        "name: probe\ndescription: a probe after a shell step\nsteps:\n"
        "  - id: env\n    title: env\n    why: runs before the upload\n    run: echo ok\n"
        "  - id: host_info\n    title: host info\n    why: needs the bundle\n    probe: host_info\n"
        "  - id: after\n    title: after\n    why: never reached\n    run: echo after\n"
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "h18upload", "-F", str(client.config), "--batch", "--out", str(out))
    assert_no_traceback(result)
    assert result.code == 3, result.stderr
    record = load_run(out)
    [host] = record["hosts"]
    steps = steps_of(record, "h18upload")
    assert list(steps) == ["env", "host_info"]
    assert steps["env"]["status"] == "passed"
    probe = steps["host_info"]
    assert probe["status"] == "error" and probe["message"] == host["error"] and "connection lost while copying" in probe["message"]


def test_a_step_that_times_out_over_a_slow_link_is_killed_and_the_host_goes_on(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path
) -> None:
    """A step prints 160 kB and hangs; over a 20 kB/s link its timeout fires with most of that
    output still on the way. The kill's channel is answered only after it, past ConnectTimeout:
    the kill was given up (the step said "process tree killed" and its sleep ran on), and since
    round 18's frozen-host fix the host was even dropped as hung. The link was busy, not dead."""
    # ConnectTimeout bounds the login over the link too: at 2 s a loaded machine's (the relay's
    # start, the key exchange) ran past it. The output queued at the timeout takes 7 s, past 3.
    client.alias("gpu06", sshd, ProxyCommand=relay_command(tmp_path, rate=20000), HostKeyAlias=sshd.known_hosts_name, ConnectTimeout=3)
    marker = f"9.{os.getpid() % 100:02d}1"
    playbook = tmp_path / "flood.yaml"
    playbook.write_text(
        "name: flood\ndescription: a noisy step that hangs, over a slow link\nsteps:\n"
        f"  - id: flood\n    title: flood\n    why: times out\n    run: yes x | head -c 160000; sleep {marker}\n    timeout: 1\n"
        f"  - id: check\n    title: check\n    why: killed for real\n    run: ps -eo args= | grep -c '^sleep {marker}$' || true\n"
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "gpu06", "-F", str(client.config), "--batch", "--out", str(out))
    assert_no_traceback(result)
    assert result.code == 0, result.stderr  # a timeout is a warning (SD002)
    steps = steps_of(load_run(out), "gpu06")
    assert steps["flood"]["status"] == "timeout" and steps["flood"]["message"] == "timed out after 1 s; process tree killed"
    assert steps["check"]["status"] == "passed" and steps["check"]["stdout"] == "0\n"
