"""The Markdown GitHub Copilot CLI's ``/share`` writes is read as that export: the tool calls it
ran are the commands (``### ✅ `bash``` with its ``$ command`` line, ``### ✅ `powershell``` with
its Arguments block), each with the exit code of its ``<exited with exit code N>`` line and the
time its ``<sub>⏱️ …</sub>`` line gives after the start; the shell blocks in Copilot's replies are
suggestions, not commands. Before, it was read as a Markdown log: the suggested ``unset`` and
``export`` lines were commands, the calls had no exit code, the session no time.
Excerpt: data_hardening20_formats (SOURCE.md there: yididiel7/gitmydocs ``createtutorials/
copilot-session-e1ebe014-….md``, commit 8b97010e70e16dfef88c87321fe9d11b2ebf9505)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

REAL = Path(__file__).parent / "data_hardening20_formats" / "copilot-session-e1ebe014-169b-4ade-9855-454c2df7019f.md"


def test_the_calls_copilot_ran_are_the_commands_with_their_exit_codes():
    a = analyze_path(REAL)
    assert [(c.command[:23], c.exit_code, c.is_error) for c in a.commands] == [
        ("curl -s https://api.git", 0, False),
        ("npm run build-dev", 1, True),
    ]
    assert not any("GITHUB_TOKEN" in c.command for c in a.commands)  # a reply's suggestion
    assert all(c.result_seq is not None for c in a.commands)
    build = a.commands[1]
    assert build.description == "Build the project"


def test_the_times_are_the_start_plus_each_steps_offset():
    a = analyze_path(REAL)
    assert a.sessions[0]["first_timestamp"] == "2026-02-05T09:25:27"
    assert a.commands[0].timestamp == "2026-02-05T09:43:53"  # 9:25:26 AM + 18m 27s
    assert [p.text[:28] for p in a.prompts] == ["suggest How do i clear the G"]
