"""The host of an `ssh://` destination as ssh(1) reads it (openssh-portable: misc.c, parse_uri
and valid_domain; recorded with OpenSSH_9.2p1 `ssh -G`): the user ends at the first `@`, the
host must be a domain name (a letter or digit first, then letters, digits, `.`, `-`, `_`, no
`..`), so an IPv6 address is refused, and one trailing `.` is dropped.

Before: `ssh://a@b@gpu01` logged in as `a@b` and `ssh://[::1]:22` connected here, where `ssh`
refuses both, so a host list that worked here failed when pasted into ssh; `ssh://-gpu` or
`ssh://gpu..x` (typos) went on to a DNS failure; and `ssh://ops@target.` kept its dot, missed
the config's `Host target` that ssh(1) applies, and failed to resolve. Now the first three are
refused naming what to write (`%40` in the user; `USER@[IPV6]:PORT` without ssh://), a bare
`::1` / `[::1]:22` still works, and the dotted name reaches the host the config names.
"""

from __future__ import annotations

import getpass
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_target import Destination, parse_destination, parse_proxy_jump
from tests.conftest import run_cli
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: tiny\ndescription: t\nsteps:\n  - id: who\n    title: who\n    why: who\n    run: echo reached\n"


def _ssh_g(destination: str) -> dict[str, str] | None:
    """`ssh -G`'s user/hostname/port, {} where ssh refuses the destination, None without ssh."""
    if not shutil.which("ssh"):
        return None
    done = subprocess.run(["ssh", "-G", "-F", "/dev/null", destination], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        return {}
    return {k: v for k, _, v in (line.partition(" ") for line in done.stdout.splitlines()) if k in ("user", "hostname", "port")}


@pytest.mark.parametrize("text, said, hint", [
    ("ssh://a@b@gpu01", "cannot parse host 'ssh://a@b@gpu01': ssh(1) reads the URI's user up to its first '@' ('a') "
     "and refuses the host 'b@gpu01'", "in an ssh:// URI write an @ in the user as %40 (ssh://jdoe%40corp@gpu01); "
     "or write USER@HOST without ssh://"),
    ("ssh://[::1]:22", "cannot parse host 'ssh://[::1]:22': ssh(1) takes no IPv6 address in an ssh:// URI",
     "write USER@[IPV6]:PORT (or USER@IPV6), without ssh://"),
    ("ssh://ops@[2001:db8::5]", "cannot parse host 'ssh://ops@[2001:db8::5]': ssh(1) takes no IPv6 address in an "
     "ssh:// URI", "write USER@[IPV6]:PORT (or USER@IPV6), without ssh://"),
    ("ssh://::1", "cannot parse host 'ssh://::1': ssh(1) takes no IPv6 address in an ssh:// URI",
     "write USER@[IPV6]:PORT (or USER@IPV6), without ssh://"),
    ("ssh://-gpu01", "cannot parse host 'ssh://-gpu01': the host '-gpu01' starts with an invalid character "
     "(ssh(1) refuses the URI too)", "write ssh://USER@HOST:PORT with a host name of letters, digits, '.', '-' and '_'"),
    ("ssh://gpu01..lab", "cannot parse host 'ssh://gpu01..lab': the host 'gpu01..lab' has two dots in a row "
     "(ssh(1) refuses the URI too)", "write ssh://USER@HOST:PORT with a host name of letters, digits, '.', '-' and '_'"),
    ("ssh://gpu01%2elab", "cannot parse host 'ssh://gpu01%2elab': the host 'gpu01%2elab' has characters a host name "
     "cannot have (ssh(1) refuses the URI too)",
     "write ssh://USER@HOST:PORT with a host name of letters, digits, '.', '-' and '_'"),
])
def test_what_ssh_refuses_is_refused_with_what_to_write(text: str, said: str, hint: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_destination(text)
    assert (refused.value.message, refused.value.hint) == (said, hint)
    assert _ssh_g(text) in (None, {})


@pytest.mark.parametrize("text, destination", [
    ("ssh://gpu01.lab.", Destination("gpu01.lab", user=None, port=None)),
    ("ssh://ops@gpu_01:2222", Destination("gpu_01", user="ops", port=2222)),
    ("ssh://[127.0.0.1]:2222", Destination("127.0.0.1", user=None, port=2222)),
    ("ssh://jdoe%40corp@gpu01", Destination("gpu01", user="jdoe@corp", port=None)),
])
def test_what_ssh_takes_is_read_as_ssh_reads_it(text: str, destination: Destination) -> None:
    assert parse_destination(text) == destination
    seen = _ssh_g(text)
    if seen is not None:
        assert seen["hostname"] == destination.host and seen["port"] == str(destination.port or 22)


@pytest.mark.parametrize("text, destination", [
    ("::1", Destination("::1", user=None, port=None)),
    ("ops@[::1]:2222", Destination("::1", user="ops", port=2222)),
    ("jdoe@corp@gpu01", Destination("gpu01", user="jdoe@corp", port=None)),
])
def test_without_ssh_colon_slash_slash_these_still_work(text: str, destination: Destination) -> None:
    assert parse_destination(text) == destination


def test_a_proxy_jump_uri_is_refused_as_ssh_refuses_it() -> None:
    with pytest.raises(UsageError) as refused:
        parse_proxy_jump("ssh://[::1]:2222")
    assert refused.value.message == ("ProxyJump 'ssh://[::1]:2222': cannot parse host 'ssh://[::1]:2222': "
                                     "ssh(1) takes no IPv6 address in an ssh:// URI")


def test_a_trailing_dot_reaches_the_host_the_config_names(client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """`Host target` of the client config (HostName 127.0.0.1, the sshd's port) applies to
    `ssh://USER@target.` as it does in ssh(1)."""
    (tmp_path / "pb.yaml").write_text(PLAYBOOK)
    done = run_cli("run", str(tmp_path / "pb.yaml"), "--host", f"ssh://{getpass.getuser()}@target.", "--batch",
                   "-F", str(client.config), "--out", str(tmp_path / "runs"), env={"HOME": str(client.home)})
    assert done.code == 0, (done.stdout, done.stderr)
    (run_dir,) = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    assert [step["stdout"] for step in record["steps"]] == ["reached\n"]


def test_the_cli_says_it_without_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "pb.yaml").write_text(PLAYBOOK)
    done = run_cli("run", str(tmp_path / "pb.yaml"), "--host", "ssh://a@b@gpu01", "--batch", "-F", "/dev/null",
                   "--out", str(tmp_path / "runs"))
    assert done.code == 2, (done.stdout, done.stderr)
    assert "ssh(1) reads the URI's user up to its first '@' ('a') and refuses the host 'b@gpu01'" in done.stderr
    assert "Traceback" not in done.stderr
