"""A whole step reused with a YAML alias (`- *s1`) copies the anchored step, id and all: the
duplicate id was reported at the original step's id line (4:9), with the hint "the first step
with id 'one' is on line 4": the same line twice, and the alias the author wrote never named.
A value aliased where it does not fit (`timeout: *t`, t anchored to text) was reported at the
anchor in vars:. Both now point at the alias and name the line of the value it copies."""

from __future__ import annotations

from tests.conftest import run_cli

STEP_ALIAS = """name: aliased_step
steps:
  - &s1
    id: one
    run: echo 1
  - id: two
    run: echo 2
  - *s1
"""

VALUE_ALIAS = """name: aliased_value
vars:
  t: &t "soon"
steps:
  - id: one
    title: *t
    run: echo 1
  - id: two
    run: echo 2
    timeout: *t
"""


def test_an_aliased_step_with_the_same_id_points_at_the_alias(write_playbook) -> None:
    playbook = write_playbook(STEP_ALIAS)
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2
    assert result.stderr.splitlines() == [
        f"error: {playbook}:8:5: duplicate step id 'one' (at steps[2])",
        "  hint: the alias *s1 copies the step anchored &s1, id 'one' and all (the first step with that id is on "
        "line 4); each id names one step (in run.json and in steps.ID): to run it again, merge it and give it its "
        "own id: - <<: *s1 then id: one_2 below it"]


def test_the_suggested_merge_loads(write_playbook) -> None:
    playbook = write_playbook(STEP_ALIAS.replace("  - *s1\n", "  - <<: *s1\n    id: one_2\n"))
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 0, result.stderr


def test_an_aliased_value_that_does_not_fit_points_at_the_alias(write_playbook) -> None:
    playbook = write_playbook(VALUE_ALIAS)
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2
    assert result.stderr.splitlines()[0] == (
        f"error: {playbook}:10:14: Input should be a valid number (got str 'soon') "
        "(in the alias *t on line 10; the value it copies is on line 3) (at steps[1].timeout)")


def test_an_error_inside_the_anchored_original_keeps_its_place(write_playbook) -> None:
    playbook = write_playbook(STEP_ALIAS.replace("    run: echo 1\n", "    run: echo 1\n    bogus: 1\n"))
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.stderr.splitlines()[0].startswith(f"error: {playbook}:6:5: unknown key 'bogus'")
