"""A capture regex that starts with a run of spaces: ` +(?P<mib>\\d+)MiB` on nvidia-smi's aligned
columns, `\\t+(?P<v>\\S+)` on a tab-separated table. On a long line of blanks without the rest of
the regex (a fixed-width log padded with spaces, a tqdm bar cleared with spaces and `\\r`) the
search was quadratic, 0.17 s for 20 KB and half a minute for 256 KiB, while Python's `re`
holds off Ctrl-C and SIGTERM. The guard in runner/output_regex.py left a leading space out
because (?x) verbose mode drops it; a regex that is not verbose is now guarded, with the same
first match, and a verbose one still is not."""

from __future__ import annotations

import random
import re

import pytest

from spec_debug.runner.output_regex import compile_first_match

SPACE_LED = [r" +(?P<mib>\d+)MiB", "\t+(?P<v>\\S+)", r"( +)x", r"(?P<pad> *)\d", r"\ +x", r" {2,}y"]


@pytest.mark.parametrize("source", SPACE_LED)
def test_a_regex_that_starts_with_a_run_of_blanks_is_guarded(source):
    assert compile_first_match(source).pattern.startswith("(?<!"), compile_first_match(source).pattern


@pytest.mark.parametrize("source", SPACE_LED)
def test_the_guarded_blank_led_regex_finds_what_the_written_one_finds(source):
    rng = random.Random(31)
    for _ in range(3000):
        text = "".join(rng.choice("  \t\tx1MiBy\n") for _ in range(rng.randint(0, 40)))
        written = re.compile(source, re.M).search(text)
        guarded = compile_first_match(source).search(text)
        assert (written and (written.span(), written.groups())) == (guarded and (guarded.span(), guarded.groups())), \
            (source, text)


def test_a_long_line_of_spaces_without_the_rest_finds_nothing_and_the_value_after_it():
    pattern = compile_first_match(r" +(?P<mib>\d+)MiB")
    assert pattern.search(" " * 30_000) is None
    assert pattern.search(" " * 30_000 + "\n|  0  H200   |   81559MiB /  143771MiB |")["mib"] == "81559"


def test_in_verbose_mode_a_leading_space_is_not_the_regex_start_and_is_left_as_written():
    # (?x) drops the blank: ` \d+x` there is `\d+x`, and `(?<! )` would refuse " 12x"'s "12x".
    assert compile_first_match(r" \d+x", re.M | re.X).pattern == r" \d+x"
    assert compile_first_match(r" \d+x", re.M | re.X).search(" 12x").group() == "12x"
