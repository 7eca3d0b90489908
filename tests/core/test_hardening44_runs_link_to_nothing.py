"""`runs` left as a link to a folder that is gone (an unmounted scratch disk, a deleted
checkout): mkdir said "File exists" and the error called `runs` "a file, not a folder"; the user
looked for a file that is not there. The link and where it points are named now."""

from __future__ import annotations

import os

from tests.conftest import run_cli

PLAYBOOK = "name: p\nsteps:\n  - id: s\n    run: echo hi\n"


def test_a_runs_link_to_nothing_is_named_as_a_link(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    gone = tmp_path / "scratch" / "runs"
    os.symlink(gone, tmp_path / "runs")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert result.code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == f"error: cannot create the runs directory {tmp_path / 'runs'}: {tmp_path / 'runs'} is a link to {gone}, which does not exist"
    assert lines[1].strip() == "hint: make the folder it points to (or mount its disk), or pass --out ANOTHER_FOLDER"
    assert not gone.exists()


def test_runs_as_a_file_is_still_called_a_file(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    (tmp_path / "runs").write_text("notes\n")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs" / "today"))
    assert result.code == 2
    assert result.stderr.splitlines()[0] == (f"error: cannot create the runs directory {tmp_path / 'runs' / 'today'}: "
                                             f"{tmp_path / 'runs'} is a file, not a folder")
    assert (tmp_path / "runs").read_text() == "notes\n"
