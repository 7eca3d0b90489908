"""A distilled step keeps the status its session's command printed of itself.

Agents end a command with ``; echo "EXIT: $?"`` because their tool reports only the last
command's status (the echo's 0). Copied as is into a playbook, that step passed whatever the
check found: ``python -c 'import sglang'; echo $?`` exited 0 on a host without SGLang. The
step now saves the status, prints the same line, and exits with it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from spec_debug.session.unattended import keeping_status

DATA = Path(__file__).parent / "data_tx"


@pytest.mark.parametrize(("typed", "step"), [
    ('python bench.py; echo "EXIT: $?"', 'python bench.py; rc=$?; echo "EXIT: $rc"; exit $rc'),
    ("python -c 'import sglang'; echo $?", "python -c 'import sglang'; rc=$?; echo $rc; exit $rc"),
    ('python3 -m sglang.check_env 2>&1 | head -3; echo -e "\\n=== EXIT: ${PIPESTATUS[0]} ==="',
     'python3 -m sglang.check_env 2>&1 | head -3; rc=${PIPESTATUS[0]}; echo -e "\\n=== EXIT: $rc ==="; exit $rc'),
    ('timeout 300 python -m x > b.log 2>&1; echo "exit code: $?"; tail -3 b.log',
     'timeout 300 python -m x > b.log 2>&1; rc=$?; echo "exit code: $rc"; tail -3 b.log; exit $rc'),
])
def test_a_status_echo_becomes_the_steps_exit(typed: str, step: str) -> None:
    assert keeping_status(typed) == step


@pytest.mark.parametrize("typed", [
    'until curl -sf localhost:30000/health; do echo "not ready ($?)"; sleep 5; done; echo ready',  # each try
    'if python x.py; then echo $?; fi',
    "ssh gpu01 'python x.py; echo $?'",  # the remote shell's echo, inside quotes
    'ssh gpu01 "python x.py; echo \\$?"',
    'python x.py && echo "ok $?"',  # runs only on success
    "python x.py; echo $? > rc.txt",
    'echo $?',
    'python x.py; echo "a $?"; python y.py; echo "b $?"',  # two statuses: which one is the step's?
    "python x.py; echo $?; exit 0",
])
def test_other_echoes_are_left_as_typed(typed: str) -> None:
    assert keeping_status(typed) == typed


def test_a_distilled_check_fails_where_the_sessions_command_failed(tmp_path: Path) -> None:
    out = tmp_path / "playbook.yaml"
    subprocess.run([sys.executable, "-m", "spec_debug", "distill", str(DATA / "echoed_status.jsonl"), "-o", str(out)],
                   check=True, capture_output=True)
    runs = [step["run"] for step in yaml.safe_load(out.read_text())["steps"]]
    imports = next(run for run in runs if "import sglang" in run)
    # run it the way a step runs: a host without the module (python -c imports a name no one has)
    probe = imports.replace("import sglang", "import spec_debug_no_such_module")
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True)
    assert done.returncode == 1, (imports, done)
    assert done.stdout.strip() == "1"  # the line the session saw
    wait = next(run for run in runs if run.startswith("until curl"))
    assert "exit $rc" not in wait
