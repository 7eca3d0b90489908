"""The Cline CLI 3 writes ``<sessionId>.compaction.json`` in the session's folder after a compaction:
the context the model is sent from then on, ``{version: 1, updated_at, source_message_count, messages,
system_prompt}``, a summary and the last of the session's own messages, which ``<sessionId>.messages.json``
keeps whole (cline/cline ``sdk/packages/core/src/session/models/session-compaction.ts``,
``src/session/session-artifacts.ts`` ``sessionCompactionPath``). A scan of the session's folder read it as
a second session: the commands its kept messages hold counted twice."""

from __future__ import annotations

import importlib
import json

from spec_debug.session import analyze_path

_SDK = importlib.import_module("tests.session.test_hardening23_reviewformats_cline_sdk_sessions")


def test_the_compaction_sidecar_is_no_session_of_its_own(tmp_path):
    folder = _SDK._session(tmp_path / "home")
    doc = json.loads((folder / f"{_SDK.SESSION}.messages.json").read_text(encoding="utf-8"))
    summary = {"role": "user", "content": [{"type": "text", "text": "Summary: the server was started on gpu-3."}]}
    sidecar = {"version": 1, "updated_at": "2026-04-25T00:00:00.000Z", "source_message_count": len(doc["messages"]),
               "messages": [summary, *doc["messages"][1:]]}
    (folder / f"{_SDK.SESSION}.compaction.json").write_text(json.dumps(sidecar), encoding="utf-8")
    for named in (folder, tmp_path / "home"):
        got = analyze_path(named).to_json()
        assert [s["id"] for s in got["sessions"]] == [_SDK.SESSION], named
        assert [c["command"] for c in got["commands"]] == [_SDK.LAUNCH], named
