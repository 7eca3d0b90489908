"""`spec-debug explain configs` run in a repository that has a configs/ folder (or `explain
sglang` beside an sglang checkout, `explain layout` beside a layout/ folder) was "error: configs:
is a directory, not a playbook file": any path that existed was taken for the playbook, a
folder too. A folder names no playbook: the shipped step or the concept of that name is
explained, as in any other folder; a folder that names nothing else still gets that error, and
a file of that name is still the playbook."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli


def test_a_step_and_a_concept_are_explained_beside_folders_of_their_name(tmp_path: Path) -> None:
    for folder in ("configs", "sglang", "layout", "SD1"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.yaml").write_text("a: 1\n", encoding="utf-8")
    configs = run_cli("explain", "configs", cwd=tmp_path)
    assert configs.code == 0, configs.stderr
    assert configs.stdout.startswith("# Walkthrough: `perf_regression`, step `configs`\n")
    sglang = run_cli("explain", "sglang", cwd=tmp_path)
    assert sglang.code == 0, sglang.stderr
    assert sglang.stdout.startswith("# sglang\n")
    assert run_cli("explain", "layout", cwd=tmp_path).stdout.startswith("# concat order\n")
    assert run_cli("explain", "SD1", cwd=tmp_path).stdout.startswith("SD1 is the start of 4 finding codes:\n")


def test_a_folder_that_names_nothing_else_is_still_refused(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "check.yaml").write_text("name: check\nsteps:\n  - id: a\n    run: 'true'\n", encoding="utf-8")
    result = run_cli("explain", "mine", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines() == ["error: mine: is a directory, not a playbook file",
                                          "  hint: playbooks in it: check.yaml"]


def test_a_file_of_that_name_is_still_the_playbook(tmp_path: Path) -> None:
    (tmp_path / "engine").write_text("name: mine\nsteps:\n  - id: look\n    run: echo hi\n", encoding="utf-8")
    result = run_cli("explain", "engine", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith("# Walkthrough: `mine`\n")
