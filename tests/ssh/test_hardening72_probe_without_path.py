"""A host whose sshd runs every command with an empty environment (`ForceCommand env -i sh -c
"$SSH_ORIGINAL_COMMAND"`: a locked-down account, or a wrapper that scrubs the environment):
the probe's `python3` is found by the shell's default PATH, and Python then has no PATH to find
itself in, so sys.executable is "" (CPython's getpath: a bare argv[0] is looked up in PATH
only). host_info reported `python_executable: ""` (real sshd); it now names the interpreter
that ran (the kernel's /proc/self/exe)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.test_fleet_faults import load_run
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = """
name: env_i
description: the host probe where commands run with no environment
steps:
  - id: host_info
    title: Python and GPUs
    why: the probe runs with the host's python3
    probe: host_info
"""


def _empty_env_executable() -> str:
    """What this machine's python3 says its sys.executable is under `env -i`."""
    done = subprocess.run(["env", "-i", "sh", "-c", "python3 -c 'import sys; print(repr(sys.executable))'"],
                          capture_output=True, text=True, timeout=30, check=True)
    return done.stdout.strip()


@pytest.mark.skipif(not os.path.exists("/proc/self/exe"), reason="needs /proc (Linux)")
def test_the_probe_names_the_python_that_ran_where_commands_have_no_path(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    if _empty_env_executable() != "''":
        pytest.skip("this python3 finds itself without PATH")
    server = sshd_factory("env-i", extra_config="ForceCommand env -i sh -c \"$SSH_ORIGINAL_COMMAND\"\n")
    client.trust(server)
    client.alias("bare", server)
    playbook = tmp_path / "env_i.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    done = cli("run", str(playbook), "--host", "bare", "-F", str(client.config), "--batch", "--out", str(out))
    assert done.code == 0, done.stdout + done.stderr
    _, record = load_run(out)
    [step] = [s for s in record["steps"] if s["id"] == "host_info"]
    facts = step["facts"]
    # the python3 that `sh` found on its default PATH, resolved by the kernel
    expected = subprocess.run(["env", "-i", "sh", "-c", "python3 -c 'import os; print(os.readlink(\"/proc/self/exe\"))'"],
                              capture_output=True, text=True, timeout=30, check=True).stdout.strip()
    assert expected and facts["python_executable"] == expected, json.dumps(facts)[:2000]


def test_the_probe_python_executable_falls_back_to_proc_self_exe(monkeypatch: pytest.MonkeyPatch) -> None:
    from spec_debug.probes import host_info

    monkeypatch.setattr(sys, "executable", "")
    monkeypatch.setattr(host_info, "_gpus_and_error", lambda: ([], None))
    result = host_info.run({})
    if os.path.exists("/proc/self/exe"):
        assert result["python_executable"] == os.readlink("/proc/self/exe")
    else:
        assert result["python_executable"] is None


@pytest.mark.skipif(not os.path.exists("/proc/self/exe"), reason="needs /proc (Linux)")
def test_a_missing_package_names_the_python_that_ran(monkeypatch: pytest.MonkeyPatch) -> None:
    from spec_debug.probes.hostmain import _message

    monkeypatch.setattr(sys, "executable", "")
    said = _message(ModuleNotFoundError("No module named 'torch'", name="torch"))
    assert f" at {os.readlink('/proc/self/exe')}: run the probe with a Python that has torch" in said, said
