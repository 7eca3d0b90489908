"""Claude Code writes a pasted screenshot as the label its input showed, a text block ``[Image #1]``,
beside the image. A space or newline typed after the label kept the prompt from being read as
attachments alone (formats.common.only_attachments matched the text exactly): the postmortem was
titled '[Image #1]' and the words that followed were no report."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view

ASK = "Acceptance length on gpu01 is 1.0 since the upgrade. Why?"


def test_a_pasted_label_with_a_space_after_it_titles_nothing(tmp_path):
    envelope = {"sessionId": "s1", "cwd": "/w", "version": "2.1.210", "userType": "external", "isSidechain": False}
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    lines = [
        {**envelope, "type": "user", "uuid": "u1", "parentUuid": None, "timestamp": "2026-03-01T10:00:00.000Z",
         "message": {"role": "user", "content": [{"type": "text", "text": "[Image #1] \n"}, image]}},
        {**envelope, "type": "assistant", "uuid": "u2", "parentUuid": "u1", "timestamp": "2026-03-01T10:00:05.000Z",
         "message": {"id": "msg_1", "role": "assistant", "content": [{"type": "text", "text": "A flat line at 1.0."}]}},
        {**envelope, "type": "user", "uuid": "u3", "parentUuid": "u2", "timestamp": "2026-03-01T10:01:00.000Z",
         "message": {"role": "user", "content": [{"type": "text", "text": ASK}]}},
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    analysis = analyze_path(path)
    assert postmortem_view(analysis)["title"] == ASK
    assert [s.title for s in analysis.segments] == ["Conversation", ASK.split(". ")[0] + "."]
