"""A controller whose paramiko is there but cannot be imported (its cryptography's OpenSSL
missing after an OS upgrade) was told "the SSH transport is not installed in this build",
which sends one looking for an install that is there. Now the import's own error is said,
with how to repair it. Through the real CLI, in a real process whose path puts a paramiko
that fails to import ahead of the installed one; --host local still runs there.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import run_cli

REPO = Path(__file__).resolve().parents[2]
BROKEN = 'raise ImportError("libssl.so.3: cannot open shared object file: No such file or directory")\n'


def _with_broken_paramiko(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    package = tmp_path / "shadow" / "paramiko"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(BROKEN, encoding="utf-8")
    playbook = tmp_path / "pb.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    return playbook, {"PYTHONPATH": os.pathsep.join([str(tmp_path / "shadow"), str(REPO)])}


def test_a_paramiko_that_cannot_load_is_said_as_python_says_it(tmp_path: Path) -> None:
    playbook, env = _with_broken_paramiko(tmp_path)
    done = run_cli("run", str(playbook), "--host", "gpu01", "-o", str(tmp_path / "out"), cwd=REPO, env=env,
                   real_process=True)
    assert done.code == 2, done.stdout + done.stderr
    assert "not installed" not in done.stderr
    assert "libssl.so.3: cannot open shared object file" in done.stderr
    assert "pip install 'paramiko>=3.4'" in done.stderr


def test_local_host_still_runs_there(tmp_path: Path) -> None:
    playbook, env = _with_broken_paramiko(tmp_path)
    done = run_cli("run", str(playbook), "--host", "local", "-o", str(tmp_path / "out"), cwd=REPO, env=env,
                   real_process=True)
    assert done.code == 0, done.stdout + done.stderr
