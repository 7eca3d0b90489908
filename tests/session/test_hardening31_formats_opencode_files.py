"""OpenCode user messages made of attached files alone (a pasted screenshot, a PDF sent with no
words): a ``file`` part ``{type: "file", mime, filename, url, source?}`` (sst/opencode
``packages/opencode/src/session/message-v2.ts`` ``FilePart``) and no typed text part. OpenCode's TUI
shows such a message's files as a badge by mime and the file's name (``packages/opencode/src/cli/
cmd/tui/routes/session/index.tsx`` ``UserMessage``, ``MIME_BADGE``). Before: the file part was
bookkeeping and the message no prompt at all, in the file storage and in the SQLite store alike; the
person's turn vanished from the prompts. Now it is the prompt ``[image shot.png]``, as the Claude
Code, Codex and OpenAI readers say a prompt of attachments alone (formats.common.attachments_shown)."""

from __future__ import annotations

import importlib
from pathlib import Path

from spec_debug.session import analyze_path

_FILES = importlib.import_module("tests.session.test_hardening21_formats_opencode")
_STORE = importlib.import_module("tests.session.test_hardening24_formats_opencode_store")
SESSION = _FILES.SESSION
PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def _part(n: int, message: str, **fields) -> dict:
    return {"id": f"prt_{n:02d}", "sessionID": SESSION, "messageID": message, **fields}


def _add_messages(storage: Path) -> None:
    """Three more user turns: a screenshot alone; a PDF and a directory with the file's contents
    OpenCode adds as synthetic text; words with an image (the words are the prompt)."""
    turns = {
        "msg_b03": [_part(31, "msg_b03", type="file", mime="image/png", filename="spec-decode-accept.png", url=PNG)],
        "msg_b04": [_part(41, "msg_b04", type="text", synthetic=True,
                          text="Called the Read tool with the following input: {\"filePath\": \"/work/spec/log.pdf\"}"),
                    _part(42, "msg_b04", type="file", mime="application/pdf", filename="log.pdf",
                          url="file:///work/spec/log.pdf",
                          source={"type": "file", "path": "log.pdf", "text": {"value": "@log.pdf", "start": 0,
                                                                               "end": 8}}),
                    _part(43, "msg_b04", type="file", mime="application/x-directory", url="file:///work/spec/runs",
                          source={"type": "file", "path": "runs/", "text": {"value": "@runs/", "start": 9,
                                                                            "end": 15}})],
        "msg_b05": [_part(51, "msg_b05", type="text", text="and this one?"),
                    _part(52, "msg_b05", type="file", mime="image/jpeg", filename="second.jpg", url=PNG)],
    }
    for n, (message, parts) in enumerate(turns.items()):
        _FILES._write(storage / "message" / SESSION / f"{message}.json",
                      {"id": message, "sessionID": SESSION, "role": "user",
                       "time": {"created": 1767812680000 + n * 1000}})
        for part in parts:
            _FILES._write(storage / "part" / message / f"{part['id']}.json", part)


EXPECTED = ["why is the accept length 1?", "[image spec-decode-accept.png]", "[file log.pdf] [file runs/]",
            "and this one?"]


def test_a_message_of_files_alone_is_the_prompt_the_tui_shows_in_the_file_storage(tmp_path):
    storage = _FILES._storage(tmp_path)
    _add_messages(storage)
    doc = analyze_path(storage).to_json()
    assert [p["text"] for p in doc["prompts"]] == EXPECTED
    assert doc["sessions"][0]["unknown_types"] == 0


def test_a_message_of_files_alone_is_the_prompt_the_tui_shows_in_the_sqlite_store(tmp_path):
    storage = _FILES._storage(tmp_path)
    _add_messages(storage)
    db = tmp_path / "opencode.db"
    _STORE._migrate(storage, db)
    doc = analyze_path(db).to_json()
    assert [p["text"] for p in doc["prompts"]] == EXPECTED
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]][:2] == [(_FILES.LAUNCH, 1), ("nvidia-smi", 0)]
