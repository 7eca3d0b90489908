"""`aws s3 ls s3://ckpts/eagle3/` in a session: the bucket in the URL was taken for a fleet host
(a single-label name, like gpu01), so the step ran `s3://{{ host_ckpts }}/eagle3/` and the var
read as a host to replace for another --host. A bucket is kept as the session typed it; a real
host in a URL is still a var. Sessions written the way Claude Code writes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from tests.session.failed_then_pivot import failed_then_pivot


def _distilled(tmp_path: Path, failing: str) -> dict:
    path = failed_then_pivot(tmp_path, failing, "9a1b0000-0000-4000-8000-00000000f046")
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
