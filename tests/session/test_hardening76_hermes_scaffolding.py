"""Hermes Agent writes user rows of its own around (or instead of) what the person asked: a cron
job's prompt opens with the scheduler's hint (``[IMPORTANT: You are running as a scheduled cron job.
DELIVERY: … [SILENT] …]``, ``[SYSTEM: …`` in earlier releases; ``cron/scheduler.py``
``_build_job_prompt``), a skill's invocation puts the skill's body before ``The user has provided the
following instruction alongside the skill invocation: …`` (``agent/skill_commands.py``), a cron job
whose skills are missing opens with ``[IMPORTANT: The following skill(s) were listed for this job but
could not be found …]``; and the gateway's model switch (``[System: The active model for this chat
has changed to …]``), an MCP reload and a batch of ended background processes are notes alone (the
prefixes Hermes's own ``agent/context_compressor.py`` and ``agent/title_generator.py`` take for rows no
person wrote).

Before: each was a prompt the person typed, whole: the cron hint was the session's first prompt and
its title, a model switch a request. Now the person's words are the prompt and the rest a note."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from spec_debug.session import analyze_path

ASKED = "Check the EAGLE-3 server on gpu01: its acceptance length, and whether it still answers."
HINT = ("[IMPORTANT: You are running as a scheduled cron job. DELIVERY: Your final response will be automatically "
        "delivered to the user — do NOT use send_message or try to deliver the output yourself. Just produce your "
        "report/output as your final response and the system handles the rest. SILENT: If there is genuinely nothing "
        "new to report, respond with exactly \"[SILENT]\" (nothing else) to suppress delivery. Never combine [SILENT] "
        "with content — either report your findings normally, or say [SILENT] and nothing more.]")
OLD_HINT = ("[SYSTEM: You are running as a scheduled cron job. DELIVERY: Your final response will be automatically "
            "delivered to the user — do NOT use send_message or try to deliver the output yourself. SILENT: If there "
            "is genuinely nothing new to report, respond with exactly \"[SILENT]\" (nothing else) to suppress "
            "delivery.]")
SKILL = ('[IMPORTANT: The user has invoked the "gpu-health" skill, indicating they want you to follow its '
         "instructions. The full skill content is loaded below.]\n\n# GPU health\n\nRun `nvidia-smi` and "
         "`curl localhost:30000/health` on the host named.\n\n[Skill directory: /root/.hermes/skills/gpu-health]")
MISSING = ("[IMPORTANT: The following skill(s) were listed for this job but could not be found and were skipped: "
           "google-workspace. Start your response with a brief notice so the user is aware, e.g.: '⚠️ Skill(s) not "
           "found and skipped: google-workspace']")
INSTRUCTION = "The user has provided the following instruction alongside the skill invocation: "


def _snapshot(tmp_path: Path, *users: str) -> Path:
    messages: list[dict] = []
    for n, text in enumerate(users):
        messages += [{"role": "user", "content": text}, {"role": "assistant", "content": f"Answer {n}."}]
    path = tmp_path / "session_cron_a9b330e497a5_20261102_080010.json"
    path.write_text(json.dumps({"session_id": "cron_a9b330e497a5_20261102_080010", "messages": messages}))
    return path


def _prompts(path: Path) -> list[str]:
    return [p["text"] for p in analyze_path(path).to_json()["prompts"]]


def test_a_cron_jobs_prompt_is_the_jobs_words(tmp_path: Path) -> None:
    assert _prompts(_snapshot(tmp_path, f"{HINT}\n\n{ASKED}")) == [ASKED]  # was the hint, whole


def test_an_earlier_releases_hint_too(tmp_path: Path) -> None:
    assert _prompts(_snapshot(tmp_path, f"{OLD_HINT}\n\n{ASKED}")) == [ASKED]


def test_a_skills_body_is_no_prompt_its_instruction_is(tmp_path: Path) -> None:
    path = _snapshot(tmp_path, f"{SKILL}\n\n{INSTRUCTION}{ASKED}\n\n[Runtime note: the gateway restarted at 08:00]")
    assert _prompts(path) == [ASKED]
    assert _prompts(_snapshot(tmp_path, SKILL)) == []  # invoked with no words of the person's


def test_a_cron_job_with_missing_skills_and_its_hint_in_the_instruction(tmp_path: Path) -> None:
    assert _prompts(_snapshot(tmp_path, f"{MISSING}\n\n{INSTRUCTION}{HINT}\n\n{ASKED}")) == [ASKED]
    assert _prompts(_snapshot(tmp_path, f"{MISSING}\n{SKILL}\n\n{INSTRUCTION}{HINT}\n\n{ASKED}")) == [ASKED]


def test_notes_hermes_wrote_are_no_prompts(tmp_path: Path) -> None:
    path = _snapshot(tmp_path, ASKED,
                     "[System: The active model for this chat has changed to hermes-4-405b via provider nous. From "
                     "this point forward, use this runtime metadata when answering questions about what "
                     "model/provider is active.]",
                     "[IMPORTANT: MCP servers have been reloaded. Added servers: ssh. 4 MCP tool(s) now available. "
                     "The tool list for this conversation has been updated accordingly.]",
                     "[IMPORTANT: 2 background processes completed for this session.\nTreat these results as one "
                     "completion batch and send at most one consolidated user-facing response.",
                     "now restart it with --speculative-num-steps 5")
    assert _prompts(path) == [ASKED, "now restart it with --speculative-num-steps 5"]


def test_a_cron_session_in_the_store_is_titled_by_its_job(tmp_path: Path) -> None:
    store = tmp_path / "state.db"
    conn = sqlite3.connect(store)
    conn.executescript(
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, parent_session_id TEXT,"
        " started_at REAL NOT NULL, end_reason TEXT);"
        "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,"
        " content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL);")
    conn.execute("INSERT INTO sessions VALUES ('cron_a9b330e497a5_20261102_080010', 'cron', 'm', NULL, 1793606410, NULL)")
    conn.executemany("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)", [
        ("cron_a9b330e497a5_20261102_080010", "user", f"{HINT}\n\n{ASKED}", 1793606410),
        ("cron_a9b330e497a5_20261102_080010", "assistant", "[SILENT]", 1793606420)])
    conn.commit()
    conn.close()
    doc = analyze_path(store).to_json()
    assert [p["text"] for p in doc["prompts"]] == [ASKED]


def test_a_skill_bundles_instruction_is_the_prompt(tmp_path: Path) -> None:
    bundle = ('[IMPORTANT: The user has invoked the "gpu-triage" skill bundle, indicating they want you to follow the '
              "instructions of the skills it loads. The full skill contents are loaded below.]\n"
              f"User instruction: {ASKED}\n\n[Loaded as part of the \"gpu-triage\" bundle]\n# GPU health\n\nRun "
              "`nvidia-smi` on the host named.")
    assert _prompts(_snapshot(tmp_path, bundle)) == [ASKED]
