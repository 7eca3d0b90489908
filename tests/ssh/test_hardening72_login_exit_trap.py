"""An EXIT trap that the login's ~/.bashrc sets prints into the step's output no more.

A ~/.bashrc without an interactive guard (RHEL's has none) that sets `trap 'echo bye' EXIT`
ran that trap when the login bash that evals the step exited: every step's stdout ended in
"bye" (`stdout == ...`, a `$`-anchored `matches:`, `stdout.splitlines()[-1]` all read it), and
what the trap wrote to stderr came in the step's stderr. What the rc files print before the
step is dropped as the login's (ssh.py, _PID_MARKER, _STDERR_MARKER); so is what their trap
prints at its end, now. The trap itself still runs (its side effects stay: an agent it kills,
a file it writes), and a trap the step sets for itself replaces the login's and prints as
before (bash(1), SHELL BUILTIN COMMANDS, trap: one EXIT trap per shell, run on exit).

The host is real: Debian's bash and sshd, in a private mount namespace where /root, this user's
home there, holds the ~/.bashrc.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.ssh.test_hardening19_runtime_full_tmp import namespaced_sshd
from tests.ssh.test_hardening19_runtime_login_dir import DebianLoginServer
from tests.sshd_fixture import ClientKey, ClientSetup, SshServer

PLAYBOOK = """
name: exit_trap
steps:
  - id: driver
    run: |
      echo 'NVRM version: 550.54.15'
    expect:
      - that: "stdout == 'NVRM version: 550.54.15\\n'"
  - id: versions
    run: |
      printf '{"sglang": "0.5.3"}\\n'
    capture:
      - json: sglang
        name: sglang_version
  - id: exits
    run: |
      echo out; echo err >&2; exit 3
    expect:
      - exit_code: 3
  - id: own_trap
    run: |
      trap 'echo cleaned up' EXIT
      echo work
"""

BASHRC = "set -eu\ntrap 'echo bye; echo bye-err >&2; echo ran >> ~/trap_ran' EXIT\n"
# Traps of other shapes, each a host of the same run: one that passes the step's exit code on
# (`rc=$?` must still read it), an empty one and one that is a comment alone (as bodies of a
# `{ }` group they would be syntax errors).
OTHER_BASHRCS = {
    "keeps_status": "trap 'rc=$?; echo bye; exit $rc' EXIT\n",
    "empty": "trap '' EXIT\n",
    "comment": "trap '# nothing to do' EXIT\n",
}


@pytest.fixture(scope="module")
def runs_under_traps(
    tmp_path_factory: pytest.TempPathFactory, client_key: ClientKey
) -> tuple[dict[str, Any], dict[str, dict[str, dict[str, Any]]], Path]:
    """(the run record, each host's steps by id, the remote home of the host whose ~/.bashrc is
    BASHRC) of PLAYBOOK on a host per ~/.bashrc: BASHRC's is gpu72, the others by their key."""
    if os.getuid() != 0 or not Path("/root").is_dir():
        pytest.skip("the test gives root's home a private copy")
    tmp_path = tmp_path_factory.mktemp("exit-trap")
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    client = ClientSetup(home=home, key=client_key, config=home / ".ssh" / "config", known_hosts=home / ".ssh" / "known_hosts")
    client.known_hosts.touch()
    started: list[SshServer] = []

    def start(name: str) -> SshServer:
        server = DebianLoginServer(tmp_path / f"sshd-{name}", [client_key])
        started.append(server)
        return server.start()

    bashrcs = {"gpu72": BASHRC, **OTHER_BASHRCS}
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("HOME", str(home))
        monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
        monkeypatch.delenv("SSHPASS", raising=False)
        try:
            for name, bashrc in bashrcs.items():
                remote_home = tmp_path / f"remote-home-{name}"
                remote_home.mkdir()
                (remote_home / ".bashrc").write_text(bashrc)
                server = namespaced_sshd(name, start, tmp_path, monkeypatch, f"mount --bind {remote_home} /root")
                client.trust(server)
                client.alias(name, server)
            playbook = tmp_path / "exit_trap.yaml"
            playbook.write_text(PLAYBOOK)
            out = tmp_path / "runs"
            hosts = [arg for name in bashrcs for arg in ("--host", name)]
            result = run_cli("run", str(playbook), *hosts, "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
        finally:
            for server in started:
                server.stop()
    assert_clean_cli(result)
    assert out.is_dir(), (result.code, result.stdout[-2000:], result.stderr[-2000:])
    assert result.code == 0, result.stderr
    _, record = load_run(out)
    return record, {name: by_id(record, name) for name in bashrcs}, tmp_path / "remote-home-gpu72"


@pytest.fixture
def run_under_trap(runs_under_traps):
    record, steps, remote_home = runs_under_traps
    return {**record, "steps": [s for s in record["steps"] if s["host"] == "gpu72"]}, steps["gpu72"], remote_home


def test_the_logins_exit_trap_prints_nothing_into_a_step(run_under_trap: tuple[dict[str, Any], dict[str, dict[str, Any]], Path]) -> None:
    record, steps, _ = run_under_trap
    assert [(s["id"], s["status"]) for s in record["steps"]] == [
        ("driver", "passed"), ("versions", "passed"), ("exits", "passed"), ("own_trap", "passed")]
    assert (steps["driver"]["stdout"], steps["driver"]["stderr"]) == ("NVRM version: 550.54.15\n", "")
    assert steps["versions"]["stdout"] == '{"sglang": "0.5.3"}\n'
    assert record["facts"]["gpu72"]["sglang_version"] == "0.5.3"
    # A step that ends with `exit`: the trap runs then too
    assert (steps["exits"]["stdout"], steps["exits"]["stderr"], steps["exits"]["exit_code"]) == ("out\n", "err\n", 3)


def test_the_steps_own_exit_trap_still_prints(run_under_trap: tuple[dict[str, Any], dict[str, dict[str, Any]], Path]) -> None:
    _, steps, _ = run_under_trap
    assert (steps["own_trap"]["stdout"], steps["own_trap"]["stderr"]) == ("work\ncleaned up\n", "")


def test_the_logins_exit_trap_still_runs(run_under_trap: tuple[dict[str, Any], dict[str, dict[str, Any]], Path]) -> None:
    _, _, remote_home = run_under_trap
    ran = (remote_home / "trap_ran").read_text().splitlines()
    # at least the three steps that keep the login's trap (own_trap replaces it)
    assert len(ran) >= 3 and set(ran) == {"ran"}, ran


@pytest.mark.parametrize("name", list(OTHER_BASHRCS))
def test_traps_of_other_shapes_keep_the_steps_output_and_exit_code(name: str, runs_under_traps) -> None:
    _, steps, _ = runs_under_traps
    mine = steps[name]
    assert {step_id: step["status"] for step_id, step in mine.items()} == {
        "driver": "passed", "versions": "passed", "exits": "passed", "own_trap": "passed"}, name
    assert (mine["driver"]["stdout"], mine["driver"]["stderr"]) == ("NVRM version: 550.54.15\n", "")
    assert (mine["exits"]["stdout"], mine["exits"]["stderr"], mine["exits"]["exit_code"]) == ("out\n", "err\n", 3)
    assert (mine["own_trap"]["stdout"], mine["own_trap"]["stderr"]) == ("work\ncleaned up\n", "")
