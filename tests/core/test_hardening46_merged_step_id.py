"""A step started as a copy of an anchored one (`- <<: *first`) and no id of its own takes the
first step's id, and the duplicate id was reported at the first step's own id line, with the
hint "the first step with id 'one' is on line 4": the same line twice, and not the step at
fault. It now points at the step that merged the id and says it came with its merge key."""

from __future__ import annotations

from tests.conftest import run_cli

PLAYBOOK = """name: merged_ids
steps:
  - &first
    id: one
    timeout: 30
    run: echo 1
  - id: two
    run: echo 2
  - <<: *first
    run: echo 3
"""


def test_a_merged_duplicate_id_points_at_the_step_that_merged_it(write_playbook) -> None:
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2
    assert result.stderr.splitlines() == [
        f"error: {playbook}:9:5: duplicate step id 'one' (at steps[2])",
        "  hint: this step takes id 'one' from its merge key (<<), from the step on line 4; each id names one step "
        "(in run.json and in steps.ID): give this one its own, e.g. id: one_2"]


def test_a_written_duplicate_id_keeps_its_place(write_playbook) -> None:
    playbook = write_playbook(PLAYBOOK.replace("  - <<: *first\n", "  - <<: *first\n    id: one\n"))
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.stderr.splitlines() == [
        f"error: {playbook}:10:9: duplicate step id 'one' (at steps[2].id)",
        "  hint: the first step with id 'one' is on line 4; each id names one step (in run.json and in steps.ID): "
        "rename this one, e.g. id: one_2"]
