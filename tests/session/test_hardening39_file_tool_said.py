"""analyze: a file tool's failure is read from its "prog: message" line, not from the files it
listed first.

Before: ``rsync -av`` that failed read "sending incremental file list" (its first line), and
``tar -xvf`` read the first file it unpacked, not "tar: ...: Cannot open: Permission denied".
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

RSYNC = ("sending incremental file list\n"
         "rsync: connection unexpectedly closed (0 bytes received so far) [sender]\n"
         "rsync error: unexplained error (code 255) at io.c(232) [sender=3.2.7]\n")
TAR = ("eagle3-draft/\neagle3-draft/config.json\n"
       "tar: eagle3-draft/model.safetensors: Cannot open: Permission denied\n"
       "tar: Exiting with failure status due to previous errors\n")


def test_the_tools_own_line_says_what_failed(tmp_path):
    m = _Writer("9a1b0000-0000-4000-8000-00000000e139", None, datetime(2026, 3, 6, 10, 0, tzinfo=timezone.utc))
    m.prompt("Copy the new EAGLE-3 draft to gpu05 and unpack it.")
    m.bash("rsync -av ./eagle3-draft.tar gpu05:/models/", RSYNC, exit_code=255)
    m.bash("ssh gpu05 'cd /models && tar -xvf eagle3-draft.tar'", TAR, exit_code=2)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    assert [(e.kind, e.host, e.message) for e in analyze_path(path).errors] == [
        ("exit_code", "gpu05", "rsync: connection unexpectedly closed (0 bytes received so far) [sender]"),
        ("exit_code", "gpu05", "tar: eagle3-draft/model.safetensors: Cannot open: Permission denied")]
