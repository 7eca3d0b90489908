"""`-J user@:22`, `-J bastion:99999`, `-o ProxyJump=a,,b` in an inventory's ssh arguments: ssh(1)
cannot parse the jump and stops before it connects ("Invalid -J argument", "command-line line 0:
Invalid ProxyJump"; openssh-portable: ssh.c, main, case 'J'; readconf.c, oProxyJump), recorded
with OpenSSH_9.2p1 `ssh -G`.

Before: the inventory was read and the run started; each host of the group then failed as
"ProxyJump 'user@:22': cannot parse host 'user@:22'", naming neither the inventory, its line nor
the variable. Now the inventory is refused before any host is tried, with them; jumps ssh(1)
takes (tokens, ssh:// URIs, `none`, several hops) still load.
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


def _ssh_refuses(words: list[str]) -> bool | None:
    if not shutil.which("ssh"):
        return None
    return subprocess.run(["ssh", "-F", "/dev/null", "-G", *words, "gpu01"], capture_output=True).returncode != 0


@pytest.mark.parametrize("words, said", [
    (["-J", "admin@:22"], "-J admin@:22: cannot parse host 'admin@:22'"),
    (["-J", "bastion:99999"], "-J bastion:99999: port 99999 out of range in host 'bastion:99999'"),
    (["-o", "ProxyJump=bastion,,login"],
     "-o ProxyJump=bastion,,login: an empty entry between commas, which ssh(1) refuses (Invalid ProxyJump)"),
])
def test_a_jump_ssh_cannot_parse_stops_the_inventory_at_its_line(tmp_path: Path, words: list[str], said: str) -> None:
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu01 ansible_host=127.0.0.1 ansible_ssh_common_args='{' '.join(words)}'\n")
    with pytest.raises(UsageError) as refused:
        load_inventory(tmp_path / "hosts.ini").spec("gpu01")  # was read; each host failed at connect time
    assert refused.value.message == f"{tmp_path / 'hosts.ini'}:2: host gpu01: ansible_ssh_common_args: {said}"
    assert (refused.value.hint or "").startswith("ssh(1) refuses it too; ")
    assert _ssh_refuses(words) in (True, None)


@pytest.mark.parametrize("words", [["-J", "jump1,admin@jump2:2222"], ["-J", "%r@jump-%h"], ["-J", "ssh://admin@jump:2200"],
                                   ["-o", "ProxyJump=none"], ["-J", "admin@[::1]:2200"]])
def test_jumps_ssh_takes_still_load(tmp_path: Path, words: list[str]) -> None:
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu01 ansible_host=127.0.0.1 ansible_ssh_common_args='{' '.join(words)}'\n")
    assert load_inventory(tmp_path / "hosts.ini").spec("gpu01").ssh_options["proxyjump"] == words[1].removeprefix("ProxyJump=")
    assert _ssh_refuses(words) in (False, None)


def test_the_run_stops_before_any_host(cli: Callable[..., Any], tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text(PLAYBOOK)
    (tmp_path / "hosts.ini").write_text("[gpu]\ngpu01 ansible_host=127.0.0.1 ansible_port=9\n"
                                        "gpu02 ansible_host=127.0.0.1 ansible_port=9\n"
                                        "[gpu:vars]\nansible_ssh_common_args='-J admin@:22'\n")
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "t.yaml"), "-i", str(tmp_path / "hosts.ini"), "--batch", "--out", str(out))
    assert done.code == 2, done.stdout + done.stderr  # was 3: one "ProxyJump 'admin@:22': cannot parse host" per host
    assert "ansible_ssh_common_args: -J admin@:22: cannot parse host 'admin@:22'" in done.stderr
    assert not out.exists() or not any(p.is_dir() for p in out.iterdir())
