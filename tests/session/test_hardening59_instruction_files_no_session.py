"""``spec-debug analyze <project>`` on a project folder with its agents' instruction files beside
the logs: ``CLAUDE.md`` (Claude Code's memory file, code.claude.com docs "Manage Claude's memory"),
``AGENTS.md`` (Codex's, developers.openai.com ``codex/guides/agents-md``), ``GEMINI.md``. Each was
read as a shell log: the launch command it documents became a command the session ran (a server
launch), its rules ("Error: do not push to main") an error. Now those files, by their exact
names, are no sessions in a folder scan; a transcript saved under another name is still read."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LAUNCH = ("python -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /ckpt/draft --port 30000")
NOTES = f"# Project notes\n\n## Commands\n\n```bash\n$ {LAUNCH}\n```\n\nError: do not push to main.\n"


def test_instruction_files_are_no_sessions(tmp_path: Path) -> None:
    project = tmp_path / "eagle3"
    project.mkdir()
    for name in ("CLAUDE.md", "AGENTS.md", "GEMINI.md"):
        (project / name).write_text(NOTES)
    (project / "debug.log").write_text("$ nvidia-smi\nRuntimeError: CUDA error: out of memory\n")
    doc = analyze_path(project).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["debug"]  # was CLAUDE, AGENTS and GEMINI as well
    assert [c["command"] for c in doc["commands"]] == ["nvidia-smi"]
    assert "do not push" not in str(doc["errors"])


def test_a_transcript_saved_as_lowercase_claude_md_is_still_read(tmp_path: Path) -> None:
    project = tmp_path / "eagle3"
    project.mkdir()
    (project / "claude.md").write_text(f"$ {LAUNCH}\nRuntimeError: CUDA error: out of memory\n")
    doc = analyze_path(project).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["claude"]
