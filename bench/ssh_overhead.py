"""Per-step cost of spec-debug over SSH, against the floor and the usual alternatives.

On one loopback OpenSSH sshd (started here, as in the tests), in one run:
- spec-debug: the runner executing a 100-step playbook of `true` on an ssh_config alias
  (connection setup included; run.json rewritten after every step, as in real runs);
- (a) floor: a minimal paramiko loop over one connection with TCP_NODELAY
  (open_session, exec `true`, exit status, close);
- (b) a fresh `ssh` process per command (what a shell loop over `ssh host cmd` costs);
- (c) ansible-playbook with the same 100 `shell: true` tasks, if ansible-core is installed.

Goals (issue #3): within 1.5x of the floor per step; over 20x faster than Ansible per task.
Rounds are interleaved and the median is reported, so machine noise hits every contender.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from runner_overhead import playbook_of_true  # noqa: E402  (bench/, this script's folder)
from spec_debug.playbook.loader import LoadedPlaybook  # noqa: E402
from spec_debug.runner.engine import HostTarget, Run, RunOptions  # noqa: E402
from spec_debug.runner.output import StreamCapture  # noqa: E402
from spec_debug.runner.ssh import SSHTransport  # noqa: E402
from spec_debug.runner.ssh_connect import ConnectOptions  # noqa: E402
from spec_debug.store import RunStore  # noqa: E402
from tests.sshd_fixture import ClientKey, SshServer, write_ssh_config  # noqa: E402


def time_spec_debug(loaded: LoadedPlaybook, options: ConnectOptions, out: Path) -> float:
    store = RunStore.create(out, "bench")
    target = HostTarget(name="target", connect=lambda: SSHTransport.connect("target", options), transport="ssh")
    run = Run(loaded, [target], store, options=RunOptions())
    started = time.perf_counter()
    record = run.execute()
    elapsed = time.perf_counter() - started
    assert record.status == "passed" and len(record.steps) == len(loaded.playbook.steps), record.hosts
    return elapsed


def time_paramiko_floor(options: ConnectOptions, steps: int) -> float:
    """The least any paramiko client can do per command: one channel, `true`, its status."""
    with SSHTransport.connect("target", options) as transport:
        assert isinstance(transport, SSHTransport)
        connection = transport.connection.transport
        assert connection.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
        started = time.perf_counter()
        for _ in range(steps):
            channel = connection.open_session()
            channel.exec_command("true")
            assert channel.recv_exit_status() == 0
            channel.close()
        return time.perf_counter() - started


def time_transport(options: ConnectOptions, steps: int) -> float:
    """SSHTransport.run alone (wrapper, streaming, exit status), without the runner around it."""
    with SSHTransport.connect("target", options) as transport:
        started = time.perf_counter()
        for _ in range(steps):
            outcome = transport.run("true", stdout=StreamCapture("stdout"), stderr=StreamCapture("stderr"))
            assert outcome.exit_code == 0
        return time.perf_counter() - started


def time_ssh_processes(config: Path, steps: int) -> float:
    started = time.perf_counter()
    for _ in range(steps):
        subprocess.run(["ssh", "-F", str(config), "-o", "BatchMode=yes", "target", "true"], check=True, capture_output=True)
    return time.perf_counter() - started


def time_ansible(server: SshServer, key: Path, steps: int, workdir: Path) -> float | None:
    if shutil.which("ansible-playbook") is None:
        return None
    inventory = workdir / "inventory.ini"
    inventory.write_text(
        f"target ansible_host={server.address} ansible_port={server.port} ansible_user={os.environ.get('USER', 'root')} "
        f"ansible_ssh_private_key_file={key} ansible_python_interpreter={sys.executable}\n"
    )
    tasks = "".join("    - shell: 'true'\n" for _ in range(steps))
    playbook = workdir / "bench.yml"
    playbook.write_text(f"- hosts: target\n  gather_facts: false\n  tasks:\n{tasks}")
    env = {**os.environ, "ANSIBLE_HOST_KEY_CHECKING": "False", "ANSIBLE_PIPELINING": "True"}
    started = time.perf_counter()
    subprocess.run(["ansible-playbook", "-i", str(inventory), str(playbook)], check=True, capture_output=True, env=env)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ssh-rounds", type=int, default=1, help="rounds of the (slow) fresh-ssh-process loop")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["HOME"] = str(work / "home")  # no ~/.ssh or agent of this machine is used
        (work / "home" / ".ssh").mkdir(parents=True)
        os.environ.pop("SSH_AUTH_SOCK", None)
        key = ClientKey.create(work / "client")
        with SshServer(work / "sshd", [key]) as server:
            known_hosts = work / "known_hosts"
            known_hosts.write_text(server.known_hosts_line)
            config = write_ssh_config(
                work / "ssh_config",
                {"target": {"HostName": server.address, "Port": server.port, "IdentityFile": key.path, "IdentitiesOnly": "yes", "UserKnownHostsFile": known_hosts}},
            )
            options = ConnectOptions(ssh_config_path=config, batch=True, use_agent=False)
            loaded = playbook_of_true(args.steps)
            time_spec_debug(loaded, options, work / "runs")  # warm-up
            ours, floor, transport = [], [], []
            for _ in range(args.rounds):
                floor.append(time_paramiko_floor(options, args.steps))
                transport.append(time_transport(options, args.steps))
                ours.append(time_spec_debug(loaded, options, work / "runs"))
            ssh_times = [time_ssh_processes(config, args.steps) for _ in range(args.ssh_rounds)] if shutil.which("ssh") else []
            ansible = time_ansible(server, key.path, args.steps, work)
    per = lambda total: total / args.steps * 1000  # noqa: E731 - ms per step
    ours_ms, floor_ms = per(statistics.median(ours)), per(statistics.median(floor))
    transport_ms = per(statistics.median(transport))
    print(f"{args.steps} steps of `true` on a loopback sshd; median of {args.rounds} interleaved rounds")
    print(f"(a) paramiko floor (1 connection, TCP_NODELAY): {floor_ms:8.3f} ms/step")
    print(f"    spec-debug runner over SSH:                {ours_ms:8.3f} ms/step   ratio to floor {ours_ms / floor_ms:.2f}x "
          f"(goal <= 1.5x: {'MET' if ours_ms <= 1.5 * floor_ms else 'NOT MET'})")
    print(f"    of which SSHTransport.run alone:           {transport_ms:8.3f} ms/step   ratio to floor {transport_ms / floor_ms:.2f}x "
          f"(the rest is the runner: records, run.json saves)")
    if ssh_times:
        ssh_ms = per(statistics.median(ssh_times))
        print(f"(b) fresh `ssh` process per command:           {ssh_ms:8.3f} ms/step   spec-debug is {ssh_ms / ours_ms:.1f}x faster")
    else:
        print("(b) fresh `ssh` process per command:           skipped (no ssh client)")
    if ansible is None:
        print("(c) ansible-playbook:                           skipped (ansible-core not installed: pip install ansible-core)")
    else:
        ansible_ms = per(ansible)
        print(f"(c) ansible-playbook, {args.steps} shell tasks:          {ansible_ms:8.3f} ms/task   spec-debug is {ansible_ms / ours_ms:.1f}x faster "
              f"(goal > 20x: {'MET' if ansible_ms > 20 * ours_ms else 'NOT MET'})")


if __name__ == "__main__":
    main()
