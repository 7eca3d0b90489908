"""The same 10-step playbook on 1 host and on 8 hosts (8 loopback sshd instances).

Hosts run in parallel (--forks 16 by default), each over its own SSH connection, so 8 hosts
should take about as long as 1. Goal (issue #3): 8 hosts under 2x the time of 1.

Two playbooks are timed: `diag` (10 short diagnostic commands, each waiting ~100 ms on the
host, like real probes do) and `true` (10 x `true`, pure per-step overhead: on a small
machine this one is bound by the CPUs shared by the client and all 8 servers).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spec_debug.playbook.loader import LoadedPlaybook  # noqa: E402
from spec_debug.playbook.models import Playbook  # noqa: E402
from spec_debug.runner.engine import HostTarget, Run, RunOptions  # noqa: E402
from spec_debug.runner.hosts import HostSpec, open_transport  # noqa: E402
from spec_debug.runner.ssh_connect import ConnectOptions  # noqa: E402
from spec_debug.store import RunStore  # noqa: E402
from tests.sshd_fixture import ClientKey, SshServer, write_ssh_config  # noqa: E402

DIAG_STEPS = [
    "uname -a; sleep 0.1",
    "cat /proc/loadavg; sleep 0.1",
    "head -5 /proc/meminfo; sleep 0.1",
    "df -Pk . | tail -1; sleep 0.1",
    "nproc; sleep 0.1",
    "ls /proc | wc -l; sleep 0.1",
    "env | wc -l; sleep 0.1",
    "id; sleep 0.1",
    "date -u; sleep 0.1",
    "cat /proc/uptime; sleep 0.1",
]


def playbook(commands: list[str]) -> LoadedPlaybook:
    model = Playbook.model_validate({"name": "fleet", "steps": [{"id": f"s{i}", "run": c} for i, c in enumerate(commands)]})
    return LoadedPlaybook(playbook=model, path="<bench>", sha256="0" * 64)


def time_run(loaded: LoadedPlaybook, aliases: list[str], options: ConnectOptions, out: Path) -> float:
    targets = [
        HostTarget(name=alias, connect=lambda alias=alias: open_transport(HostSpec(name=alias, address=alias), options), transport="ssh")
        for alias in aliases
    ]
    run = Run(loaded, targets, RunStore.create(out, "fleet"), options=RunOptions(forks=16))
    started = time.perf_counter()
    record = run.execute()
    elapsed = time.perf_counter() - started
    assert record.status == "passed", [(h.name, h.status, h.error) for h in record.hosts]
    assert len(record.steps) == len(loaded.playbook.steps) * len(aliases)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hosts", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["HOME"] = str(work / "home")
        (work / "home" / ".ssh").mkdir(parents=True)
        os.environ.pop("SSH_AUTH_SOCK", None)
        key = ClientKey.create(work / "client")
        servers = [SshServer(work / f"sshd{i}", [key]).start() for i in range(args.hosts)]
        try:
            known_hosts = work / "known_hosts"
            known_hosts.write_text("".join(s.known_hosts_line for s in servers))
            aliases = [f"gpu{i + 1:02d}" for i in range(args.hosts)]
            config = write_ssh_config(
                work / "ssh_config",
                {
                    alias: {"HostName": s.address, "Port": s.port, "IdentityFile": key.path, "IdentitiesOnly": "yes", "UserKnownHostsFile": known_hosts}
                    for alias, s in zip(aliases, servers)
                },
            )
            options = ConnectOptions(ssh_config_path=config, batch=True, use_agent=False)
            print(f"10-step playbooks on 1 and on {args.hosts} loopback sshd hosts, median of {args.rounds} rounds, forks 16")
            for name, commands in (("diag", DIAG_STEPS), ("true", ["true"] * 10)):
                loaded = playbook(commands)
                time_run(loaded, aliases[:1], options, work / "runs")  # warm-up
                one, many = [], []
                for _ in range(args.rounds):
                    one.append(time_run(loaded, aliases[:1], options, work / "runs"))
                    many.append(time_run(loaded, aliases, options, work / "runs"))
                t1, tn = statistics.median(one), statistics.median(many)
                verdict = "MET" if tn < 2 * t1 else "NOT MET"
                print(f"  {name:5s} 1 host: {t1 * 1000:8.1f} ms   {args.hosts} hosts: {tn * 1000:8.1f} ms   ratio {tn / t1:.2f}x (goal < 2x: {verdict})")
        finally:
            for server in servers:
                server.stop()


if __name__ == "__main__":
    main()
