"""Shared fixtures: run the real CLI in a subprocess, write playbooks to tmp files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

# pytest-xdist's workers start with COLUMNS=80 and LINES=24 exported (a plain run has neither):
# rich's consoles, made at import, would keep 80 columns whatever a test asks (a table cut
# mid-sentence, a path wrapped), and ps(1) run by the CLI cuts its lines at $COLUMNS. The
# suite runs as a plain `pytest` does, whichever way it is started.
if os.environ.get("PYTEST_XDIST_WORKER"):
    for _name in ("COLUMNS", "LINES"):
        os.environ.pop(_name, None)

from tests.cli_runner import serve as serve_from_zygote  # noqa: E402

# The machine's /etc/ssh/ssh_config (Debian's sets HashKnownHosts yes, GSSAPIAuthentication yes)
# would change what the SSH tests write and offer; ssh(1) semantics of reading it are tested
# on purpose (tests/ssh/test_system_ssh_config.py), everything else runs without it.
os.environ.setdefault("SPEC_DEBUG_SYSTEM_SSH_CONFIG", os.devnull + ".absent/ssh_config")

# A suite started in the background of a script (`bash .ci/run &`, nohup) gets SIGINT ignored,
# every child inherits that, and the Ctrl-C tests would send a signal nobody hears. A handler
# (unlike SIG_IGN) is reset to the default in exec'd children, so the CLI under test gets its
# KeyboardInterrupt again, as it would from a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The same for SIGHUP under `nohup`: an ignored hang-up stays ignored in every exec'd child, and
# the CLI honours that on purpose (`nohup spec-debug run ... &` survives the session's end), so
# the hang-up tests would see a CLI that never hears them. A no-op handler keeps this suite alive
# through the hang-up nohup was asked to survive, while exec'd children start with the default.
if signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
    signal.signal(signal.SIGHUP, lambda _signum, _frame: None)


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str

    def run_dirs(self, out: Path) -> list[Path]:
        return sorted(p for p in out.iterdir() if p.is_dir())


def run_cli(*args: str, cwd: Path | None = None, timeout: float = 120, env: dict[str, str] | None = None,
            real_process: bool = False) -> CliResult:
    """`python -m spec_debug ARGS`, as subprocess.run(capture_output=True, text=True) gives it.

    Served by a child of the CLI zygote (tests/cli_runner.py: ~0.7 s of imports less a call)
    where that is the same process; `real_process=True` for a test about the interpreter's own
    start (it is also the fallback wherever the zygote cannot be faithful)."""
    full_env = {**os.environ, "COLUMNS": "200", **(env or {})}
    if not real_process:
        served = serve_from_zygote(args, cwd, timeout, full_env, overridden=bool(env))
        if served is not None:
            return CliResult(*served)
    proc = subprocess.run(
        [sys.executable, "-m", "spec_debug", *args],
        capture_output=True, text=True, timeout=timeout, cwd=cwd, env=full_env,
    )
    return CliResult(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def write_playbook(tmp_path: Path):
    def write(text: str, name: str = "playbook.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


def only_run(out: Path) -> tuple[Path, dict]:
    dirs = sorted(p for p in out.iterdir() if p.is_dir())
    assert len(dirs) == 1, dirs
    return dirs[0], json.loads((dirs[0] / "run.json").read_text())
