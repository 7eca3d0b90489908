"""A Python program started by an environment manager's ``run`` (``uv run python load.py``,
``conda run -n eagle python load.py``) that ended on ``sys.exit("Error: could not load draft")``,
in a terminal log with no exit status: the runner exits with the program's status. Before: the
program read was ``uv`` (or none, conda being a setup word), and the calls were successes. A
program that went on after its ``Error:`` line, and a pipeline into ``tee`` (tee's status), stay
no failed call. The program's lines are load.py's and goon.py's as bash 5.2.15 recorded them
(tests/session/test_hardening57_terminal_python_exit.py); neither runner is installed here."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
root@gpu01:~/eagle# uv run python load.py
loading draft from /ckpt/eagle3
Error: could not load draft
root@gpu01:~/eagle# conda run -n eagle python load.py
loading draft from /ckpt/eagle3
Error: could not load draft
root@gpu01:~/eagle# uv run --with torch python goon.py
Error: first load attempt failed, retrying
loaded draft in 2.1 s
root@gpu01:~/eagle# uv run python load.py 2>&1 | tee load.log
loading draft from /ckpt/eagle3
Error: could not load draft
root@gpu01:~/eagle# echo end
end
"""


def test_a_python_failure_under_a_runner_fails_the_call(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    assert {c["command"]: c["is_error"] for c in doc["commands"]} == {
        "uv run python load.py": True, "conda run -n eagle python load.py": True,
        "uv run --with torch python goon.py": False, "uv run python load.py 2>&1 | tee load.log": False,
        "echo end": False}
