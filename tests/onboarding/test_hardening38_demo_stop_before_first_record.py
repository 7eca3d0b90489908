"""`spec-debug demo` stopped (Ctrl-C, SIGTERM, SIGHUP) between its run folder's creation and
the run's first record ends as `run` does: exit 3 with what stopped it, and no empty run folder
left newest under runs/ (the same window as tests/core/test_hardening38_stop_before_first_record.py).
The CLI sends the signal to itself at the exact point, so the test does not depend on timing."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

_DEMO_WITH_A_SIGNAL_BEFORE_EXECUTE = textwrap.dedent(
    """
    import os, signal, sys

    sys.path.insert(0, {repo!r})
    import spec_debug.runner.engine as engine

    signum = getattr(signal, sys.argv.pop(1))
    real_execute = engine.Run.execute

    def execute(self):
        os.kill(os.getpid(), signum)
        return real_execute(self)

    engine.Run.execute = execute
    sys.argv = ["spec-debug", *sys.argv[1:]]
    from spec_debug.cli import main
    main()
    """
)

REASONS = {"SIGINT": "interrupted (Ctrl-C)", "SIGTERM": "terminated (SIGTERM)", "SIGHUP": "hung up (SIGHUP"}


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_demo_stopped_before_its_first_record_leaves_no_run_folder(tmp_path, signame):
    pytest.importorskip("torch")
    script = tmp_path / "demo_with_a_signal.py"
    script.write_text(_DEMO_WITH_A_SIGNAL_BEFORE_EXECUTE.format(repo=str(REPO)))
    out = tmp_path / "runs"
    result = subprocess.run([sys.executable, str(script), signame, "demo", "--out", str(out)],
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"})
    said = " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 3, result.stderr
    assert "stopped before the run started" in said and REASONS[signame] in said, said
    assert not out.exists() or list(out.iterdir()) == []
