"""A quiet step cut off by a jump host's ChannelTimeout is said to be, not an OOM-killed session or a rebooted hop.

A bastion hardened with `ChannelTimeout direct-tcpip=15m` (OpenSSH 9.2+, sshd_config(5): "close
the channel after it has been inactive for the specified time") closes the forwarded connection
to a host behind it once a step prints nothing for that long (a benchmark that reports at the end,
a wait for a server). The run said "SSH connection lost during command" and "tgt took a new
connection at once: the step's SSH session ended (sshd's session process was killed, e.g. by the
OOM killer, or the network dropped a moment), not the host": it sent the reader to the host's
memory, while the bastion's sshd.log said "channel 0: closing after 3 seconds of inactivity".
ServerAliveInterval for the host keeps the tunnel busy (its keepalives cross the bastion) and the
same step passes: the test runs both.

Real sshds on 127.0.0.1: the bastion with `ChannelTimeout direct-tcpip=3s`, the host behind it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = ("name: quiet\nsteps:\n  - id: warm\n    run: echo warm\n  - id: bench\n    run: sleep 7.07; echo done\n"
            "  - id: after\n    run: echo after\n")


def _run(client: ClientSetup, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    tmp_path.mkdir(exist_ok=True)
    playbook = tmp_path / "quiet.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    done = subprocess.run(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "gpu70", "-F", str(client.config), "--batch",
         "--out", str(out)], capture_output=True, text=True, timeout=90, env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"},
    )
    return done, load_run(out)[1]


def test_a_quiet_step_cut_by_the_jump_hosts_channel_timeout_names_it(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    bastion = sshd_factory("h70bastion", extra_config="ChannelTimeout direct-tcpip=3s\n")
    host = sshd_factory("h70gpu")
    client.trust(bastion)
    client.trust(host)
    client.alias("bastion70", bastion)
    client.alias("gpu70", host, ProxyJump="bastion70")
    done, record = _run(client, tmp_path)
    said = done.stdout + done.stderr
    assert done.returncode == 3, said
    assert "Traceback" not in said, said
    assert "closing after 3 seconds of inactivity" in bastion.log_tail(40)  # what the bastion did
    steps = by_id(record, "gpu70")
    assert steps["warm"]["status"] == "passed" and "after" not in steps, json.dumps(record["steps"])
    bench = steps["bench"]
    assert bench["status"] == "error", bench
    assert bench["message"].startswith(
        "gpu70: SSH connection lost during command: the connection through jump host bastion70 ended after about "), bench
    assert bench["message"].endswith(" s without traffic, while bastion70 stayed up"), bench
    seconds = float(bench["message"].split("ended after about ")[1].split(" s ")[0])
    assert 2 <= seconds <= 5, bench["message"]  # sshd checks its timeouts about once a second
    hint = record["hosts"][0]["hint"]
    assert hint.startswith(
        "bastion70's sshd may close forwarded connections that carry nothing for a while (sshd_config ChannelTimeout "
        "direct-tcpip=..., OpenSSH 9.2+; `sshd -T | grep -i channeltimeout` on bastion70 shows it): set ServerAliveInterval "
        "for gpu70 in your ssh config below that time (its keepalives cross the jump host), or have the step print "
        "progress; else gpu70's sshd session ended (the OOM killer?) or the network dropped; "), hint
    assert "OOM killer, or the network dropped a moment), not the host" not in hint, hint
    # The command it left was stopped over a new connection, as for any dropped session.
    assert hint.endswith("was still running on gpu70; it was stopped over a new connection"), hint

    # The hint's fix: keepalives through the tunnel, and the same step runs to its end.
    client.alias("gpu70", host, ProxyJump="bastion70", ServerAliveInterval=1)
    done, record = _run(client, tmp_path / "again")
    assert done.returncode == 0, done.stdout + done.stderr
    assert by_id(record, "gpu70")["bench"]["stdout"] == "done\n", record["steps"]


def test_a_quiet_step_behind_a_chain_names_the_jump_host_whose_tunnel_closed_not_the_next_as_rebooted(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    """`ProxyJump login70,node70`: login70's ChannelTimeout closes its tunnel to node70, whose
    connection then ends; the run said "its jump host node70 dropped the connection" and "node70
    rebooted, its sshd restarted or the network to it dropped", while node70 was fine."""
    login = sshd_factory("h70login", extra_config="ChannelTimeout direct-tcpip=3s\n")
    node = sshd_factory("h70node")
    host = sshd_factory("h70gpu")
    for server in (login, node, host):
        client.trust(server)
    client.alias("login70", login)
    client.alias("node70", node)
    client.alias("gpu70", host, ProxyJump="login70,node70")
    done, record = _run(client, tmp_path)
    said = done.stdout + done.stderr
    assert done.returncode == 3, said
    bench = by_id(record, "gpu70")["bench"]
    assert bench["message"].startswith(
        "gpu70: SSH connection lost during command: the connection through jump host login70 to node70 ended after about "), bench
    assert bench["message"].endswith(" s without traffic, while login70 stayed up"), bench
    hint = record["hosts"][0]["hint"]
    assert hint.startswith("login70's sshd may close forwarded connections that carry nothing for a while (sshd_config "
                           "ChannelTimeout direct-tcpip=..., OpenSSH 9.2+; `sshd -T | grep -i channeltimeout` on login70 shows "
                           "it): set ServerAliveInterval for gpu70 in your ssh config below that time"), hint
    assert "; else node70 went down or the network to it dropped; " in hint and "rebooted" not in hint, hint

    client.alias("gpu70", host, ProxyJump="login70,node70", ServerAliveInterval=1)
    done, record = _run(client, tmp_path / "again")
    assert done.returncode == 0, done.stdout + done.stderr
    assert by_id(record, "gpu70")["bench"]["stdout"] == "done\n", record["steps"]


def test_a_quiet_step_through_a_proxy_command_ssh_w_names_the_quiet_tunnel(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    """`ProxyCommand ssh -W %h:%p bastion`: the bastion's ChannelTimeout ends `ssh -W` silently
    (exit 0), and the run blamed the host's sshd session (the OOM killer)."""
    bastion = sshd_factory("h70wbastion", extra_config="ChannelTimeout direct-tcpip=3s\n")
    host = sshd_factory("h70wgpu")
    client.trust(bastion)
    client.trust(host)
    client.alias("bastion70", bastion)
    proxy = f"ssh -F {client.config} -W %h:%p bastion70"
    client.alias("gpu70", host, ProxyCommand=proxy)
    done, record = _run(client, tmp_path)
    said = done.stdout + done.stderr
    assert done.returncode == 3, said
    bench = by_id(record, "gpu70")["bench"]
    assert bench["message"].startswith(
        "gpu70: SSH connection lost during command: the connection through its ProxyCommand ended after about "), bench
    assert bench["message"].endswith(" s without traffic"), bench
    hint = record["hosts"][0]["hint"]
    assert hint.startswith("the tunnel the ProxyCommand makes may close once nothing crosses it for a while (under `ssh -W`, "
                           "the bastion's sshd_config ChannelTimeout direct-tcpip=..., OpenSSH 9.2+; a cloud session's idle "
                           "timeout): set ServerAliveInterval for gpu70 in your ssh config below that time"), hint
    assert "OOM killer, or the network dropped a moment), not the host" not in hint, hint

    client.alias("gpu70", host, ProxyCommand=proxy, ServerAliveInterval=1)
    done, record = _run(client, tmp_path / "again")
    assert done.returncode == 0, done.stdout + done.stderr
    assert by_id(record, "gpu70")["bench"]["stdout"] == "done\n", record["steps"]
