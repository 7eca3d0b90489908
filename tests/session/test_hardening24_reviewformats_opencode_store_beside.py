"""A folder holding OpenCode's store (``opencode.db``, a copy kept as evidence beside the incident's
logs) had its ``storage/`` folder passed by whatever it held: OpenCode's own ``storage/`` (its session,
message and part folders, which the store copied: anomalyco/opencode ``src/storage/json-migration.ts``)
is read for what the store lacks, but another ``storage/`` (a folder of server logs) is no OpenCode's and
is read as any folder is."""

from __future__ import annotations

import importlib
import shutil

from spec_debug.session.sources import discover

_STORE = importlib.import_module("tests.session.test_hardening24_formats_opencode_store")


def test_a_storage_folder_that_is_no_opencode_storage_is_still_read(tmp_path):
    _, db = _STORE._home(tmp_path)
    incident = tmp_path / "incident"
    incident.mkdir()
    shutil.copy(db, incident / "opencode.db")
    (incident / "storage").mkdir()
    (incident / "storage" / "server.log").write_text(
        "INFO vllm serve --speculative-config '{\"method\": \"eagle3\"}'\nERROR CUDA out of memory\n", encoding="utf-8")
    found = sorted((s.format, s.path.name) for s in discover(incident))
    assert found == [("opencode", "opencode.db"), ("text", "server.log")]
