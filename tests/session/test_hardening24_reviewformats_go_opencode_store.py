"""OpenCode's Go releases (opencode-ai/opencode, Crush before its rename) keep a project's sessions in
``.opencode/opencode.db`` (data.directory ``.opencode``, ``internal/config/config.go``; ``opencode.db``,
``internal/db/connect.go``), Crush's tables, read as Crush's store when named. A scan of the project, or
of its ``.opencode`` folder, passed it by: 'no transcript files found'. A later OpenCode's project
``.opencode/`` (its commands and agents as Markdown, no store) is still passed by."""

from __future__ import annotations

import importlib
import shutil

from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

_CRUSH = importlib.import_module("tests.session.test_hardening22_formats_crush")


def _project(tmp_path):
    project = tmp_path / "proj"
    db = _CRUSH._store(project / ".crush")
    (project / ".opencode").mkdir()
    shutil.move(db, project / ".opencode" / "opencode.db")
    shutil.rmtree(project / ".crush")
    return project


def test_a_project_scan_reads_the_go_opencode_store(tmp_path):
    project = _project(tmp_path)
    for named in (project, project / ".opencode"):
        found = discover(named)
        assert {(s.format, s.path.name) for s in found} == {("crush", "opencode.db")}, named
        assert [s.id for s in found] == [s.id for s in discover(project / ".opencode" / "opencode.db")]
    assert analyze_path(project).to_json()["commands"]


def test_a_later_opencode_project_folder_is_still_passed_by(tmp_path):
    project = _project(tmp_path)
    (project / ".opencode" / "opencode.db").unlink()
    (project / ".opencode" / "command").mkdir()
    (project / ".opencode" / "command" / "review.md").write_text("Review the diff.\n", encoding="utf-8")
    (project / "notes.md").write_text("# notes\nvllm serve --speculative-config ...\n", encoding="utf-8")
    assert [s.path.name for s in discover(project)] == ["notes.md"]
