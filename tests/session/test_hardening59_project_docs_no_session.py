"""``spec-debug analyze <project>`` on a project folder holding its own documents beside a log:
``CHANGELOG.md`` (keepachangelog.com) and ``CONTRIBUTING.md`` (GitHub's community health files,
docs.github.com "Creating a default community health file") were read as shell logs: a session
each, the ``$ pip install -e .`` a CONTRIBUTING.md documents a command run. Now a folder scan leaves
them out, as README and LICENSE; named alone, such a file is still read."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

CHANGELOG = ("# Changelog\n\n## [0.4.1] - 2025-11-02\n### Fixed\n"
             "- `RuntimeError: CUDA error: an illegal memory access was encountered` with CUDA graphs on.\n")
CONTRIBUTING = "# Contributing\n\n```bash\n$ pip install -e \".[dev]\"\n$ pytest -q\n```\n"


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "eagle3"
    project.mkdir()
    (project / "CHANGELOG.md").write_text(CHANGELOG)
    (project / "CONTRIBUTING.md").write_text(CONTRIBUTING)
    (project / "code_of_conduct.md").write_text("# Code of conduct\n\nBe kind.\n")
    (project / "debug.log").write_text("$ nvidia-smi\nRuntimeError: CUDA error: out of memory\n")
    return project


def test_project_documents_are_no_sessions_in_a_scan(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path)).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["debug"]  # was CHANGELOG, CONTRIBUTING, code_of_conduct too
    assert [c["command"] for c in doc["commands"]] == ["nvidia-smi"]


def test_a_project_document_named_alone_is_read(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path) / "CONTRIBUTING.md").to_json()
    assert [c["command"] for c in doc["commands"]] == ['pip install -e ".[dev]"', "pytest -q"]


def test_a_transcript_saved_as_lowercase_changes_md_is_still_scanned(tmp_path: Path) -> None:
    project = tmp_path / "eagle3"
    project.mkdir()
    (project / "changes.md").write_text("$ nvidia-smi\nRuntimeError: CUDA error: out of memory\n")
    assert [s["id"] for s in analyze_path(project).to_json()["sessions"]] == ["changes"]
