"""``srun --pty python3 load.py`` with no node named (Slurm picks one) that ended on
``sys.exit("Error: could not load draft")``, in a terminal log with no exit status: srun exits
with its tasks' highest exit code (slurm.schedmd.com/srun.html), the program's. Before: the
program read was ``srun`` and the call a success (with ``-w gpu07`` the line's command was
already the program). A bare ``srun --pty python3`` (a prompt) and a program that went on after
its ``Error:`` line stay no failed call. The program's lines are load.py's and goon.py's as bash
5.2.15 recorded them (tests/session/test_hardening57_terminal_python_exit.py); Slurm is not
installed here."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
user@login01:~/eagle$ srun --pty python3 load.py
loading draft from /ckpt/eagle3
Error: could not load draft
user@login01:~/eagle$ srun -p gpu --gres=gpu:1 python3 -u load.py
loading draft from /ckpt/eagle3
Error: could not load draft
user@login01:~/eagle$ srun -p gpu python3 goon.py
Error: first load attempt failed, retrying
loaded draft in 2.1 s
user@login01:~/eagle$ echo end
end
"""


def test_a_python_failure_under_srun_fails_the_call(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    assert {c["command"]: c["is_error"] for c in doc["commands"]} == {
        "srun --pty python3 load.py": True, "srun -p gpu --gres=gpu:1 python3 -u load.py": True,
        "srun -p gpu python3 goon.py": False, "echo end": False}
