"""distill: reading documentation is no step of the playbook.

After a failed health check the agent's new approach often starts with `cat README.md` (or `cd
sglang && head -n 80 docs/speculative_decoding.md`): the first step of a pivot, so it became a
playbook step, which prints the same page on every host and checks nothing there. A doc read is
now no step; a log, config or checkpoint read, a doc read beside one, and a listing that names
its folder (test_hardening38_distill) stay.
"""

from __future__ import annotations

import pytest

from spec_debug.session.distill import _reads_docs
from tests.session.test_hardening38_distill import HEALTH, _session


@pytest.mark.parametrize("read", [
    "ssh root@gpu01 'cat /root/sglang/README.md'",
    "ssh root@gpu01 'cd /root/sglang && head -n 80 docs/speculative_decoding.md'",
    "ssh root@gpu01 'cat README.md | head -50'",
])
def test_a_doc_read_after_a_failure_is_no_step(tmp_path, read):
    doc, _ = _session(tmp_path, HEALTH, (read, "# SGLang\nSGLang is a fast serving framework", 0))
    assert [s["run"] for s in doc["steps"]] == ["curl -sf http://localhost:30000/health"], doc["steps"]


def test_a_config_read_after_a_failure_stays(tmp_path):
    doc, _ = _session(tmp_path, HEALTH, ("ssh root@gpu01 'cat /models/eagle3/config.json'",
                                         '{"draft_vocab_size": 32000}', 0))
    assert len(doc["steps"]) == 2 and "config.json" in doc["steps"][1]["run"] + str(doc.get("vars"))


@pytest.mark.parametrize("command, docs", [
    ("cat README.md", True),
    ("cd /root/sglang && cat README.md | head -50", True),
    ("cat config.json", False),
    ("cat README.md /var/log/sglang.log", False),
    ("cd x && cat README.md && tail -n 20 server.log", False),
    ("cd /root/sglang && ls", False),
])
def test_reads_docs(command, docs):
    assert _reads_docs(command) is docs
