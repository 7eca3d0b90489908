"""Cline's and Roo Code's exported tasks (``cline_task_<date>.md``, ``roo_task_<date>.md``): the
shapes of public exports of both (Roo Code's ``[Tool]`` results with ``Exit code: N`` and two
spaces before "within", ``[Reasoning]``, the environment details' ISO time; an older Cline's
``[execute_command]`` result headers and local ``# Current Time``), as cline/cline
``src/integrations/misc/export-markdown.ts`` writes them. Before: a plain Markdown log with no
command, no result, no failure and no time."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

ROO_ENV = ("<environment_details>\n# VSCode Visible Files\n\n\n# Current Time\nCurrent time in ISO 8601 UTC format: "
           "{}\nUser time zone: Asia/Saigon, UTC+7:00\n\n# Current Mode\n<slug>code</slug>\n</environment_details>")
CLINE_ENV = "<environment_details>\n# VSCode Visible Files\napp.py\n\n# Current Time\n{}\n</environment_details>"


def _export(path: Path, turns: list[str]) -> Path:
    path.write_text("\n\n---\n\n".join(turns) + "\n\n", encoding="utf-8")
    return path


def test_a_roo_code_export_gives_commands_exit_codes_failures_and_times(tmp_path):
    md = _export(tmp_path / "roo_task_jan-20-2026_3-04-01-pm.md", [
        "**User:**\n\n<task>\nwhy does vllm on gpu-3 reject the eagle3 draft?\n</task>\n"
        + ROO_ENV.format("2026-01-20T15:04:01.384Z"),
        "**Assistant:**\n\n[Reasoning]\nRead the server log first.\n[Tool Use: execute_command]\n"
        "Command: ssh gpu-3 journalctl -u vllm -n 20\nCwd: .\nTimeout: null",
        "**User:**\n\n[Tool]\nCommand executed in terminal  within working directory 'd:/work'. Command execution was "
        "not successful, inspect the cause and adjust as needed.\nExit code: 255\nOutput:\n"
        "ssh: connect to host gpu-3 port 22: Connection refused\n\n" + ROO_ENV.format("2026-01-20T15:04:22.414Z"),
        "**Assistant:**\n\n[Tool Use: write_to_file]\nPath: notes.md\nContent: # Notes\n\n---\n\nCommand: not a call",
        "**User:**\n\n[Tool]\n{\"path\":\"notes.md\",\"operation\":\"created\"}\n"
        + ROO_ENV.format("2026-01-20T15:05:00.000Z"),
        "**Assistant:**\n\n[Tool Use: execute_command]\nCommand: nvidia-smi\nCwd: .",
        "**User:**\n\n[Tool]\nCommand executed in terminal within working directory 'd:/work'. Exit code: 0\nOutput:\n"
        "No devices were found\n" + ROO_ENV.format("2026-01-20T15:06:12.322Z"),
        "**Assistant:**\n\nThe host refuses ssh; the GPU is not visible.",
        "**User:**\n\n[ERROR] You did not use a tool in your previous response! Please retry with a tool use.\n"
        + ROO_ENV.format("2026-01-20T15:06:52.710Z"),
    ])
    doc = analyze_path(md).to_json()
    (session,) = doc["sessions"]
    assert (session["first_timestamp"], session["last_timestamp"]) == ("2026-01-20T15:04:01.384Z",
                                                                        "2026-01-20T15:06:52.710Z")
    assert [(c["command"], c["host"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        ("ssh gpu-3 journalctl -u vllm -n 20", "gpu-3", 255, True), ("nvidia-smi", None, 0, False)]
    assert [p["text"] for p in doc["prompts"]] == ["<task>\nwhy does vllm on gpu-3 reject the eagle3 draft?\n</task>"]
    assert any(e["kind"] == "connection" and e["host"] == "gpu-3" for e in doc["errors"])


def test_an_older_cline_export_gives_its_commands_and_denials(tmp_path):
    md = _export(tmp_path / "cline_task_oct-1-2024_9-12-00-am.md", [
        "**User:**\n\n<task>\nrestart the server on gpu-3\n</task>\n"
        + CLINE_ENV.format("10/1/2024, 9:12:00 AM (America/New_York, UTC-4:00)"),
        "**Assistant:**\n\n<thinking>\nRestart it.\n</thinking>\n[Tool Use: execute_command]\n"
        "Command: ssh root@gpu-3 systemctl restart vllm\nRequires_approval: true",
        "**User:**\n\n[execute_command]\nThe user denied this operation and provided the following feedback:\n"
        "<feedback>\nnot on the production host\n</feedback>\n"
        + CLINE_ENV.format("10/1/2024, 9:13:00 AM (America/New_York, UTC-4:00)"),
        "**Assistant:**\n\n[Tool Use: execute_command]\nCommand: python app.py",
        "**User:**\n\n[execute_command]\nCommand is still running in the user's terminal.\nHere's the output so far:\n"
        " * Running on http://127.0.0.1:5000",
        "**Assistant:**\n\n[Tool Use: attempt_completion]\nResult: The server runs.\n\nOpen it to see.\n"
        "Command: xdg-open http://127.0.0.1:5000",
        "**User:**\n\n[Tool Result]\nThe user is not pleased with the results.\n<feedback>\nnot yet\n</feedback>",
    ])
    doc = analyze_path(md).to_json()
    assert [(c["command"], c["host"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        ("ssh root@gpu-3 systemctl restart vllm", "gpu-3", None, True), ("python app.py", None, None, False),
        ("xdg-open http://127.0.0.1:5000", None, None, False)]
    assert doc["sessions"][0]["first_timestamp"] == "2024-10-01T13:12:00.000Z"
    assert [p["text"] for p in doc["prompts"]] == ["<task>\nrestart the server on gpu-3\n</task>"]
