"""A Gemini CLI session (~/.gemini/tmp/<project_hash>/chats/session-*.json, or the newer JSONL)
is read as one: its shell calls are commands on their hosts with their exit codes, and the crash
in their output is an error with its exception, file and line. Before, the JSON document was read
as OpenAI chat and the JSONL as Claude Code: every record of an unknown type, no command, no
error, a postmortem of nothing. Files: tests/data/transcripts_hardening19 (README there)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

DATA = Path(__file__).parent.parent / "data" / "transcripts_hardening19"
DOCUMENT = DATA / "session-2026-10-02T08-00-5d2c1e6a.json"
JSONL = DATA / "session-2026-10-02T08-00-5d2c1e6a.jsonl"


def _shell_commands(analysis):
    return [(c.host, c.port, c.exit_code, c.command) for c in analysis.commands]


@pytest.mark.parametrize("path", [DOCUMENT, JSONL], ids=["json-document", "jsonl"])
def test_a_gemini_session_has_its_commands_and_its_crash(path):
    a = analyze_path(path)
    assert a.sessions[0]["format"] == "gemini-cli"
    assert _shell_commands(a) == [
        ("gpu01", None, 0, "ssh gpu01 'tail -n 20 /tmp/sglang.log'"),
        ("gpu01", 2222, 255, "ssh -p 2222 root@gpu01 nvidia-smi"),
    ]  # read_file is a tool call, not a shell command
    assert a.stats["tool_calls"] == 3
    crash = next(e for e in a.errors if e.exception == "AttributeError")
    assert (crash.file, crash.line) == ("/sgl-workspace/sglang/python/sglang/srt/speculative/eagle_worker.py", 120)
    assert "hot_token_id" in crash.message
    refused = [e for e in a.errors if e.kind == "connection"]
    assert len(refused) == 1 and "port 2222: Connection refused" in refused[0].message
    # the shell tool's report is not an error of its own: no "Error: (none)" or "Exit Code: 0"
    assert not any("(none)" in (e.message or "") for e in a.errors)


def test_every_jsonl_line_is_an_event_and_a_newer_type_is_counted_not_fatal():
    a = analyze_path(JSONL)
    lines = [line for line in JSONL.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert a.sessions[0]["lines"] == len(lines)
    assert a.stats["unknown_types"] == 1  # compression_checkpoint; $set and $rewindTo are known
    assert a.stats["lines_skipped"] == 0


def test_the_prompt_log_beside_the_chats_is_no_session(tmp_path):
    """Before: ~/.gemini/tmp/<hash>/logs.json was a Claude Code session of one prompt."""
    with pytest.raises(UsageError) as err:
        analyze_path(DATA / "logs.json")
    assert "prompt log" in str(err.value)
    home = tmp_path / "tmp" / "3f1a9c0d"
    (home / "chats").mkdir(parents=True)
    shutil.copy(DOCUMENT, home / "chats" / DOCUMENT.name)
    shutil.copy(DATA / "logs.json", home / "logs.json")
    a = analyze_path(tmp_path)
    assert [(s["id"], s["format"]) for s in a.sessions] == [(DOCUMENT.stem, "gemini-cli")]


def test_a_forced_format_on_a_gemini_session_is_refused():
    with pytest.raises(UsageError) as err:
        analyze_path(JSONL, input_format="claude-code")
    assert "Gemini CLI session" in str(err.value)


def test_the_postmortem_names_the_crash():
    done = subprocess.run([sys.executable, "-m", "spec_debug", "analyze", str(DOCUMENT)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "AttributeError: 'LlamaForCausalLM' object has no attribute 'hot_token_id'" in done.stdout
    assert "gemini-cli" in done.stdout and "Traceback" not in done.stderr


def test_a_distilled_step_says_why_in_the_models_words():
    """A Gemini thought is `{subject, description}`; joined bare, the why read "Reading the server
    log The crash happens ..."."""
    from spec_debug.playbook import load_playbook_text
    from spec_debug.session.distill import distill_playbook, dump_playbook

    doc = distill_playbook(analyze_path(DOCUMENT))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")
    first = doc["steps"][0]
    assert first["run"] == "tail -n 20 {{ sglang_log }}"
    assert first["why"].startswith("Reading the server log. The crash happens at startup")


def _gemini_home(root: Path) -> Path:
    """~/.gemini as Gemini CLI leaves it: settings and instructions at the top, each project's
    sessions, prompt log and /chat save checkpoints under tmp/<project_hash>/."""
    home = root / ".gemini"
    project = home / "tmp" / "3f1a9c0d4e2b7a8c"
    (project / "chats").mkdir(parents=True)
    shutil.copy(DOCUMENT, project / "chats" / DOCUMENT.name)
    shutil.copy(DATA / "logs.json", project / "logs.json")
    shutil.copy(DATA / "checkpoint-eagle3-accept.json", project / "checkpoint-eagle3.json")
    (home / "GEMINI.md").write_text("# Notes\n\nAlways run `nvidia-smi` first.\n\n```bash\n$ nvidia-smi\n```\n",
                                    encoding="utf-8")
    (home / "settings.json").write_text('{"security": {"auth": {"selectedType": "oauth-personal"}}}', encoding="utf-8")
    (home / "installation_id").write_text("0d4c1f7e-2a9b-4c3d-8e5f-6a7b8c9d0e1f", encoding="utf-8")
    return home


def test_the_gemini_home_gives_its_sessions_only(tmp_path):
    """Before: GEMINI.md was a shell log of its own and the checkpoint a second copy of the talk."""
    a = analyze_path(_gemini_home(tmp_path))
    assert [(s["id"], s["format"]) for s in a.sessions] == [(DOCUMENT.stem, "gemini-cli")]
    assert len(a.commands) == 2


def test_a_project_with_gemini_md_and_a_tmp_folder_is_scanned_whole(tmp_path):
    """Only ~/.gemini is narrowed to tmp/: a project keeps its own GEMINI.md and tmp/ too."""
    (tmp_path / "tmp").mkdir()
    (tmp_path / "GEMINI.md").write_text("# Project notes\n", encoding="utf-8")
    shutil.copy(DOCUMENT, tmp_path / DOCUMENT.name)
    a = analyze_path(tmp_path)
    assert DOCUMENT.stem in [s["id"] for s in a.sessions]
