"""An inventory's ssh arguments read as the one ssh(1) command line Ansible makes of them.

Ansible puts ansible_ssh_args, ansible_ssh_common_args and ansible_ssh_extra_args on one ssh
command line, in that order, and ssh(1) reads its flags in order: a later `-a` turns off the
agent an earlier `-A` forwarded, `-T -t` asks for a terminal, `-t -t` forces one, and the last
`-4`/`-6` and `-F` win (openssh-portable: ssh.c, main, the getopt loop; recorded with
OpenSSH_9.2p1 `ssh -G -A -a` -> forwardagent no, `ssh -G -T -t` -> requesttty true).

Before: the three variables were parsed apart and merged with the first value winning, so a
host kept from the agent with `ansible_ssh_extra_args: -a` under a group's `ansible_ssh_args:
-A` got the user's agent forwarded anyway, and `-T` then `-t` ran with no word about the
terminal. Now they read as ssh(1) reads them. Through a real sshd and a real ssh-agent.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.inventory import load_inventory
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = ("name: agent\ndescription: t\nsteps:\n  - id: keys\n    title: keys\n    why: keys\n"
            "    run: 'ssh-add -l; echo rc=$?'\n")


def _options(tmp_path: Path, variables: str) -> dict[str, str]:
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ngpu01 ansible_host=127.0.0.1 {variables}\n")
    return dict(load_inventory(tmp_path / "hosts.ini").spec("gpu01").ssh_options)


@pytest.mark.parametrize("variables, keyword, expected, ssh_args", [
    ("ansible_ssh_args='-A' ansible_ssh_extra_args='-a'", "forwardagent", "no", "-A -a"),
    ("ansible_ssh_args='-a' ansible_ssh_common_args='-A'", "forwardagent", "yes", "-a -A"),
    ("ansible_ssh_args='-T' ansible_ssh_extra_args='-t'", "requesttty", "yes", "-T -t"),
    ("ansible_ssh_args='-t' ansible_ssh_extra_args='-T'", "requesttty", "no", "-t -T"),
    ("ansible_ssh_common_args='-t' ansible_ssh_extra_args='-t'", "requesttty", "force", "-t -t"),
    ("ansible_ssh_args='-4' ansible_ssh_extra_args='-6'", "addressfamily", "inet6", "-4 -6"),
    # an -o after a flag does not override it, across the variables as within one
    ("ansible_ssh_args='-t' ansible_ssh_extra_args='-o RequestTTY=no'", "requesttty", "yes", "-t -o RequestTTY=no"),
    ("ansible_ssh_args='-o ForwardAgent=no' ansible_ssh_extra_args='-A'", "forwardagent", "yes", "-o ForwardAgent=no -A"),
])
def test_flags_across_the_variables_read_as_ssh_reads_the_line(
        tmp_path: Path, variables: str, keyword: str, expected: str, ssh_args: str) -> None:
    assert _options(tmp_path, variables)[keyword] == expected  # was the first variable's value
    if shutil.which("ssh"):
        printed = subprocess.run(["ssh", "-F", "/dev/null", "-G", *ssh_args.split(), "gpu01"], capture_output=True,
                                 text=True, check=True).stdout
        ssh_value = next(line.split()[1] for line in printed.splitlines() if line.startswith(keyword + " "))
        assert {"true": "yes", "false": "no", "any": "any"}.get(ssh_value, ssh_value) == expected


def test_the_last_config_file_named_with_dash_f_is_read(tmp_path: Path) -> None:
    options = _options(tmp_path, "ansible_ssh_args='-F a.cfg' ansible_ssh_extra_args='-F b.cfg'")
    assert options["-F"] == "b.cfg"  # was a.cfg; ssh(1) reads the last -F


def test_first_values_still_win_and_lists_still_add_up(tmp_path: Path) -> None:
    options = _options(tmp_path, "ansible_ssh_args='-o SendEnv=A -p 2201 -i one' "
                                 "ansible_ssh_extra_args='-o SendEnv=B -p 2202 -i two -o User=ops'")
    assert options["sendenv"] == "A B"
    assert options["port"] == "2201"
    assert options["identityfile"].split("\0") == ["one", "two"]
    assert options["user"] == "ops"


def test_a_host_kept_from_the_agent_by_its_extra_args_does_not_get_it(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path,
        agent_at: Callable[[Path, list[str]], Path]) -> None:
    socket_path = agent_at(tmp_path / "agent.sock", [str(client.key.path)])
    connect = (f"ansible_host={sshd.address} ansible_port={sshd.port} ansible_ssh_private_key_file={client.key.path} "
               f"ansible_ssh_args='-A -o UserKnownHostsFile={client.known_hosts}'")
    (tmp_path / "hosts.ini").write_text(f"[gpu]\ntrusted {connect}\nshared {connect} ansible_ssh_extra_args='-a'\n")
    (tmp_path / "agent.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    done = cli("run", str(tmp_path / "agent.yaml"), "-i", str(tmp_path / "hosts.ini"), "--batch", "--out", str(out),
               env={"SSH_AUTH_SOCK": str(socket_path)})
    assert done.code == 0, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    said = {step["host"]: step["stdout"] for step in record["steps"]}
    assert "rc=0" in said["trusted"], said
    assert "rc=0" not in said["shared"] and "rc=2" in said["shared"], said  # was rc=0: the agent was forwarded


def test_a_second_jump_host_in_a_later_variable_is_refused_as_ssh_refuses_it(tmp_path: Path) -> None:
    """ssh(1) stops on the line Ansible makes ("Only a single -J option is permitted"); the
    first -J was taken silently, so spec-debug reached the host by another way than Ansible."""
    with pytest.raises(UsageError) as refused:
        _options(tmp_path, "ansible_ssh_common_args='-J ops@bastion' ansible_ssh_extra_args='-J jump2'")
    assert refused.value.message == (f"{tmp_path / 'hosts.ini'}:2: host gpu01: ansible_ssh_extra_args: -J jump2: only a single "
                                     "-J option is permitted after ProxyJump ops@bastion in the ssh arguments before it")
