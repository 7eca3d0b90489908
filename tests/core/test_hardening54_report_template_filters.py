"""A report template (`spec-debug report RUN --template T`) with a typo in a filter's name.

`{{ record.steps | lenght }}` failed with "No filter named 'lenght'." and no hint, where the
same typo in a playbook's template says "did you mean 'length'?". Now the report's error does
too; a name like no filter lists the filters there are."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = "name: t\nsteps:\n  - id: a\n    run: echo a\n"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("run")
    (where / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(where / "p.yaml"), "--host", "local", "--out", str(where / "runs"))
    assert result.code == 0, result.stderr
    (folder,) = result.run_dirs(where / "runs")
    return folder


def _refused(run_dir: Path, tmp_path: Path, template: str) -> list[str]:
    (tmp_path / "t.j2").write_text(template)
    result = run_cli("report", str(run_dir), "--template", str(tmp_path / "t.j2"))
    assert result.code == 2, result.stderr
    return result.stderr.strip().splitlines()


def test_a_misspelt_filter_is_named(run_dir, tmp_path):
    error, hint = _refused(run_dir, tmp_path, "{{ record.steps | lenght }}\n")
    assert error.endswith("t.j2:1 failed: No filter named 'lenght'."), error
    assert hint == "  hint: did you mean 'length'?", hint


def test_a_misspelt_test_is_named(run_dir, tmp_path):
    error, hint = _refused(run_dir, tmp_path, "{% if record.status is defind %}x{% endif %}\n")
    assert "No test named 'defind'" in error, error
    assert hint == "  hint: did you mean 'defined'?", hint


def test_a_word_like_no_filter_lists_them(run_dir, tmp_path):
    _, hint = _refused(run_dir, tmp_path, "{{ record.steps | zzqx }}\n")
    assert hint.startswith("  hint: the filters a report template has: ") and "length" in hint, hint
