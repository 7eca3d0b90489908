"""`-o ServerAliveCountMax=three`, `-o ConnectionAttempts=1.5`, `-o NumberOfPasswordPrompts=-1` in
an inventory's ssh arguments: ssh(1) reads these as whole numbers and stops before it connects
("command-line line 0: integer value invalid." / "too small."; openssh-portable: readconf.c,
parse_int), recorded with OpenSSH_9.2p1 `ssh -G`.

Before: the inventory was read, the run started, and every host of the group failed at connect
time as "host gpu01 error: ssh config: ServerAliveCountMax 'three': integer value invalid",
sending the user to an ssh config that has no such line. Now the inventory is refused before any
host is tried, naming file, line, host, variable and option, as a config file's line already was.
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


@pytest.mark.parametrize("option, refusal", [
    ("ServerAliveCountMax=three", "invalid"),
    ("ConnectionAttempts=1.5", "invalid"),
    ("NumberOfPasswordPrompts=-1", "too small"),
    ("ServerAliveCountMax=2147483648", "too large"),
])
def test_a_number_ssh_refuses_stops_the_inventory_at_its_line(tmp_path: Path, option: str, refusal: str) -> None:
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu01 ansible_host=127.0.0.1 ansible_ssh_extra_args='-o {option}'\n")
    with pytest.raises(UsageError) as refused:
        load_inventory(tmp_path / "hosts.ini").spec("gpu01")  # was read; each host failed at connect time
    key, value = option.split("=")
    assert refused.value.message == (f"{tmp_path / 'hosts.ini'}:2: host gpu01: ansible_ssh_extra_args: -o {option}: "
                                     f"{key} '{value}': integer value {refusal}")
    if shutil.which("ssh"):
        done = subprocess.run(["ssh", "-F", "/dev/null", "-G", "-o", option, "gpu01"], capture_output=True, text=True)
        assert done.returncode != 0 and f"integer value {refusal}" in done.stderr


def test_whole_numbers_still_load(tmp_path: Path) -> None:
    (tmp_path / "hosts.ini").write_text("[gpu]\ngpu01 ansible_host=127.0.0.1 "
                                        "ansible_ssh_extra_args='-o ServerAliveCountMax=3 -o ConnectionAttempts=2'\n")
    options = load_inventory(tmp_path / "hosts.ini").spec("gpu01").ssh_options
    assert (options["serveralivecountmax"], options["connectionattempts"]) == ("3", "2")


def test_the_run_stops_before_any_host(cli: Callable[..., Any], tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text(PLAYBOOK)
    (tmp_path / "hosts.ini").write_text("[gpu]\ngpu01 ansible_host=127.0.0.1 ansible_port=9\n"
                                        "[gpu:vars]\nansible_ssh_common_args='-o ServerAliveCountMax=three'\n")
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "t.yaml"), "-i", str(tmp_path / "hosts.ini"), "--batch", "--out", str(out))
    assert done.code == 2, done.stdout + done.stderr  # was 3: "ssh config: ServerAliveCountMax 'three': ..."
    assert "ansible_ssh_common_args: -o ServerAliveCountMax=three: ServerAliveCountMax 'three': integer value invalid" in done.stderr
    assert "ssh config:" not in done.stdout + done.stderr
