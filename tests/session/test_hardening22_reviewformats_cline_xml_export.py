"""Exports of the XML-calling releases (review of 0be1f66): Cline before native tool calls, Roo
Code and IBM Bob (a Roo Code fork, ``bob_task_<date>.md``) export the reply's text as it was, the
call in it as XML (``<execute_command>\\n<command>…</command>\\n</execute_command>``), and head the
result ``[execute_command for '…'] Result:``; Bob adds a note after the quote (``[read_file for
'.bob'. Reading multiple files at once is more efficient ...] Result:``). Shapes from public
exports (a Bob export's ``git clone`` that failed with ``Exit code: 1``; a Cline export's mocha run,
``Command executed.\\nOutput:``). Read with the ``[Tool Use: …]`` reader alone, no command was
found and each result was a prompt."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

ENV = ("<environment_details>\n# VSCode Visible Files\ncli.py\n\n# Current Time\nCurrent time in ISO 8601 UTC "
       "format: {}\nUser time zone: America/Toronto, UTC-4:00\n</environment_details>")
CLONE = "cd d:/dev/bob && git clone https://github.com/example/eagle3-bench.git"
HEREDOC = "cat <<EOF > run.sh\nssh gpu-3 nvidia-smi\nEOF"


def _export(path: Path) -> Path:
    turns = [
        "**User:**\n\n<task>\nclone the bench and check gpu-3\n</task>\n" + ENV.format("2026-05-16T19:39:07.553Z"),
        "**Assistant:**\n\nLet me read the config first.\n\n<read_file>\n<args>\n  <file>\n    <path>.bob</path>\n"
        "  </file>\n</args>\n</read_file>",
        "**User:**\n\n[read_file for '.bob'. Reading multiple files at once is more efficient for the LLM. If other "
        "files are relevant to your current task, please read them simultaneously.] Result:\n<files>\n<file><path>.bob"
        "</path><error>File not found</error></file>\n</files>\n" + ENV.format("2026-05-16T19:39:12.662Z"),
        f"**Assistant:**\n\n<execute_command>\n<command>{CLONE}</command>\n</execute_command>",
        f"**User:**\n\n[execute_command for '{CLONE}'] Result:\nCommand executed in terminal  within working "
        "directory 'd:/dev/bob'. Command execution was not successful, inspect the cause and adjust as needed.\n"
        "Exit code: 1\nOutput:\nThe token '&&' is not a valid statement separator in this version.\n"
        + ENV.format("2026-05-16T19:40:11.496Z"),
        f"**Assistant:**\n\n<thinking>\nWrite the script.\n</thinking>\n\n<execute_command>\n<command>{HEREDOC}"
        "</command>\n</execute_command>",
        f"**User:**\n\n[execute_command for '{HEREDOC}'] Result:\nCommand executed.\nOutput:\n"
        + ENV.format("2026-05-16T19:41:00.000Z"),
    ]
    path.write_text("\n\n---\n\n".join(turns) + "\n", encoding="utf-8")
    return path


def test_an_export_with_xml_calls_gives_their_commands_results_and_prompts(tmp_path):
    doc = analyze_path(_export(tmp_path / "bob_task_may-16-2026_1-13-34-am.md")).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        (CLONE, 1, True), (HEREDOC, None, False)]
    assert [p["text"] for p in doc["prompts"]] == ["<task>\nclone the bench and check gpu-3\n</task>"]
    assert doc["stats"]["tool_calls"] == 3  # read_file too
    assert doc["sessions"][0]["last_timestamp"] == "2026-05-16T19:41:00.000Z"
