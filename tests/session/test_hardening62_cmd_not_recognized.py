"""An agent on Windows runs ``ls src -la`` through a ``run_command`` tool and cmd.exe answers
"'ls' is not recognized as an internal or external command,\\noperable program or batch file.":
nothing ran. Seen in a real log, rocketvish/bearing-research ``transcript.jsonl`` (commit
0513886c53b96665f5425d230a3633a5af7eae37): an Anthropic-messages list, one ``{"role", "content"}``
object a line, which records no exit status. Before: the command read as run (no error, not
failed), while PowerShell's and bash's refusals of the same command were read. Now cmd.exe's
refusal is the command's error, as theirs are. The lines below are written in that file's shape
(the messages are cmd.exe's, the rest mine)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.messages_runs import write_messages_runs

CMD_REFUSAL = "'ls' is not recognized as an internal or external command,\noperable program or batch file.\n"


def _session(tmp_path: Path, calls: list[tuple[str, str]]) -> Path:
    return write_messages_runs(tmp_path / "transcript.jsonl", "Check what the src folder holds, then run the tests.",
                               calls, system="You are a coding agent. You have access to three tools: read_file, "
                                             "write_file, and run_command.")


def test_cmd_refusal_is_the_commands_error(tmp_path: Path) -> None:
    doc = analyze_path(_session(tmp_path, [
        ("ls src -la", CMD_REFUSAL),
        ("dir src", " Volume in drive C has no label.\n Directory of C:\\Users\\me\\proj\\src\n\n"
                    "04/29/2026  10:32 PM             5,141 db.js\n"),
    ])).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [("ls src -la", True), ("dir src", False)]
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [
        ("tool_error", "'ls' is not recognized as an internal or external command,")]


def test_cmd_refusal_of_ssh_is_the_local_machines(tmp_path: Path) -> None:
    """No ssh client on the Windows machine: the refusal is the prompt host's, gpu01 was never reached."""
    doc = analyze_path(_session(tmp_path, [
        ("ssh gpu01 nvidia-smi", CMD_REFUSAL.replace("'ls'", "'ssh'")),
    ])).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [("ssh gpu01 nvidia-smi", True)]
    assert [(e["host"], e["message"]) for e in doc["errors"]] == [
        (None, "'ssh' is not recognized as an internal or external command,")]


def test_a_listing_that_quotes_the_words_is_no_refusal(tmp_path: Path) -> None:
    """The words inside a line of other text (a grep of a README) are no refusal of the command."""
    doc = analyze_path(_session(tmp_path, [
        ("findstr recognized README.md", "If you see 'ls' is not recognized as an internal or external command,"
                                         " use dir.\n"),
    ])).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [("findstr recognized README.md", False)]
    assert doc["errors"] == []
