"""Hermes Agent's ``patch`` tool edits a file by find-and-replace (``{"path", "old_string",
"new_string"}``) or, in its V4A mode, by a patch whose lines name the files: ``{"mode": "patch",
"patch": "*** Begin Patch\\n*** Update File: serve.py\\n@@ ..."}`` (NousResearch/hermes-agent
``tools/file_tools.py``; the same form as Codex's ``apply_patch``).

Before: a V4A patch was an edit of no file: the change to the server's launch script was missing
from the session's file edits. Now the file the patch names is the edit's."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

PATCH = ("*** Begin Patch\n*** Update File: /w/serve_eagle3.sh\n@@\n-  --speculative-num-steps 3 \\\n"
         "+  --speculative-num-steps 5 \\\n*** End Patch")


def test_a_v4a_patch_is_an_edit_of_the_file_it_names(tmp_path: Path) -> None:
    path = tmp_path / "session_20261102_100000_5e6f7a.json"
    path.write_text(json.dumps({"session_id": "20261102_100000_5e6f7a", "messages": [
        {"role": "user", "content": "use 5 draft steps"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c0", "type": "function", "function": {
            "name": "patch", "arguments": json.dumps({"mode": "patch", "patch": PATCH})}}]},
        {"role": "tool", "tool_call_id": "c0", "content": json.dumps({"success": True, "diff": PATCH})},
        {"role": "assistant", "content": "Done."}]}))
    a = analyze_path(path)
    assert [(e.path, e.tool, e.category) for e in a.file_edits] == [("/w/serve_eagle3.sh", "patch", "edit")]
