"""`aws s3 ls s3://ckpts/eagle3/` in a session: the bucket in the URL was taken for a fleet host
(a single-label name, like gpu01), so the step ran `s3://{{ host_ckpts }}/eagle3/` and the var
read as a host to replace for another --host. A bucket is kept as the session typed it; a real
host in a URL is still a var. Sessions written the way Claude Code writes them."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from tests.session.incident_story import _Writer

PIVOT = "That did not work. Let me try a different approach: check the checkpoint on the host instead."


def _distilled(tmp_path: Path, failing: str) -> dict:
    m = _Writer("9a1b0000-0000-4000-8000-00000000f046", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
    m.bash(failing, "Error: draft_vocab_size 32000 mismatch", exit_code=1)
    m.bash("ls /models/e3", "config.json", exit_code=0, text=PIVOT)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    load_playbook_text(dump_playbook(doc), "distilled.yaml")
    return doc


@pytest.mark.parametrize("url", ["s3://ckpts/eagle3/", "gs://ckpts/eagle3/", "hf://ckpts/eagle3"])
def test_a_bucket_in_a_url_stays_as_typed(tmp_path, url):
    doc = _distilled(tmp_path, f"aws s3 ls {url}" if url.startswith("s3") else f"gsutil ls {url}")
    assert doc["steps"][0]["run"].endswith(f" {url}")
    assert not any(name.startswith("host_") for name in doc["vars"])


def test_a_host_in_an_http_url_is_still_a_var(tmp_path):
    doc = _distilled(tmp_path, "curl -s http://gpu02:30000/get_server_info")
    assert doc["steps"][0]["run"] == "curl -s http://{{ host_gpu02 }}:30000/get_server_info"
    assert doc["vars"]["host_gpu02"] == "gpu02"
