"""`-o BatchMode=maybe`, `-o ConnectTimeout=ten`, `-o StrictHostKeyChecking=maybe` and the like in
an inventory's ssh arguments: ssh(1) refuses the value as it reads its command line, before it
connects ("command-line line 0: unsupported option \"maybe\".", "invalid time value."; openssh-
portable: readconf.c, parse_flag, parse_multistate, parse_time), whichever value wins; recorded
with OpenSSH_9.2p1 `ssh -G`.

Before: the inventory was read, the run started, and each host of the group failed at connect
time with "host gpu01 error: ssh config: BatchMode 'maybe' is not yes or no": no inventory, no
line, no variable, and "ssh config" sent the user to ~/.ssh/config, which has no such line. Now
the inventory is refused before any host is tried, naming file, line, host, variable and option,
as a ~/.ssh/config line with the same value already was.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.inventory import load_inventory

PLAYBOOK = "name: t\ndescription: t\nsteps:\n  - id: a\n    title: a\n    why: a\n    run: echo hi\n"


@pytest.mark.parametrize("option, said", [
    ("-o BatchMode=maybe", "-o BatchMode=maybe: BatchMode 'maybe' is not yes or no"),
    ("-o IdentitiesOnly=sometimes", "-o IdentitiesOnly=sometimes: IdentitiesOnly 'sometimes' is not yes or no"),
    ("-o StrictHostKeyChecking=maybe", "-o StrictHostKeyChecking=maybe: StrictHostKeyChecking 'maybe' is not a value ssh(1) knows"),
    ("-o AddressFamily=ipv4", "-o AddressFamily=ipv4: AddressFamily 'ipv4' is not any, inet or inet6"),
    ("-o ConnectTimeout=ten", "-o ConnectTimeout=ten: ConnectTimeout 'ten' is not a time (write seconds, or e.g. 1m30s)"),
    ("-o ServerAliveInterval=30sec", "-o ServerAliveInterval=30sec: ServerAliveInterval '30sec' is not a time (write seconds, or e.g. 1m30s)"),
    # refused though an earlier value wins: ssh(1) checks each as it reads it
    ("-o ConnectTimeout=10 -o ConnectTimeout=ten", "-o ConnectTimeout=ten: ConnectTimeout 'ten' is not a time (write seconds, or e.g. 1m30s)"),
])
def test_a_value_ssh_refuses_stops_the_inventory_at_its_line(tmp_path: Path, option: str, said: str) -> None:
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu00 ansible_host=127.0.0.1\n"
                                        f"gpu01 ansible_host=127.0.0.1 ansible_ssh_common_args='{option}'\n")
    with pytest.raises(UsageError) as refused:
        load_inventory(tmp_path / "hosts.ini").spec("gpu01")  # was read; the host failed at connect time
    assert refused.value.message == f"{tmp_path / 'hosts.ini'}:3: host gpu01: ansible_ssh_common_args: {said}"
    if shutil.which("ssh"):
        words = [word for pair in option.split(" -o ") for word in ("-o", pair.removeprefix("-o "))]
        assert subprocess.run(["ssh", "-F", "/dev/null", "-G", *words, "gpu01"], capture_output=True).returncode != 0


def test_values_ssh_takes_still_load(tmp_path: Path) -> None:
    (tmp_path / "hosts.ini").write_text(
        "[gpu]\ngpu01 ansible_host=127.0.0.1 ansible_ssh_common_args='-o \"BatchMode yes\" -o ConnectTimeout=1m30s "
        "-o StrictHostKeyChecking=accept-new -o AddressFamily=inet -o IdentitiesOnly=true'\n")
    options = load_inventory(tmp_path / "hosts.ini").spec("gpu01").ssh_options
    assert {key: options[key] for key in ("batchmode", "connecttimeout", "stricthostkeychecking", "addressfamily",
                                          "identitiesonly")} == {
        "batchmode": "yes", "connecttimeout": "1m30s", "stricthostkeychecking": "accept-new", "addressfamily": "inet",
        "identitiesonly": "true"}


def test_the_run_stops_before_any_host_naming_the_inventory(cli: Callable[..., Any], tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text(PLAYBOOK)
    (tmp_path / "hosts.ini").write_text("[gpu]\ngpu01 ansible_host=127.0.0.1 ansible_port=9\n"
                                        "gpu02 ansible_host=127.0.0.1 ansible_port=9\n"
                                        "[gpu:vars]\nansible_ssh_common_args='-o BatchMode=maybe'\n")
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "t.yaml"), "-i", str(tmp_path / "hosts.ini"), "--batch", "--out", str(out))
    assert done.code == 2, done.stdout + done.stderr  # was 3, one "ssh config: BatchMode ..." per host
    assert "ansible_ssh_common_args: -o BatchMode=maybe: BatchMode 'maybe' is not yes or no" in done.stderr
    assert "ssh config:" not in done.stdout + done.stderr
    assert not out.exists() or not any(p.is_dir() for p in out.iterdir())
