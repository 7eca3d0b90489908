"""A typo in a playbook file's name: the hint names the file meant.

docs/analyze.md and the README have the user distill to playbooks/kimi_regression.yaml and then
`spec-debug playbooks validate` it; a slip in that path (kimi_regresion.yaml, .yml for .yaml) got
"shipped playbooks: drafter_accuracy, ..." as its hint, which is not the file they wrote."""
from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """name: kimi_regression
steps:
  - id: gpu
    run: echo ok
"""


def test_validate_names_the_playbook_file_a_typo_meant(tmp_path: Path) -> None:
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "kimi_regression.yaml").write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("playbooks", "validate", "playbooks/kimi_regresion.yaml", cwd=tmp_path)
    assert result.code == 2
    assert "did you mean 'playbooks/kimi_regression.yaml'?" in result.stderr, result.stderr
    assert "shipped playbooks:" not in result.stderr


def test_run_names_the_yaml_file_for_a_yml_typo(tmp_path: Path) -> None:
    (tmp_path / "check.yaml").write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("run", "check.yml", "--host", "local", "--out", str(tmp_path / "runs"), cwd=tmp_path)
    assert result.code == 2
    assert "did you mean 'check.yaml'?" in result.stderr, result.stderr


def test_a_shipped_name_typo_still_names_the_shipped_playbook(tmp_path: Path) -> None:
    (tmp_path / "notes.yaml").write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("run", "perf_regresion", "--host", "local", "--out", str(tmp_path / "runs"), cwd=tmp_path)
    assert result.code == 2
    assert "did you mean 'perf_regression'?" in result.stderr, result.stderr
