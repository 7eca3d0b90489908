"""`-M` in an inventory's ssh arguments (`ansible_ssh_args: -M -S ~/.ssh/cm-%C`): ssh(1) makes
this connection a master of its own (ControlMaster yes; `-MM` is ask), over any ControlMaster
before it (openssh-portable: ssh.c, main, case 'M'; OpenSSH 9.2 `ssh -G -o ControlMaster=auto -M`
says `controlmaster true`), so it does not ride a master already open for the host: with one
open at the ControlPath, `ssh -M gpu` says "ControlSocket ... already exists, disabling
multiplexing" and logs in anew.

Before: -M was dropped, and a refused login on such a host said that `ssh gpu` logs in through
the master open at its ControlPath (ssh_control_master), a false lead where the inventory's own
ssh arguments keep ssh(1) from riding it. Now -M sets ControlMaster as ssh(1) sets it, and the
hint names only the login's own way in. Real sshd (key then password), real ssh(1) master.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.ssh_args import parse_ssh_args
from tests.ssh.test_hardening73_control_master import PASSWORD_HINT, TINY, _ssh, master_host, socket_dir  # noqa: F401

SSH = shutil.which("ssh")


@pytest.mark.parametrize("args, mode, seen", [
    ("-M", "yes", "true"),
    ("-MM", "ask", "ask"),
    ("-MMM", "yes", "true"),
    ("-o ControlMaster=auto -M", "yes", "true"),
    ("-M -o ControlMaster=auto", "yes", "true"),
    ("-o ControlMaster=yes -M", "ask", "ask"),
])
def test_m_sets_control_master_as_ssh_does(args: str, mode: str, seen: str) -> None:
    assert parse_ssh_args(args)["controlmaster"] == mode
    if SSH is not None:
        done = subprocess.run([SSH, "-G", "-F", "/dev/null", *args.split(), "gpu01"], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, check=True)
        assert f"controlmaster {seen}" in done.stdout.splitlines()


def test_a_refused_login_under_m_does_not_send_the_user_to_the_open_master(
        cli: Callable[..., Any], master_host: Path, socket_dir: Path, tmp_path: Path) -> None:
    # ssh(1) itself: without -M it rides the master; with -M it logs in anew, and the second
    # factor stops it under BatchMode
    assert _ssh(master_host, "-o", "BatchMode=yes", "gpu", "echo via-master").stdout == "via-master\n"
    assert _ssh(master_host, "-M", "-o", "BatchMode=yes", "gpu", "echo x").returncode == 255
    (tmp_path / "hosts.ini").write_text("gpu ansible_ssh_args=-M\n")
    (tmp_path / "tiny.yaml").write_text(TINY)
    out = tmp_path / "out"
    done = cli("run", str(tmp_path / "tiny.yaml"), "-i", str(tmp_path / "hosts.ini"), "-F", str(master_host), "--batch",
               "--out", str(out), env={"ANSIBLE_CONFIG": str(tmp_path / "none.cfg")})
    assert done.code == 3, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    [host] = json.loads((run_dir / "run.json").read_text())["hosts"]
    assert "and then asks for a password" in host["error"]
    assert "master connection" not in host["hint"]
    assert host["hint"].endswith(PASSWORD_HINT)
