"""`spec-debug analyze` given a symlink loop, or a link to nothing, says so: not "no such file or
directory" for a name that `ls` lists.

``Path.exists`` is False when stat fails with ELOOP and when the link's target is gone, so both
were reported as a missing path and the user went looking for a file that is right there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.errors import UsageError
from spec_debug.session.analysis import analyze_path


def _loop(tmp_path: Path) -> Path:
    (tmp_path / "a.jsonl").symlink_to(tmp_path / "b.jsonl")
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "a.jsonl")
    return tmp_path / "a.jsonl"


def test_symlink_loop_is_named_a_loop(tmp_path):
    path = _loop(tmp_path)
    with pytest.raises(UsageError) as caught:
        analyze_path(path)
    assert caught.value.message == f"{path}: a symbolic link that leads back to itself (a loop of links)"
    assert "no such file" not in str(caught.value)


def test_path_under_a_looping_folder_is_named_a_loop(tmp_path):
    (tmp_path / "sessions").symlink_to(tmp_path / "sessions")
    path = tmp_path / "sessions" / "s.jsonl"
    with pytest.raises(UsageError) as caught:
        analyze_path(path)
    assert caught.value.message == f"{path}: a folder on its way is a link that leads back to itself (a loop of links)"


def test_dangling_symlink_names_its_target(tmp_path):
    link = tmp_path / "latest.jsonl"
    link.symlink_to(tmp_path / "rotated-away.jsonl")
    with pytest.raises(UsageError) as caught:
        analyze_path(link)
    assert caught.value.message == (
        f"{link}: a symbolic link to {tmp_path / 'rotated-away.jsonl'}, which does not exist")


def test_missing_path_still_reads_no_such_file(tmp_path):
    with pytest.raises(UsageError) as caught:
        analyze_path(tmp_path / "nope.jsonl")
    assert caught.value.message == f"{tmp_path / 'nope.jsonl'}: no such file or directory"
    assert caught.value.hint is None


def test_cli_analyze_symlink_loop_is_one_clear_line(tmp_path):
    path = _loop(tmp_path)
    result = CliRunner().invoke(app, ["analyze", str(path)])
    assert result.exit_code == 2, result.output
    assert "leads back to itself (a loop of links)" in result.output
    assert "no such file" not in result.output and "Traceback" not in result.output
