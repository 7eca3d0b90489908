"""A ``claude-prompts`` export (``# Claude Session Export``) writes each message's time as
``new Date(timestamp).toLocaleString()``, in the exporting machine's locale (developerisnow/
claude-code-exporter ``lib/index.js``, ``formatConversationMessage``): ``11/30/2025, 11:38:20 PM``
only on an en-US machine.

Before, a German export's time line (``> 30.11.2025, 23:38:20``) was taken for the start of the
message's text: every message of blocks read as a prompt of JSON, and the session had no command
and no error. A British one (``30/11/2025, 23:38:20``) was read month first, and each command's
time was ``2025-30-11T23:38:20``, no date at all. Now the time line is read in the locales that
write one, and one that cannot be read is dropped, never taken for the message."""

from __future__ import annotations

import pytest

from spec_debug.session import analyze_path
from tests.session.test_hardening62_claude_prompts_export import _export

US = ["11/30/2025, 11:38:19 PM", "11/30/2025, 11:38:20 PM", "11/30/2025, 11:48:23 PM", "11/30/2025, 11:48:27 PM",
      "11/30/2025, 11:48:40 PM"]
TIMES = ["23:38:19", "23:38:20", "23:48:23", "23:48:27", "23:48:40"]
COMMANDS = [("python3 checks/load_draft.py", True), ("pip install safetensors", False)]


def _in_locale(tmp_path, written: list[str]):
    path = _export(tmp_path)
    text = path.read_text(encoding="utf-8")
    for us, other in zip(US, written):
        text = text.replace(f"\n> {us}\n", f"\n> {other}\n")
    path.write_text(text, encoding="utf-8")
    return analyze_path(path).to_json()


@pytest.mark.parametrize("locale, form", [
    ("en-US", None),
    ("de-DE", "30.11.2025, {}"),
    ("ru-RU", "30.11.2025, {}"),
    ("en-GB", "30/11/2025, {}"),
    ("fr-FR", "30/11/2025 {}"),
    ("sv-SE", "2025-11-30 {}"),
    ("ja-JP", "2025/11/30 {}"),
])
def test_each_locale_reads_the_same_session(tmp_path, locale, form) -> None:
    doc = _in_locale(tmp_path, US if form is None else [form.format(t) for t in TIMES])
    assert [p["text"] for p in doc["prompts"]] == ["why does the draft server crash on start?"]
    assert [(c["command"], c["is_error"], c["timestamp"]) for c in doc["commands"]] == [
        (*COMMANDS[0], "2025-11-30T23:38:20"), (*COMMANDS[1], "2025-11-30T23:48:27")]
    assert [(e["exception"], e["message"]) for e in doc["errors"]] == [
        ("ModuleNotFoundError", "No module named 'safetensors'")]


def test_a_day_first_date_that_reads_both_ways_is_read_day_first(tmp_path) -> None:
    # en-GB's 3 November (a 24-hour clock and no AM/PM): not 11 March
    doc = _in_locale(tmp_path, [f"03/11/2025, {t}" for t in TIMES])
    assert [c["timestamp"] for c in doc["commands"]] == ["2025-11-03T23:38:20", "2025-11-03T23:48:27"]


@pytest.mark.parametrize("written", ["2025. 11. 30. 오후 11:38:19", "Invalid Date"])
def test_a_time_line_it_cannot_read_is_no_part_of_the_message(tmp_path, written) -> None:
    doc = _in_locale(tmp_path, [written] * 5)
    assert [p["text"] for p in doc["prompts"]] == ["why does the draft server crash on start?"]
    assert [(c["command"], c["is_error"], c["timestamp"]) for c in doc["commands"]] == [
        (*COMMANDS[0], None), (*COMMANDS[1], None)]
