"""``set -o pipefail`` typed on the same line as the pipeline it is for: ``set -o pipefail; python3
load.py 2>&1 | tail -n 5``. The list's status is its last pipeline's (bash(1), Lists), and under
pipefail that is the program's failure (bash(1), Pipelines). Before: the program's failure was read
only where the pipeline was the line's one pipeline, so the ``set`` before it made the line a
success (tail's 0) and the error was kept nowhere. The typescript is a bash 5.2.15 session recorded
with util-linux script 2.38.1, the keys typed through a pty."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.shell_words import status_pipeline

SAME_LINE = (
    b'Script started on 2026-12-06 08:34:30+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" T'
    b'TY="/dev/pts/0" COLUMNS="80" LINES="24"]\n\x1b[?2004hbash-5.2# export PS1=\'\\u@gpu-node-7:\\w\\$ \'\r\n\x1b[?'
    b'2004l\r\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# set -o pipefail; python3 load.py 2>&1 | t \r'
    b'ail -n 5\r\n\x1b[?2004l\rloading draft\r\nError: could not load draft\r\n\x1b[?2004hroot@gpu-node-7:/tmp/term'
    b'-scratch/rec# set +o pipefail\r\n\x1b[?2004l\r\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# python3 l'
    b'oad.py 2>&1 | tail -n 5\r\n\x1b[?2004l\rloading draft\r\nError: could not load draft\r\n\x1b[?2004hroot@gpu-n'
    b'ode-7:/tmp/term-scratch/rec# exit\r\n\x1b[?2004l\rexit\r\n\nScript done on 2026-12-06 08:34:35+00:00 [COM'
    b'MAND_EXIT_CODE="0"]\n'
)


def test_pipefail_set_on_the_pipelines_own_line(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(SAME_LINE)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"] if "load.py" in c["command"]] == [
        ("set -o pipefail; python3 load.py 2>&1 | tail -n 5", True),
        ("python3 load.py 2>&1 | tail -n 5", False),
    ]
    assert [e["message"] for e in doc["errors"]] == ["Error: could not load draft"]


@pytest.mark.parametrize(("command", "pipeline"), [
    ("python3 load.py | tee log", [["python3", "load.py"], ["tee", "log"]]),
    ("set -o pipefail; python3 load.py | tee log", [["python3", "load.py"], ["tee", "log"]]),
    ("cd /w && ./run.sh | tee log", [["./run.sh"], ["tee", "log"]]),
    ("python3 a.py | tee a.log; python3 b.py | tee b.log", None),
    ("nvidia-smi; python3 load.py | tee log", None),
])
def test_the_pipeline_whose_status_is_the_lines(command: str, pipeline: list | None) -> None:
    assert status_pipeline(command) == pipeline
