"""A playbook far larger than any written one: a log pasted under `run: |`, or a generator
that wrote a step per line of its input. A 5 MB playbook (16 MiB was the bound) was read whole
by PyYAML's pure-Python reader and checked step by step: 52 s to say "ok" with one step on a
busy machine; 150,000 two-line steps took 54 s of CPU to be refused at the 40,000th (the
200,000-value bound). Now the file is refused unread past 2 MiB, and the
composer stops at the first step past yaml_nodes.MAX_STEPS, each with a line and a hint."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook import yaml_nodes
from spec_debug.playbook.loader import MAX_PLAYBOOK_BYTES, load_playbook, load_playbook_text


def test_a_playbook_with_a_pasted_multi_megabyte_log_is_refused_unread(tmp_path):
    path = tmp_path / "pasted.yaml"
    line = "      echo 'step log line' | grep -v x\n"
    path.write_text("name: pasted\nsteps:\n  - id: a\n    run: |\n" + line * (5_000_000 // len(line)), encoding="utf-8")
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    error = caught.value
    assert (error.line, error.column) == (1, 1)
    assert f"a 4.8 MiB file is not a playbook (the limit is {MAX_PLAYBOOK_BYTES // 2**20} MiB)" in str(error)
    assert "keep data out of the playbook" in error.hint


def test_a_playbook_with_more_steps_than_the_bound_stops_at_the_first_step_past_it(monkeypatch):
    # The bound (10,000) lowered so the test composes a few steps, not ten thousand.
    monkeypatch.setattr(yaml_nodes, "MAX_STEPS", 3)
    text = "name: generated\nsteps:\n" + "".join(f"  - id: s{i}\n    run: echo {i}\n" for i in range(6))
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(text, "generated.yaml")
    error = caught.value
    assert (error.line, error.column) == (9, 5)  # `- id: s3`, the fourth step
    assert "the playbook has more than 3 steps" in str(error) and error.key_path == "steps[3]"
    assert "split it into several playbooks" in error.hint
    # At the bound it loads; a var file's own `steps:` list is no playbook's and is not counted.
    assert len(load_playbook_text(text.split("  - id: s3")[0], "generated.yaml").steps) == 3
    document = yaml_nodes.load_positioned("steps: [1, 2, 3, 4, 5]\n", "vars.yaml", kind="var file")
    assert document.value == {"steps": [1, 2, 3, 4, 5]}


def test_steps_nested_below_the_top_level_are_not_counted(monkeypatch):
    monkeypatch.setattr(yaml_nodes, "MAX_STEPS", 3)
    text = ("name: nested\nvars:\n  plan:\n    steps: [a, b, c, d, e]\n"
            "steps:\n  - id: one\n    run: echo {{ plan.steps | length }}\n")
    assert load_playbook_text(text, "nested.yaml").vars["plan"]["steps"] == ["a", "b", "c", "d", "e"]
