"""A step whose `requires:` var was left empty in a --var-file (`draft_model: ""` in the team's
vars.yaml, or `draft_model:` with nothing after it) was skipped with "--var draft_model is
empty: give it a value", and SD004's title said the same: the user, who typed no such --var,
looked at their command line. Now the skip and the title name the var file: "draft_model is
empty in --var-file vars.yaml: give it a value". A --var given beside the file wins and is
still told as the --var; a file that gives a value runs the step. Real `spec-debug run --host
local` runs."""

from __future__ import annotations

from pathlib import Path

import pytest

# the same playbook (`x: ""`, a step that requires x) and the same real run
from tests.core.test_hardening75_requires_var_given_empty import _run


@pytest.mark.parametrize(("written", "shown"), [('x: ""\n', ""), ("x:\n", " (null)"), ("x: []\n", " ([])")])
def test_a_var_file_value_left_empty_names_the_file(tmp_path: Path, written: str, shown: str) -> None:
    (tmp_path / "vars.yaml").write_text(written)
    record = _run(tmp_path, "--var-file", "vars.yaml")
    said = f"x is empty{shown} in --var-file vars.yaml: give it a value"  # was: "--var x is empty..."
    assert record["steps"][0]["status"] == "skipped"
    assert record["steps"][0]["message"] == f"skipped: {said} to run this step"
    [finding] = [f for f in record["findings"] if f["code"] == "SD004"]
    assert finding["title"] == f"Not checked: {said} to run 1 more step(s)"


def test_the_last_file_that_names_it_is_named(tmp_path: Path) -> None:
    (tmp_path / "team.yaml").write_text("x: /models/draft\n")
    (tmp_path / "mine.yaml").write_text("x: ''\n")
    record = _run(tmp_path, "--var-file", "team.yaml", "--var-file", "mine.yaml")
    assert record["steps"][0]["message"] == "skipped: x is empty in --var-file mine.yaml: give it a value to run this step"


def test_a_var_given_over_the_file_is_still_the_var(tmp_path: Path) -> None:
    (tmp_path / "vars.yaml").write_text("x: /models/draft\n")
    record = _run(tmp_path, "--var-file", "vars.yaml", "--var", "x=")
    assert record["steps"][0]["message"] == "skipped: --var x is empty: give it a value to run this step"
    (tmp_path / "runs").rename(tmp_path / "first")
    record = _run(tmp_path, "--var-file", "vars.yaml")
    assert record["steps"][0]["status"] == "passed"
    assert record["steps"][0]["stdout"] == "/models/draft\n"
