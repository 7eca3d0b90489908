"""`spec-debug explain hidden_state_format hidden_layout` (a playbook, then one of its steps) was
"explain takes one playbook, code or concept; got also: hidden_layout", and `explain hidden_layout`
alone gives perf_regression's step of that id: hidden_state_format's own hidden_layout step could
not be explained alone. The step of the playbook named first is now its walkthrough; a word that is
no step of it is still refused as a stray word (test_hardening47_explain_concepts)."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def test_a_step_of_the_playbook_named_first_is_explained(tmp_path) -> None:
    result = run_cli("explain", "hidden_state_format", "hidden_layout", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith("# Walkthrough: `hidden_state_format`, step `hidden_layout`\n")
    # hidden_state_format's own step (its third), not perf_regression's (its fifth)
    assert "## 3. Hidden-state layout (`hidden_layout`)" in result.stdout
    alone = run_cli("explain", "hidden_layout", cwd=tmp_path)
    assert alone.stdout.startswith("# Walkthrough: `perf_regression`, step `hidden_layout`\n")


def test_the_step_as_json_and_in_any_case(tmp_path) -> None:
    result = run_cli("explain", "perf_regression", "VOCAB", "--json", cwd=tmp_path)
    assert result.code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["only_step"] == "vocab"
    assert [step["id"] for step in data["steps"]] == ["vocab"]


def test_a_playbook_file_and_its_step(tmp_path) -> None:
    (tmp_path / "mine.yaml").write_text(
        "name: mine\nsteps:\n  - id: first\n    why: one\n    run: echo 1\n"
        "  - id: second\n    why: two\n    run: echo 2\n", encoding="utf-8")
    result = run_cli("explain", "mine.yaml", "second", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert "`second`" in result.stdout.splitlines()[0]
    assert "echo 2" in result.stdout and "echo 1" not in result.stdout


def test_an_unquoted_concept_is_still_one_topic(tmp_path) -> None:
    result = run_cli("explain", "accept", "length", cwd=tmp_path)
    assert result.code == 0
    assert result.stdout.startswith("# accept length\n")
