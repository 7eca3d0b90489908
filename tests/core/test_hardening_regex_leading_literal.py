"""A capture that starts with a repeated literal character searched one long line for minutes.

`(?P<done>=+)>` reads how far a progress bar got; on a bar of 200,000 "=" with no ">" (a
redraw cut short, a log with \\r redraws joined into one line) Python's re tried every start
and ran each to the end of the run: about 90 s, during which the run could not be stopped.
output_regex guarded only leading repetitions of a class (\\S+, .+, [...]+); a literal is a
class of one character, and the same (?<!=) guard makes the search one pass."""

from __future__ import annotations

import json
import random
import re

import pytest

from spec_debug.runner.output_regex import compile_first_match
from tests.conftest import run_cli


def test_a_progress_bar_capture_on_a_long_line_finishes(tmp_path, write_playbook):
    playbook = write_playbook("""\
name: bar
steps:
  - id: bar
    run: python3 -c "print('=' * 200000); print('[=====>   ] 50%')"
    capture:
      - regex: '(?P<done>=+)>'
        type: str
""")
    # without the guard this line alone takes about 90 s: the timeout is the hang, not a target
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=60)
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["facts"] == {"local": {"done": "====="}}  # the bar's own run


@pytest.mark.parametrize("source", [r"a+b", r"(?P<x>a+)(?P<y>b*)c", r"a*?b", r"(?i)a+B", r"=+ ?(?P<v>\d+)",
                                    r"\-+>", r"a{2,}b?a", r"(?:(?P<run>=+))>"])
def test_a_guarded_literal_finds_the_same_first_match(source):
    rng = random.Random(source)
    plain = re.compile(source, re.MULTILINE)
    guarded = compile_first_match(source)
    for _ in range(3000):
        text = "".join(rng.choice("aAb=- c>1\n") for _ in range(rng.randint(0, 30)))
        want, got = plain.search(text), guarded.search(text)
        assert (want and (want.span(), want.groupdict())) == (got and (got.span(), got.groupdict())), text


@pytest.mark.parametrize("source", [r"\x41+b", r"(?P<x>a+)b(?P=x)"])  # " +x" is guarded now: test_hardening31_runner_space_led_regex
def test_what_the_guard_cannot_read_is_left_as_written(source):
    assert compile_first_match(source).pattern == source
