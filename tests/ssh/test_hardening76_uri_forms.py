"""`ssh://` destinations as ssh(1) reads them (openssh-portable: misc.c, parse_uri; recorded with
OpenSSH_9.2p1 `ssh -G`): a `:` with no port after it is no port (`ssh -G 'ssh://ops@gpu01:'`
says `port 22`, or the config's Port), one `/` ends the host, and a path (`ssh://gpu01//`,
`ssh://gpu01/srv`) or `ssh://gpu01:/` is refused.

Before: `--host ssh://ops@gpu01:` was "cannot parse host" where `ssh` connects, `ssh://gpu01/srv`
was a host named `gpu01/srv`, and a pasted ssh line with a URI (`--host "ssh
ssh://jdoe%40corp@gpu01"`) was answered "write --host jdoe%40corp@gpu01", a login as
`jdoe%40corp`, and "write --host ops@gpu01:" for `ssh ssh://ops@gpu01:`. Now the empty port is
no port (a real sshd on the config's Port is reached), the path is refused with the host's
text, and the hint names the user decoded (jdoe@corp@gpu01) and the host without its colon.
"""

from __future__ import annotations

import getpass
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import _host_list
from spec_debug.runner.ssh_target import Destination, parse_destination
from tests.conftest import run_cli
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: tiny\ndescription: t\nsteps:\n  - id: who\n    title: who\n    why: who\n    run: echo reached\n"


def _ssh_g(destination: str) -> dict[str, str] | None:
    """`ssh -G`'s user/hostname/port, {} where ssh refuses the destination, None without ssh."""
    if not shutil.which("ssh"):
        return None
    done = subprocess.run(["ssh", "-G", "-F", "/dev/null", destination], capture_output=True, text=True)
    if done.returncode != 0:
        return {}
    return {k: v for k, _, v in (line.partition(" ") for line in done.stdout.splitlines()) if k in ("user", "hostname", "port")}


@pytest.mark.parametrize("text, destination", [
    ("ssh://ops@gpu01:", Destination("gpu01", user="ops", port=None)),
    ("ssh://gpu01:", Destination("gpu01", user=None, port=None)),
    ("ssh://gpu01/", Destination("gpu01", user=None, port=None)),
    ("ssh://ops@gpu01:2222/", Destination("gpu01", user="ops", port=2222)),
])
def test_an_empty_port_is_no_port(text: str, destination: Destination) -> None:
    assert parse_destination(text) == destination
    seen = _ssh_g(text)
    assert seen is None or (seen["hostname"], seen["port"]) == ("gpu01", str(destination.port or 22))


@pytest.mark.parametrize("text, said", [
    ("ssh://gpu01:/", "cannot parse host 'ssh://gpu01:/': no port after ':' (ssh(1) refuses the URI too)"),
    ("ssh://ops@gpu01:/", "cannot parse host 'ssh://ops@gpu01:/': no port after ':' (ssh(1) refuses the URI too)"),
    ("ssh://gpu01//", "cannot parse host 'ssh://gpu01//': a path after the host, which ssh(1) refuses in a destination"),
    ("ssh://gpu01/srv", "cannot parse host 'ssh://gpu01/srv': a path after the host, which ssh(1) refuses in a destination"),
])
def test_what_ssh_refuses_is_refused(text: str, said: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_destination(text)
    assert refused.value.message == said
    assert _ssh_g(text) in (None, {})


@pytest.mark.parametrize("line, meant", [
    ("ssh ssh://jdoe%40corp@gpu01", "jdoe@corp@gpu01"),
    ("ssh -p 2222 ssh://jdoe%40corp@gpu01", "jdoe@corp@gpu01:2222"),
    ("ssh ssh://jdoe%40corp@gpu01 -l bob", "jdoe@corp@gpu01"),  # the URI's user came first
    ("ssh -l bob ssh://jdoe%40corp@gpu01", "bob@gpu01"),
    ("ssh ssh://ops@gpu01:", "ops@gpu01"),
    ("ssh ssh://ops@gpu01:2200/", "ops@gpu01:2200"),
])
def test_a_pasted_line_with_a_uri_is_hinted_as_ssh_reads_it(line: str, meant: str) -> None:
    with pytest.raises(UsageError) as refused:
        _host_list(line)
    assert refused.value.hint is not None
    assert refused.value.hint.startswith(f"write --host {meant} (USER@HOST:PORT, as alice@gpu01:2222)")
    hinted = parse_destination(meant)
    seen = _ssh_g(line.removeprefix("ssh "))  # what ssh(1) makes of the pasted words
    if seen:
        assert (hinted.user, hinted.host, str(hinted.port or 22)) == (seen["user"], seen["hostname"], seen["port"])


def test_a_run_reaches_the_configs_port_through_an_empty_uri_port(client: ClientSetup, sshd: SshServer,
                                                                    tmp_path: Path) -> None:
    (tmp_path / "pb.yaml").write_text(PLAYBOOK)
    done = run_cli("run", str(tmp_path / "pb.yaml"), "--host", f"ssh://{getpass.getuser()}@target:", "--batch",
                   "-F", str(client.config), "--out", str(tmp_path / "runs"), env={"HOME": str(client.home)})
    assert done.code == 0, (done.stdout, done.stderr)
    (run_dir,) = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    assert [step["stdout"] for step in record["steps"]] == ["reached\n"]
