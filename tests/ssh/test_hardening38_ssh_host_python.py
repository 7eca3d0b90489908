"""A host whose Python cannot run the probe bundle: too old (CentOS 7's 3.6, a `python` that is
2.7), or none at all on PATH. The step said only what the interpreter's last stderr line said
("SyntaxError: future feature annotations is not defined", "python3: command not found"), which
names neither the cause nor the fix. Now the bundle checks the version before it imports
anything, and both errors say which Python was used and how to name another (--var python=...).

The host is real: sshd with a ForceCommand that gives the session an empty home and a PATH of
its own (tests/ssh/test_fleet_faults.FreshHost). The old interpreter is the real python3 made
to look like 3.6 to the bundle: sys.version says 3.6.9, and importing the bundle's modules
fails as 3.6's compiler fails on them (`from __future__ import annotations` is 3.7's).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import PROBE_PLAYBOOK, assert_clean_cli, by_id, fresh_server, load_run
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]

_OLD_PYTHON = """\
import builtins, runpy, sys
sys.version = "3.6.9 (default, Nov 25 2022, 14:10:45) \\n[GCC 8.4.0]"
sys.version_info = (3, 6, 9, "final", 0)
_import = builtins.__import__
def _old_import(name, *args, **kwargs):
    if name.startswith("spec_debug"):  # every bundled module starts `from __future__ import annotations`
        raise SyntaxError("future feature annotations is not defined")
    return _import(name, *args, **kwargs)
builtins.__import__ = _old_import
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def _run(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, host: str) -> tuple[Any, dict[str, Any]]:
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", host, "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    return result, load_run(out)[1]


def test_a_python_too_old_for_the_bundle_is_named_with_the_fix(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh = fresh_server(client, sshd_factory, tmp_path, "oldpython", python=False)
    (fresh.bin / "old_python.py").write_text(_OLD_PYTHON)
    (fresh.bin / "python3").write_text(f'#!/bin/sh\nexec {sys.executable} -S {fresh.bin / "old_python.py"} "$@"\n')
    (fresh.bin / "python3").chmod(0o755)
    result, record = _run(cli, client, tmp_path, "oldpython")
    assert result.code == 0, result.stdout + result.stderr  # SD003 is a warning
    steps = by_id(record, "oldpython")
    step = steps["host_info"]
    assert step["status"] == "error", step
    message = step["message"]
    assert "\n" not in message and "Traceback" not in message and "SyntaxError" not in message, message
    assert "Python 3.6.9" in message and "3.8 or newer" in message and "--var python=" in message, message
    assert [steps[s]["status"] for s in ("shell", "fetch_note", "after")] == ["passed"] * 3
    [finding] = [f for f in record["findings"] if f["code"] == "SD003" and f["step"] == "host_info"]
    assert finding["evidence"][0] == message


def test_a_host_without_the_python_says_how_to_name_one(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh_server(client, sshd_factory, tmp_path, "nopython", python=False)
    result, record = _run(cli, client, tmp_path, "nopython")
    assert result.code == 0, result.stdout + result.stderr
    step = by_id(record, "nopython")["host_info"]
    assert step["status"] == "error", step
    message = step["message"]
    assert "\n" not in message and "python3: command not found" in message, message
    assert "--var python=" in message, message
