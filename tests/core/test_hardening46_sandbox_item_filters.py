"""`| sort`, `| unique` and the other filters that call Python code for each item read a text
character by character: `('ab' * 4000000) | sort` (a `*` the size bound lets through) held the
run 8-20 s and `| groupby` 18 s, deaf to Ctrl-C. A text or a list of more than 1,000,000 items is
refused: the step errors naming the bound, the run goes on, and ordinary inputs sort as before."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: item_filters
steps:
  - id: lines
    run: seq 30000
    capture:
      - regex: '(?m)^(?P<n>\\d+)$'
        all: true
  - id: sort_text
    run: "echo {{ ('ab' * 4000000) | sort | length }}"
  - id: unique_text
    run: "echo {{ ('ab' * 4000000) | unique | list | length }}"
  - id: map_list
    run: "echo {{ ((range(99999) | list) * 20) | map('string') | list | length }}"
  - id: small
    run: >-
      echo {{ [3, 1, 2] | sort | join(',') }} {{ 'hello' | unique | join }} {{ facts.n[:4] | map('int') | max }}
"""


def test_item_filters_of_a_huge_input_error_and_the_run_goes_on(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=180)
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    for step, name in (("sort_text", "sort"), ("unique_text", "unique")):
        assert steps[step]["status"] == "error"
        assert steps[step]["message"] == (
            f"step '{step}', run: template failed: SecurityError: '| {name}' of a text of 8,000,000 characters "
            "(it reads a text character by character); at most 1,000,000 (split it into lines, or cut it first, "
            "e.g. a slice [:1000])")
    assert steps["map_list"]["status"] == "error"
    assert steps["map_list"]["message"] == (
        "step 'map_list', run: template failed: SecurityError: '| map' of 1,999,980 items; at most 1,000,000 "
        "(cut the list first, e.g. a slice [:1000])")
    assert steps["small"]["status"] == "passed"
    assert steps["small"]["stdout"] == "1,2,3 helo 4\n"
