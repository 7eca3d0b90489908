"""The OpenHands CLI keeps its conversations in ``~/.openhands/conversations/<id>/`` (``base_state.json``
and ``events/``, OpenHands/software-agent-sdk ``persistence_const.py``; read by formats.openhands_sdk).
A home scan passed the dot-folder by: no session. A repository's own ``.openhands/`` (its
microagents and setup script) is still passed by."""

from __future__ import annotations

import json

from spec_debug.session.sources import discover
from tests.session.test_hardening10_formats import _oh_conversation


def test_a_home_scan_finds_the_openhands_cli_s_conversations(tmp_path):
    home = tmp_path / "home"
    _oh_conversation(home / ".openhands" / "conversations")
    (home / ".openhands" / "settings.json").write_text(json.dumps({"llm_model": "anthropic/claude"}), encoding="utf-8")
    assert [(s.id, s.format) for s in discover(home)] == [("5f0c2a9e3d1b4c7a8e6f1a2b3c4d5e6f", "openhands")]


def test_a_repository_s_own_openhands_folder_is_passed_by(tmp_path):
    repo = tmp_path / "repo"
    agents = repo / ".openhands" / "microagents"
    agents.mkdir(parents=True)
    (agents / "repo.md").write_text("$ make test\n", encoding="utf-8")
    (repo / "run.log").write_text("$ nvidia-smi\nNo devices were found\n", encoding="utf-8")
    assert [s.path.name for s in discover(repo)] == ["run.log"]
