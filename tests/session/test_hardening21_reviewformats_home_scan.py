"""Review of the day's home-scan rules (``spec-debug analyze ~``).

A folder named ``agent`` holding ``sessions/`` and ``prompts/`` (or a ``models.json``) was taken
for the Pi coding agent's ``~/.pi/agent/`` wherever it stood, so a project's own ``agent/`` folder
gave only its ``sessions/``: the notes and logs beside them were no longer read. Pi's folder is
told by its parent, ``.pi``."""

from __future__ import annotations

from spec_debug.session import analyze_path


def _project_agent_folder(root):
    agent = root / "proj" / "agent"
    for sub in ("sessions", "prompts"):
        (agent / sub).mkdir(parents=True)
    (agent / "notes.md").write_text("# debug notes\n$ ssh gpu01 nvidia-smi\nRuntimeError: CUDA out of memory\n",
                                    encoding="utf-8")
    (agent / "prompts" / "run.log").write_text("$ make test\nerror: boom\n", encoding="utf-8")
    (agent / "sessions" / "s.log").write_text("$ ls\n", encoding="utf-8")
    (agent / "models.json").write_text("{}", encoding="utf-8")
    return agent


def test_a_projects_agent_folder_is_read_whole(tmp_path):
    _project_agent_folder(tmp_path)
    doc = analyze_path(tmp_path).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == ["notes", "run", "s"]
    assert [e["kind"] for e in doc["errors"]] == ["cuda_oom"]


def test_the_pi_agent_folder_itself_still_gives_only_its_sessions(tmp_path):
    agent = tmp_path / ".pi" / "agent"
    (agent / "sessions" / "--work--").mkdir(parents=True)
    (agent / "prompts").mkdir()
    (agent / "prompts" / "gpu.md").write_text("$ ssh gpu01 nvidia-smi\nRuntimeError: boom\n", encoding="utf-8")
    (agent / "sessions" / "--work--" / "s.log").write_text("$ ls\n", encoding="utf-8")
    for root in (tmp_path, agent):
        assert [s["id"] for s in analyze_path(root).to_json()["sessions"]] == ["s"], root


def _opencode_storage(home):
    """OpenCode's storage in a home folder: one session, a prompt and a failed bash call."""
    import json

    storage = home / ".local" / "share" / "opencode" / "storage"
    files = {
        "session/proj1/ses_0a1b.json": {"id": "ses_0a1b", "projectID": "proj1", "directory": "/work", "title": "gpu",
                                        "version": "0.15.0", "time": {"created": 1759392000000}},
        "message/ses_0a1b/msg_001.json": {"id": "msg_001", "sessionID": "ses_0a1b", "role": "user",
                                          "time": {"created": 1759392000000}},
        "message/ses_0a1b/msg_002.json": {"id": "msg_002", "sessionID": "ses_0a1b", "role": "assistant",
                                          "time": {"created": 1759392001000}},
        "part/msg_001/prt_001.json": {"id": "prt_001", "messageID": "msg_001", "type": "text", "text": "check gpu01"},
        "part/msg_002/prt_002.json": {"id": "prt_002", "messageID": "msg_002", "type": "tool", "callID": "c1",
                                      "tool": "bash", "state": {"status": "completed",
                                                                "input": {"command": "ssh gpu01 nvidia-smi"},
                                                                "output": "ssh: connect to host gpu01 port 22: "
                                                                          "Connection refused",
                                                                "metadata": {"exit": 255}}},
    }
    for name, record in files.items():
        (storage / name).parent.mkdir(parents=True, exist_ok=True)
        (storage / name).write_text(json.dumps(record), encoding="utf-8")
    (storage.parent / "auth.json").write_text('{"anthropic": {"type": "api", "key": "sk-ant-api03-x"}}')
    # the rest of ~/.local is no session: installed tools, other apps' data
    (home / ".local" / "share" / "notes.log").write_text("$ make test\nerror: boom\n", encoding="utf-8")
    (home / ".local" / "bin").mkdir(parents=True)
    (home / ".local" / "bin" / "run.txt").write_text("$ ls\n", encoding="utf-8")


def test_a_home_scan_reads_opencodes_sessions_under_local_share(tmp_path):
    home = tmp_path / "mei"
    _opencode_storage(home)
    doc = analyze_path(home).to_json()
    assert [(s["id"], s["format"]) for s in doc["sessions"]] == [("ses_0a1b", "opencode")]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("ssh gpu01 nvidia-smi", 255)]


def test_a_factory_home_with_projects_still_gives_its_sessions(tmp_path):
    """~/.factory holds settings.json and, beside sessions/, a projects/ folder: read as Claude
    Code's home (settings.json and projects/), only projects/ was entered."""
    import json

    factory = tmp_path / "mei" / ".factory"
    factory.mkdir(parents=True)
    (factory / "settings.json").write_text('{"model": "claude-sonnet-4-5"}', encoding="utf-8")
    (factory / "commands").mkdir(parents=True)
    (factory / "commands" / "gpu.md").write_text("$ ssh gpu01 nvidia-smi\nRuntimeError: boom\n", encoding="utf-8")
    ids = {"sessions": "d4e5f6a7-0000-4000-8000-00000000d003", "projects": "e5f6a7b8-0000-4000-8000-00000000d004"}
    for folder, session in ids.items():
        path = factory / folder / "-work" / f"{session}.jsonl"
        path.parent.mkdir(parents=True)
        rows = [{"type": "session_start", "id": session, "title": "gpu", "cwd": "/work"},
                {"type": "message", "id": "m1", "timestamp": "2026-10-02T08:00:00.000Z",
                 "message": {"role": "user", "content": [{"type": "text", "text": "check the GPU"}]}}]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    for root in (tmp_path / "mei", factory):
        assert sorted(s["id"] for s in analyze_path(root).to_json()["sessions"]) == sorted(ids.values()), root
