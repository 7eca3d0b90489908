"""A playbook given through a symbolic link that leads nowhere.

`ln -s ~/incidents/perf.yaml current.yaml`, then the incidents folder moved: `ls` shows
current.yaml, and `spec-debug run current.yaml` said "no playbook file 'current.yaml' and no
shipped playbook by that name", which sent its author looking at a file that is plainly there.
A link that leads back to itself said the same.
"""

from __future__ import annotations

import os

from tests.conftest import run_cli


def _said(result) -> str:
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    return " ".join(result.stderr.split())


def test_a_link_to_a_playbook_that_moved_names_where_it_pointed(tmp_path):
    link = tmp_path / "current.yaml"
    os.symlink(tmp_path / "incidents" / "perf.yaml", link)
    said = _said(run_cli("run", str(link), "--host", "local", "--out", str(tmp_path / "runs")))
    assert f"is a symbolic link to {tmp_path / 'incidents' / 'perf.yaml'}, which does not exist" in said, said
    assert "no playbook file" not in said, said
    assert not (tmp_path / "runs").exists()


def test_a_loop_of_links_is_said_to_be_one(tmp_path):
    os.symlink(tmp_path / "b.yaml", tmp_path / "a.yaml")
    os.symlink(tmp_path / "a.yaml", tmp_path / "b.yaml")
    said = _said(run_cli("playbooks", "validate", str(tmp_path / "a.yaml")))
    assert "a loop of links" in said and "no playbook file" not in said, said


def test_a_missing_playbook_that_is_no_link_is_still_not_found(tmp_path):
    said = _said(run_cli("playbooks", "validate", str(tmp_path / "nope.yaml")))
    assert "no playbook file" in said, said
