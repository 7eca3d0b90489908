"""A Slurm step that failed ends its output with srun's own lines: ``srun: error: gpu01: task 0:
Exited with exit code 2`` (one per status its tasks gave), then maybe ``srun: Terminating
StepId=...`` (SchedMD/slurm ``src/plugins/launch/slurm/launch_slurm.c``, ``_task_finish``; srun
exits with the highest status). In a terminal log that typed no ``echo $?`` those lines are the
only word on the failure; the command read as a success with no exit code and no error."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.common import trailing_exit_code

LOG = """\
me@login01:~$ srun -w gpu01 --gres=gpu:1 python train_eagle3.py --draft /models/eagle3
step 0 loss 2.31
srun: error: gpu01: task 0: Exited with exit code 2
me@login01:~$ srun -N2 -w gpu[01-02] python bench.py
rank 0 ready
srun: error: gpu01: task 0: Exited with exit code 1
srun: error: gpu02: task 1: Exited with exit code 3
srun: Terminating StepId=4242.0
slurmstepd: error: *** STEP 4242.0 ON gpu01 CANCELLED AT 2025-10-01T10:00:00 ***
me@login01:~$ srun -w gpu01 python check.py; echo finished
srun: error: gpu01: task 0: Exited with exit code 1
finished
"""


def test_a_failed_srun_step_in_a_terminal_log_is_a_failed_command(tmp_path: Path) -> None:
    path = tmp_path / "login01.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    assert [(c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        (2, True),  # its one task's status
        (3, True),  # the highest of its tasks', as srun exits with
        (None, False)]  # echo's status is the command's: srun's lines are not its last
    assert doc["agents"][0]["failed_calls"] == 2


def test_only_srun_lines_at_the_end_give_the_status() -> None:
    assert trailing_exit_code("srun: error: gpu[01-02]: tasks 0-7: Exited with exit code 137\n") == 137
    assert trailing_exit_code("the docs say:\nsrun: error: gpu01: task 0: Exited with exit code 1\nsee above\n") is None
    assert trailing_exit_code("srun: error: gpu02: task 1: Killed\n") is None  # a signal: no status printed
