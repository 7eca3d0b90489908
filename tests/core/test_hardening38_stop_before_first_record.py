"""Ctrl-C, SIGTERM or SIGHUP between the run folder's creation and the run's first record.

The engine queues these signals only once execute() starts; one landing before (the run folder
just made, the Run built) reached cli_run's handler for a stop *while the reports are written*,
which said "interrupted while writing the reports; .../run.json is complete" of a folder left
empty, with two `spec-debug report` commands that then said "no run record". The empty folder
stayed, the newest under runs/, where `ls runs | tail -1` finds the latest run.

The CLI sends the signal to itself at the exact point, so the test is deterministic however
loaded the machine is: through the real CLI, real signal handlers and a real run folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

_CLI_WITH_A_SIGNAL_AT = textwrap.dedent(
    """
    import os, signal, sys

    sys.path.insert(0, {repo!r})
    import spec_debug.runner.engine as engine
    import spec_debug.store as store

    where, signum = sys.argv.pop(1), getattr(signal, sys.argv.pop(1))

    if where == "before-execute":
        # The Run is built and its folder made; the engine has not yet queued signals.
        real_execute = engine.Run.execute

        def execute(self):
            os.kill(os.getpid(), signum)
            return real_execute(self)

        engine.Run.execute = execute
    else:
        # Inside RunStore.create, right after the folder's mkdir: its name never reaches the CLI.
        real_init, sent = store.RunStore.__init__, []

        def init(self, run_dir):
            real_init(self, run_dir)
            if run_dir.is_dir() and not sent:
                sent.append(signum)
                os.kill(os.getpid(), signum)

        store.RunStore.__init__ = init
    sys.argv = ["spec-debug", *sys.argv[1:]]
    from spec_debug.cli import main
    main()
    """
)

REASONS = {"SIGINT": "interrupted (Ctrl-C)", "SIGTERM": "terminated (SIGTERM)", "SIGHUP": "hung up (SIGHUP"}


@pytest.mark.parametrize("where", ["before-execute", "after-mkdir"])
@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_stop_before_the_first_record_leaves_no_run_folder_and_says_so(tmp_path, where, signame):
    script = tmp_path / "cli_with_a_signal.py"
    script.write_text(_CLI_WITH_A_SIGNAL_AT.format(repo=str(REPO)))
    playbook = tmp_path / "p.yaml"
    marker = tmp_path / "ran"
    playbook.write_text(f"name: p\nsteps:\n  - id: a\n    run: touch {marker}\n")
    out = tmp_path / "runs"
    result = subprocess.run(
        [sys.executable, str(script), where, signame, "run", str(playbook), "--host", "local", "--out", str(out)],
        capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"})
    said = " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 3, result.stderr
    assert "stopped before the run started" in said and REASONS[signame] in said, said
    assert "is complete" not in said, said
    assert not marker.exists()  # no step ran
    assert list(out.iterdir()) == []  # no empty run folder for `report` or `ls runs | tail -1` to find
