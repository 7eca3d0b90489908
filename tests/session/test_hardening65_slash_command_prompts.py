"""A slash command the person typed is their prompt, as typed (``/name args``).

Claude Code writes a prompt command (one of the person's .claude/commands, a plugin's, a skill's)
as ``<command-message>name is running…</command-message>`` with its ``<command-name>`` and
``<command-args>``, then the command's expansion as an ``isMeta`` line. Read as the CLI's markup,
a session driven by ``/perf-triage gpu01`` had no prompt at all."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

INVOKED = ("<command-message>perf-triage is running…</command-message>\n<command-name>/perf-triage</command-name>\n"
           "<command-args>gpu01  sglang</command-args>")
EXPANSION = "# Perf triage\n\nThe EAGLE-3 server on gpu01 is slower than baseline.\n\nARGUMENTS: gpu01 sglang"


def _session(tmp_path: Path, first: dict, *, as_blocks: bool = False) -> Path:
    def user(content, **extra):
        line = {"type": "user", "sessionId": "s", "cwd": "/r", "version": "2.0.22", "timestamp": "2026-03-02T10:00:00Z",
                "message": {"role": "user", "content": [{"type": "text", "text": content}] if as_blocks else content}}
        line.update(extra)
        return line

    lines = [
        user(first.pop("text", INVOKED), **first),
        user(EXPANSION, isMeta=True),
        {"type": "assistant", "sessionId": "s", "timestamp": "2026-03-02T10:00:05Z", "message": {
            "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                                              "input": {"command": "ssh gpu01 'ps aux | grep sglang'"}}]}},
        {"type": "user", "sessionId": "s", "timestamp": "2026-03-02T10:00:06Z", "message": {
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "root 1 python"}]}},
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_typed_prompt_command_is_the_persons_prompt_as_typed(tmp_path):
    for as_blocks in (False, True):
        a = analyze_path(_session(tmp_path, {}, as_blocks=as_blocks))
        assert [(p.seq, p.text) for p in a.prompts] == [(0, "/perf-triage gpu01 sglang")]
        assert a.segments[0].title.startswith("/perf-triage gpu01 sglang")


def test_name_before_message_and_no_args(tmp_path):
    text = "<command-name>/review</command-name>\n<command-message>review is running…</command-message>"
    a = analyze_path(_session(tmp_path, {"text": text}))
    assert [p.text for p in a.prompts] == ["/review"]


def test_what_the_person_did_not_type_stays_the_clis(tmp_path):
    cases = [
        {"isMeta": True},                               # the CLI's own line
        {"isReplay": True},                             # stream-json's replay of a prompt read already
        {"sourceToolUseID": "toolu_1"},                 # the model's Skill / SlashCommand call
        {"isSidechain": True},                          # a sub-agent types no command
        {"origin": {"kind": "task-notification"}},      # a scheduled firing
        # a builtin that only prints (no "is running"), and markup with no command name
        {"text": "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>"},
        {"text": "<command-message>x is running…</command-message>"},
    ]
    for first in cases:
        a = analyze_path(_session(tmp_path, dict(first)))
        assert a.prompts == [], first
