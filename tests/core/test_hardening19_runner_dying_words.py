"""A step killed at its timeout keeps what it printed while it died.

The story: a step hangs (an NCCL all-reduce that never returns), runs into its `timeout`, and its
tree gets SIGTERM. Programs answer that with their evidence: a Python stack dump registered for
SIGTERM (`faulthandler.register`), torchrun's "Received Signals.SIGTERM death signal, shutting down
workers", a shell trap's cleanup log. The runner stopped reading the step's output the moment
the timeout passed, so the record showed the hang's first line and none of where it hung.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import only_run

HANG = """\
trap 'echo "launch.sh: caught SIGTERM, collecting logs" >&2' TERM
python3 -c '
import faulthandler, signal, time
faulthandler.register(signal.SIGTERM, chain=True)
print("NCCL all_reduce started on 8 ranks", flush=True)
def all_reduce_wait():
    time.sleep(60)
all_reduce_wait()
' &
wait
"""


def hang_playbook(tmp_path: Path, timeout_s: int = 2) -> Path:
    playbook = tmp_path / "hang.yaml"
    playbook.write_text(f"name: hang\nsteps:\n  - id: allreduce\n    timeout: {timeout_s}\n    run: |\n"
                        + "".join(f"      {line}\n" for line in HANG.splitlines()))
    return playbook


def assert_dying_words_kept(step: dict[str, object]) -> None:
    assert step["status"] == "timeout", step["message"]
    assert step["stdout"] == "NCCL all_reduce started on 8 ranks\n"
    stderr = str(step["stderr"])
    trap_line = "launch.sh: caught SIGTERM, collecting logs\n"
    # the shell's own last words, and where it hung, from the dump the SIGTERM made
    assert trap_line in stderr, stderr
    # Both write to one pipe at the same moment, and faulthandler writes a frame in pieces, so
    # the trap's line can land inside the dump ("line 6 in launch.sh: ...\nall_reduce_wait",
    # seen once in CI): read the dump with that line taken out.
    dump = stderr.replace(trap_line, "", 1)
    assert "most recent call first" in dump and 'line 6 in all_reduce_wait' in dump, stderr


def test_a_local_step_killed_at_its_timeout_keeps_its_stack_dump(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    proc = subprocess.run(
        # The interpreter must have registered faulthandler by the timeout, or SIGTERM ends it
        # without a dump: 5 s, not 2, for its start on a loaded machine.
        [sys.executable, "-m", "spec_debug", "run", str(hang_playbook(tmp_path, 5)), "--host", "local", "--out", str(out)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    _, record = only_run(out)
    (step,) = record["steps"]
    assert_dying_words_kept(step)
    assert step["duration_s"] < 30  # the 5 s timeout and its kill, not the 60 s sleep
