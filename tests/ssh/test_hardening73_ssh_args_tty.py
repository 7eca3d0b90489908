"""`-t` / `-tt` in an inventory's ssh arguments: the host's record says the steps get no terminal.

Ansible users write `ansible_ssh_args: -tt` (or `-t` in ansible_ssh_extra_args) so that `sudo`
with requiretty works: ssh(1) then runs every command on a terminal (ssh.c, main: a first -t
sets RequestTTY yes, a second force; -T sets no; each over any -o before it). spec-debug ran
the steps without one and dropped the flag with no word, where `-o RequestTTY=force` gets the
host's warning (hardening72): a tool that colours or pages its output on a terminal showed the
user something else by hand than the record held. `-t` now reads as RequestTTY as ssh reads
it, and the record says so; the steps still run without a terminal. Through a real sshd.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.ssh_args import parse_ssh_args
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: tty\ndescription: t\nsteps:\n  - id: tty\n    title: tty\n    why: tty\n    run: 'tty || true'\n"
_SAID = ("gpu-tty: your ssh config or ssh arguments ask for a terminal (RequestTTY {value}), so ssh(1) {does}; "
         "spec-debug runs steps without one "
         "(stdout and stderr apart, no colour codes): a tool that acts otherwise on a terminal prints something "
         "else by hand than in this run")
FORCE = _SAID.format(value="force", does="runs every command on a terminal")
YES = _SAID.format(value="yes", does="run from a terminal runs commands on one")


@pytest.mark.parametrize("args, expected", [
    ("-t", "yes"), ("-tt", "force"), ("-t -t", "force"), ("-At", "yes"), ("-T", "no"), ("-tT", "no"), ("-Tt", "yes"),
    # each -t sets RequestTTY over an -o before it, and an -o after one is not taken (first wins)
    ("-o RequestTTY=no -t", "yes"), ("-o RequestTTY=yes -t", "force"), ("-t -o RequestTTY=no", "yes"),
])
def test_t_flags_are_request_tty_as_ssh_reads_them(args: str, expected: str) -> None:
    assert parse_ssh_args(args)["requesttty"] == expected  # was KeyError: -t was dropped


@pytest.mark.parametrize("var, said", [("ansible_ssh_args='-tt'", FORCE), ("ansible_ssh_extra_args='-t'", YES),
                                       ("ansible_ssh_common_args='-T'", None)], ids=["-tt", "-t", "-T"])
def test_a_t_flag_in_an_inventory_is_said_in_the_hosts_record(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, var: str, said: str | None) -> None:
    client.alias("gpu-tty", sshd)
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu-tty {var}\n")
    (tmp_path / "tty.yaml").write_text(PLAYBOOK)
    out = tmp_path / "out"
    done = cli("run", str(tmp_path / "tty.yaml"), "-i", str(tmp_path / "hosts.ini"), "--batch", "--out", str(out))
    assert done.code == 0, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    [step] = record["steps"]
    assert step["stdout"].strip() == "not a tty", step  # the steps still run without one
    assert record["hosts"][0]["warnings"] == ([said] if said else [])  # was [] for -tt and -t
