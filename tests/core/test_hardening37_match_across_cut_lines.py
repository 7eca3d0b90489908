"""`matches:` with a regex that spans lines, over a stream cut by --capture-limit.

The part of the stream cut from the record is searched a line at a time, so
`matches: '^Loading(?s:.*)^Done'` whose Done fell in the cut part said only "no match", as if
the server never finished loading. The observation now says that a match across lines in the
cut part is not seen, and how to keep the whole output; a one-line regex says "no match" as
before.
"""

from __future__ import annotations

import re

import pytest

from spec_debug.runner.output_regex import can_match_newline
from tests.conftest import only_run

PLAYBOOK = """\
name: ml
steps:
  - id: s
    run: |
      echo "Loading weights"
      seq 1 40000
      echo "Done loading"
      seq 1 40000
    expect:
      - matches: '{regex}'
"""

NOTE = "cut from the record is searched a line at a time: a match across lines there is not seen"


def _observed(cli, write_playbook, tmp_path, regex: str, *limit: str) -> dict:
    playbook = write_playbook(PLAYBOOK.format(regex=regex))
    cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), *limit)
    _, record = only_run(tmp_path / "runs")
    return record["steps"][0]


def test_a_regex_across_lines_says_the_cut_part_was_searched_line_by_line(cli, write_playbook, tmp_path) -> None:
    step = _observed(cli, write_playbook, tmp_path, "^Loading(?s:.*)^Done", "--capture-limit", "4096")
    assert step["truncated"] is True
    observed = step["expectations"][0]["observed"]
    assert observed.startswith("no match") and NOTE in observed and "--capture-limit" in observed  # was "no match"


def test_the_same_regex_matches_when_the_output_is_kept_whole(cli, write_playbook, tmp_path) -> None:
    step = _observed(cli, write_playbook, tmp_path, "^Loading(?s:.*)^Done", "--capture-limit", "10000000")
    assert step["status"] == "passed"


def test_a_one_line_regex_says_no_match_alone(cli, write_playbook, tmp_path) -> None:
    step = _observed(cli, write_playbook, tmp_path, "^Never printed$", "--capture-limit", "4096")
    assert step["expectations"][0]["observed"] == "no match"


@pytest.mark.parametrize(("regex", "spans"), [
    (r"^Loading(?s:.*)^Done", True), (r"(?s)a.*b", True), (r"error\s+at", True), (r"[^;]+", True),
    (r"x|(y\n)", True), (r"a.*b", False), (r"[^\n]+", False), (r"(?P<v>\S+) tok/s", False), (r"\d+\.\d+", False),
])
def test_which_regexes_can_span_lines(regex: str, spans: bool) -> None:
    assert can_match_newline(regex, re.MULTILINE) is spans
