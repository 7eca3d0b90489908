"""`RequestTTY force` (or `yes`) in ~/.ssh/config: ssh(1) runs `ssh HOST CMD` on a terminal
with force, and with yes where its own stdin is a terminal (openssh-portable ssh.c, main:
tty_flag cleared for a stdin that is not a tty unless REQUEST_TTY_FORCE; readconf.c,
multistate_requesttty: true/yes, false/no, force, auto). Recorded here with OpenSSH_9.2p1
against the test's sshd: `ssh -o RequestTTY=force HOST tty` prints /dev/pts/N. spec-debug ran
the steps without one and said nothing, where a tool that colours or pages its output on a
terminal shows the user something else by hand: the host's record now says so."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.h49_helpers import run_tiny
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: tty\ndescription: t\nsteps:\n  - id: tty\n    title: tty\n    why: tty\n    run: 'tty || true'\n"
_SAID = ("{alias}: your ssh config or ssh arguments ask for a terminal (RequestTTY {value}), so ssh(1) {does}; "
         "spec-debug runs steps without one "
         "(stdout and stderr apart, no colour codes): a tool that acts otherwise on a terminal prints something "
         "else by hand than in this run")


def _run(cli: Callable[..., Any], tmp_path: Path, alias: str) -> dict[str, Any]:
    import json

    (tmp_path / "tty.yaml").write_text(PLAYBOOK)
    out = tmp_path / "out"
    done = cli("run", str(tmp_path / "tty.yaml"), "--host", alias, "--batch", "--out", str(out))
    assert done.code == 0, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    return json.loads((run_dir / "run.json").read_text())


@pytest.mark.parametrize("value, said, does", [
    ("force", "force", "runs every command on a terminal"),
    ("yes", "yes", "run from a terminal runs commands on one"),
    ("True", "yes", "run from a terminal runs commands on one"),  # true is yes to ssh(1)
])
def test_a_config_that_asks_for_a_terminal_is_said_in_the_record(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, value: str, said: str, does: str) -> None:
    client.alias("gpu-tty", sshd, RequestTTY=value)
    if value == "force" and shutil.which("ssh"):  # ssh(1) gives its command a terminal
        done = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "gpu-tty", "tty"],
                              capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
        assert done.stdout.startswith("/dev/pts/"), (done.stdout, done.stderr)
    record = _run(cli, tmp_path, "gpu-tty")
    [step] = record["steps"]
    assert step["stdout"].strip() == "not a tty", step  # the steps still run without one
    assert record["hosts"][0]["warnings"] == [_SAID.format(alias="gpu-tty", value=said, does=does)]


@pytest.mark.parametrize("value", ["no", "auto", None])
def test_no_word_where_the_config_asks_for_none(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, value: str | None) -> None:
    client.alias("gpu-tty", sshd, **({"RequestTTY": value} if value else {}))
    record = _run(cli, tmp_path, "gpu-tty")
    assert record["hosts"][0]["warnings"] == []


@pytest.mark.parametrize("args, said", [("-o RequestTTY=force", "force"), ("-o RequestTTY=yes -o RequestTTY=no", "yes")])
def test_request_tty_in_the_ssh_arguments_asks_as_ssh_reads_it(args: str, said: str | None) -> None:
    """`-o RequestTTY=...` among an inventory's ssh arguments: the first value wins, as on ssh's command line."""
    import paramiko

    from spec_debug.runner.ssh_args import parse_ssh_args
    from spec_debug.runner.ssh_config import resolve_target

    assert resolve_target("gpu-tty", paramiko.SSHConfig(), ssh_options=parse_ssh_args(args)).request_tty == said


def test_request_tty_in_an_inventorys_ssh_args_is_said_in_the_record(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    import json

    client.alias("gpu-tty", sshd)
    (tmp_path / "hosts.ini").write_text("[gpu]\ngpu-tty ansible_ssh_extra_args='-o RequestTTY=force'\n")
    (tmp_path / "tty.yaml").write_text(PLAYBOOK)
    out = tmp_path / "out"
    done = cli("run", str(tmp_path / "tty.yaml"), "-i", str(tmp_path / "hosts.ini"), "--batch", "--out", str(out))
    assert done.code == 0, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    assert record["hosts"][0]["warnings"] == [
        _SAID.format(alias="gpu-tty", value="force", does="runs every command on a terminal")]
