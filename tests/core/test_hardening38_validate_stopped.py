"""`playbooks validate` stopped (Ctrl-C, SIGTERM, SIGHUP) while it reads a file (a FIFO, a
stalled NFS mount) says so: what stopped it, the file it was reading and how many were checked.
Typer exited 130 and printed nothing. The CLI sends the signal to itself as it starts reading
the second file, so the test does not depend on timing."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

_VALIDATE_WITH_A_SIGNAL = textwrap.dedent(
    """
    import os, signal, sys

    sys.path.insert(0, {repo!r})
    import spec_debug.playbook.loader as loader

    signum = getattr(signal, sys.argv.pop(1))
    real_load, calls = loader.load_playbook, []

    def load_playbook(name):
        calls.append(name)
        if len(calls) == 2:
            os.kill(os.getpid(), signum)
        return real_load(name)

    loader.load_playbook = load_playbook
    sys.argv = ["spec-debug", *sys.argv[1:]]
    from spec_debug.cli import main
    main()
    """
)

REASONS = {"SIGINT": "interrupted (Ctrl-C)", "SIGTERM": "terminated (SIGTERM)", "SIGHUP": "hung up (SIGHUP"}


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_stopped_validate_says_what_stopped_it_and_where(tmp_path, signame):
    script = tmp_path / "validate_with_a_signal.py"
    script.write_text(_VALIDATE_WITH_A_SIGNAL.format(repo=str(REPO)))
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for path in (first, second):
        path.write_text("name: p\nsteps:\n  - id: a\n    run: echo hi\n")
    result = subprocess.run([sys.executable, str(script), signame, "playbooks", "validate", str(first), str(second)],
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"})
    said = " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 130, result.stderr
    assert f"stopped: {REASONS[signame]}" in said and f"while reading {second}; 1 of 2 playbooks checked" in said, said
    assert f"ok {first}" in " ".join(result.stdout.split())
