"""A capture or `matches:` regex that starts with a class run (`(?P<v>\\S+) tok/s`) on one long
line without the rest of the regex: minified JSON, base64, a tqdm bar redrawn with `\\r`.

Before, the search was quadratic in the line (40 KB: 12 s; the 256 KiB here: minutes) and held
off Ctrl-C and SIGTERM while it ran. The guard (runner/output_regex.py) must find the same
first match, groups included, as the regex as written, and leave regexes it cannot prove that
for (a back reference, an alternation, a bounded repetition) as written."""

from __future__ import annotations

import json
import random
import re
import time

import pytest

from spec_debug.runner.output_regex import compile_first_match
from tests.conftest import run_cli

PLAYBOOK = r"""name: long_line
steps:
  - id: bench
    run: python3 -c "import sys; sys.stdout.write('x' * 262144 + ' 54.8 tok/s\n' + 'y' * 262144)"
    capture:
      - regex: '(?P<tput>\S+) tok/s'
        type: str
      - regex: '(?P<absent>[^,]+),'
    expect:
      - matches: '\w+ tok/s'
"""


def test_a_class_led_regex_on_a_long_line_finishes_with_the_first_match(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    # The old search ran for minutes here; a hang fails the test by its timeout.
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"),
                     "--json", timeout=90)
    assert result.code == 0, result.stderr
    record = json.loads(result.stdout)
    (step,) = record["steps"]
    assert step["status"] == "passed"
    assert step["facts"]["tput"] == "54.8"
    assert step["facts"]["absent"] is None


PATTERNS = [r"(?P<v>\S+) x", r"[^,]+,", r"\w+ ", r".*x", r"(?:(\d+))\.", r"\d{2,}x", r"\S+?b", r"(\S+a|\S+b)",
            r"\S*", r"[a-b]+x", r"(?P<n>\w+)\s*,\s*(?P<m>\S+)", r"\S++ x", r".+", r"(\S+) \1", r"\d{2,3}x",
            r"\S+ x|y", r"[]a]+x", r"(?i)(?P<v>\S+) X", r"(?s).+x", r"(?is)[A-B]+X"]


@pytest.mark.parametrize("flags", [re.M, re.M | re.S, re.M | re.I])
def test_the_guarded_regex_finds_what_the_written_one_finds(flags):
    rng = random.Random(13)
    for _ in range(3000):
        text = "".join(rng.choice("ab ,x1.\n\t-]") for _ in range(rng.randint(0, 40)))
        for source in PATTERNS:
            written = re.compile(source, flags).search(text)
            guarded = compile_first_match(source, flags).search(text)
            assert (written and (written.span(), written.groups())) == (guarded and (guarded.span(), guarded.groups())), \
                (source, text)


@pytest.mark.parametrize("source", [r"(\S+) \1", r"\S+ x|y", r"\d{2,3}x", r"^\S+ x", r"(?x)\S+x", r"ab\S+"])
def test_regexes_it_cannot_prove_are_left_as_written(source):
    assert compile_first_match(source).pattern == source


@pytest.mark.parametrize("source", [r"(?P<v>\S+) tok/s", r"[^,]+,", r".*x", r"\d{2,}x", r"\w*?q", r"\S++ x"])
def test_class_led_regexes_are_guarded(source):
    assert compile_first_match(source).pattern.startswith("(?<!")


@pytest.mark.parametrize("source", [r"(?i)(?P<v>\S+) tok/s", r"(?s).*x", r"(?i)(?m)[^,]+,"])
def test_leading_global_flags_stay_first_and_the_rest_is_guarded(source):
    # `(?i)(?P<v>\S+) tok/s` on 20 KB of non-spaces took 1.4 s unguarded (minutes on 256 KiB).
    flags = re.match(r"(?:\(\?[a-z]+\))*", source).group()
    assert compile_first_match(source).pattern.startswith(flags + "(?<!")
    started = time.perf_counter()
    assert compile_first_match(source).search("y" * 200_000) is None
    assert time.perf_counter() - started < 5
