"""`explain -`, `playbooks validate -` or `run /dev/stdin` started with standard input closed
(`<&-`, a cron line): the error was "/dev/stdin: cannot read playbook: No such file or
directory", or "a symbolic link to /proc/self/fd/0, which does not exist" with the hint to run
`ln -sfn PATH/TO/playbook.yaml /dev/stdin`. It now says standard input is closed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import spec_debug

ROOT = Path(spec_debug.__file__).resolve().parent.parent


@pytest.mark.parametrize(("args", "named"), [
    (("explain", "-"), "-"),
    (("playbooks", "validate", "-"), "-"),
    (("playbooks", "validate", "/dev/stdin"), "/dev/stdin"),
    (("run", "-", "--host", "local"), "-"),
])
def test_a_closed_stdin_is_said_to_be_closed(tmp_path: Path, args: tuple[str, ...], named: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "spec_debug", *args], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120, preexec_fn=lambda: os.close(0))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"error: {named}: no playbook on standard input (it is closed)",
        "  hint: pipe the playbook in (cat check.yaml | spec-debug ... -), or pass its path"]


def test_a_piped_playbook_still_reads(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    text = (ROOT / "playbooks" / "host_smoke.yaml").read_text()
    result = subprocess.run([sys.executable, "-m", "spec_debug", "playbooks", "validate", "-"], cwd=tmp_path,
                            env=env, input=text, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
