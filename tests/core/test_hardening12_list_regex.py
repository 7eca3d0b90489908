"""The usual regex for a comma-separated list, `\\d+(?:,\\s*\\d+)*`, loads and captures.

The backtracking guard (spec_debug/playbook/regex_backtracking.py) accepted a repeated group
with one inner repetition and a delimiter, but refused `(?:,\\s*\\d+)*` for holding two
(`\\s*` and `\\d+`), though each is stopped by a character it cannot match: a playbook that
captures the draft's aux layer ids ("1, 23, 44") the way most people write it did not load.
The blow-up shapes are still refused.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

# The line as an EAGLE-3 draft's config.json holds it (top level in speculators' format, under
# eagle_config in EAGLE/SpecForge's: spec_debug/eagle3/config.py reads both).
CONFIG_LINE = '  "eagle_aux_hidden_state_layer_ids": [1, 23, 44],'

PLAYBOOK = f"""\
name: aux_layers
steps:
  - id: draft_config
    run: |
      echo '{CONFIG_LINE}'
    capture:
      - regex: 'eagle_aux_hidden_state_layer_ids": \\[(\\d+(?:,\\s*\\d+)*)\\]'
        name: aux_layer_ids
"""


def test_a_comma_separated_list_regex_captures(write_playbook, tmp_path):
    result = run_cli("run", str(write_playbook(PLAYBOOK)), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["facts"]["local"]["aux_layer_ids"] == "1, 23, 44"


@pytest.mark.parametrize("pattern", [
    r"(\s*\d+)*x",          # \s* may be empty: the digits split between rounds
    r"(?:\s*\d+\s*,?)+",    # the comma is optional: the same
    r"(?:,\d*\d+)+x",       # two repetitions of one class inside a round
])
def test_lists_whose_rounds_can_split_one_text_two_ways_are_still_refused(write_playbook, pattern):
    text = PLAYBOOK.replace(r"(\d+(?:,\s*\d+)*)", f"(?P<aux_layer_ids>{pattern})")
    result = run_cli("playbooks", "validate", str(write_playbook(text)))
    assert result.code == 2 and "repetition inside a repetition" in result.stderr, result.stderr
