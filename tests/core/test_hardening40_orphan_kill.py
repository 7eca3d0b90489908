"""A timed-out local step's processes that left its tree are killed with it.

kill_tree found the step's processes as descendants of its shell. One whose parent had exited
was no descendant any more (reparented to init): `(setsid server &)`, a double-forked daemon,
or a child forked as the tree was killed whose parent then died of it. It ran on after "timed
out after 1 s; process tree killed", holding the step's output pipe; and
test_run_local.py's setsid child survived whenever a loaded machine had its shell still forking
when the 1 s timeout came (the kill's walk ran before the fork, its parent died of the
SIGTERM). The kill now also follows the step's output pipes: every process still holding
their write end is the step's.

Nothing here depends on timing: each step waits until its escaped process has written its pid
(or, the trap's, until the kill) and the kill comes at the step's timeout. A machine so slow
that the escapee did not exist by then makes a test check less, never fail.
"""

from __future__ import annotations

import os
import signal
import uuid
from pathlib import Path

from tests.conftest import only_run, run_cli


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def _run_and_read_escapee(tmp_path: Path, run: str, pid_file: Path) -> tuple[dict, bool]:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(f"name: p\nsteps:\n  - id: serve\n    timeout: 3\n    run: |\n      {run}\n", encoding="utf-8")
    out = tmp_path / "runs"
    try:
        result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
        assert "Traceback" not in result.stderr, result.stderr
        _, record = only_run(out)
        (step,) = record["steps"]
        # No pid written (whole, by a rename): the process was killed before it could write it.
        alive = pid_file.is_file() and _alive(int(pid_file.read_text()))
    finally:
        if pid_file.is_file() and pid_file.read_text().strip() and _alive(int(pid_file.read_text())):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)  # the survivor, by the pid it wrote
    return step, alive


def test_a_server_started_as_setsid_in_a_subshell_is_killed_at_the_timeout(tmp_path):
    pid_file, marker = tmp_path / "server.pid", f"sd-orphan-{uuid.uuid4().hex[:8]}"
    # The subshell exits at once: the server's parent is init, its session its own.
    run = (f"(setsid bash -c 'echo $$ > {pid_file}.tmp; mv {pid_file}.tmp {pid_file}; exec -a {marker} sleep 300' &); "
           f"until [ -s {pid_file} ]; do sleep 0.05; done; sleep 600")
    step, alive = _run_and_read_escapee(tmp_path, run, pid_file)
    assert step["status"] == "timeout" and step["message"] == "timed out after 3 s; process tree killed", step
    assert not alive, "the server the step started ran on after 'process tree killed'"


def test_a_child_forked_as_the_tree_is_killed_is_killed_too(tmp_path):
    # A trap on SIGTERM starts a detached process and the shell exits: by the kill's second
    # pass the child's parent is gone.
    pid_file = tmp_path / "late.pid"
    run = (f"trap '(setsid bash -c \"echo \\$\\$ > {pid_file}.tmp; mv {pid_file}.tmp {pid_file}; exec sleep 300\" &); "
           "exit 1' TERM; "
           "sleep 600 & wait")
    step, alive = _run_and_read_escapee(tmp_path, run, pid_file)
    assert step["status"] == "timeout", step
    assert not alive, "the child forked by the dying step ran on after 'process tree killed'"
