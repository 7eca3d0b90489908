"""Captures and expectations read a line redrawn with a bare "\\r" as the terminal left it.

tqdm(leave=False) clears its bar with "\\r" + spaces + "\\r", and the summary a benchmark prints
next follows on that same line: `^Throughput: (?P<tput>[0-9.]+)` never matched it (the fact was
None on every host; `^` starts a line only after "\\n"), and `^Processed: +(?P<pct>\\d+)%` read
the bar's first drawing, 10%. docs/playbooks.md promises output "as a terminal shows it": a
redrawn line now reads as its last drawing that is not blank, for captures, `matches:` and
`contains:` alike; CRLF line ends read as LF as before, and the record keeps the bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.runner.output import as_lines
from tests.conftest import run_cli

PLAYBOOK = r"""name: bench
steps:
  - id: bench
    run: |
      printf '{printed}'
    capture:
      - regex: '^Throughput: (?P<tput>[0-9.]+)'
        type: float
      - regex: '^Processed: +(?P<pct>\d+)%'
        type: int
    expect:
      - matches: '^Throughput: [0-9.]+ tok/s$'
      - not_contains: 'Processed:  10%'
"""


def _step(tmp_path: Path, printed: str) -> dict:
    playbook = tmp_path / "bench.yaml"
    playbook.write_text(PLAYBOOK.format(printed=printed), encoding="utf-8")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    return json.loads(result.stdout)["steps"][0]


def test_a_summary_after_a_cleared_bar_is_captured(tmp_path):
    printed = r"Processed:  10%%\rProcessed: 100%%\r                \rThroughput: 5.2 tok/s\n"
    step = _step(tmp_path, printed)
    assert step["facts"] == {"tput": 5.2, "pct": None}
    assert step["status"] == "passed", step["message"]
    # The record keeps what the host wrote.
    assert step["stdout"] == "Processed:  10%\rProcessed: 100%\r                \rThroughput: 5.2 tok/s\n"


def test_a_bar_left_on_screen_reads_as_its_last_drawing(tmp_path):
    printed = r"Processed:  10%%\rProcessed: 100%%\nThroughput: 7.5 tok/s\n"
    step = _step(tmp_path, printed)
    assert step["facts"] == {"tput": 7.5, "pct": 100}
    assert step["status"] == "passed", step["message"]


@pytest.mark.parametrize(("written", "read"), [
    ("a\r\nb\r\n", "a\nb\n"),  # CRLF line ends, as before
    ("x 10%\rx 100%\ndone\n", "x 100%\ndone\n"),
    ("x 10%\r      \rsummary\n", "summary\n"),
    ("bar\r\n", "bar\n"),
    ("   \r\n", "   \n"),
    ("plain\n", "plain\n"),
    ("\x1b[31mERR\x1b[0m 1%\rERR 9%\n", "ERR 9%\n"),
])
def test_as_lines(written, read):
    assert as_lines(written) == read
