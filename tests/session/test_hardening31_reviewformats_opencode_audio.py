"""Review of round 31's OpenCode files-alone prompts (formats): a voice note or other audio file sent
with no words (``{type: "file", mime: "audio/wav", filename: "note.wav"}``) was meant to be the prompt
``[audio note.wav]``, but its part was given to common.attachments_shown as type ``audio``, which it
does not know (its audio type is ``input_audio``): the message was no prompt at all, as before the
round, in the file storage and in the SQLite store alike."""

from __future__ import annotations

import importlib

from spec_debug.session import analyze_path

_FILES = importlib.import_module("tests.session.test_hardening21_formats_opencode")
_STORE = importlib.import_module("tests.session.test_hardening24_formats_opencode_store")


def _storage_with_audio_alone(tmp_path):
    storage = _FILES._storage(tmp_path)
    message = "msg_b03"
    _FILES._write(storage / "message" / _FILES.SESSION / f"{message}.json",
                  {"id": message, "sessionID": _FILES.SESSION, "role": "user", "time": {"created": 1767812680000}})
    _FILES._write(storage / "part" / message / "prt_31.json",
                  {"id": "prt_31", "sessionID": _FILES.SESSION, "messageID": message, "type": "file",
                   "mime": "audio/wav", "filename": "note.wav", "url": "file:///work/spec/note.wav"})
    return storage


def test_an_audio_file_sent_alone_is_the_prompt_in_the_file_storage_and_the_sqlite_store(tmp_path):
    storage = _storage_with_audio_alone(tmp_path)
    db = tmp_path / "opencode.db"
    _STORE._migrate(storage, db)
    for path in (storage, db):
        doc = analyze_path(path).to_json()
        assert [p["text"] for p in doc["prompts"]] == ["why is the accept length 1?", "[audio note.wav]"], path
