"""A serving engine's admin endpoints change the running server: a distilled playbook leaves
them out, as it leaves out `systemctl restart`.

`curl -X POST localhost:30000/flush_cache` (SGLang, before a re-measure), `/update_weights_from_disk`,
`/release_memory_occupation`; vLLM's dev-mode `/reset_prefix_cache`, `/sleep`, `/wake_up`. Before,
curl was read as a download check only: these reached the playbook an on-call runs against
production. Reads (`/get_server_info`, `/metrics`, `/v1/models`, `/health`) stay."""

from __future__ import annotations

import pytest
import yaml

from spec_debug.session.host_changes import changes_host
from tests.conftest import run_cli
from tests.session.test_hardening8_postmortem import GPU, _session, _write

CHANGES = {
    "curl -X POST http://localhost:30000/flush_cache": "curl /flush_cache",
    "curl -s localhost:30000/flush_cache": "curl /flush_cache",
    "curl -X POST http://127.0.0.1:30000/update_weights_from_disk -H 'Content-Type: application/json' "
    "-d '{\"model_path\": \"/models/eagle3-v2\"}'": "curl /update_weights_from_disk",
    "curl -X POST http://localhost:8000/reset_prefix_cache": "curl /reset_prefix_cache",
    "curl -X POST 'http://localhost:8000/sleep?level=1'": "curl /sleep",
    "wget -qO- --post-data '' http://localhost:30000/release_memory_occupation": "wget /release_memory_occupation",
}
READS = ["curl -s http://localhost:30000/get_server_info", "curl -s localhost:8000/metrics | grep spec_decode",
         "curl http://localhost:8000/v1/models", "wget -qO- http://gpu01:30000/health"]


@pytest.mark.parametrize("command", sorted(CHANGES))
def test_admin_calls_change_the_server(command):
    assert changes_host(command) == CHANGES[command]


@pytest.mark.parametrize("command", READS)
def test_reads_do_not(command):
    assert changes_host(command) is None


def test_a_distilled_playbook_does_not_flush_the_servers_cache(tmp_path):
    m = _session()
    m.prompt(f"Acceptance on {GPU} dropped after the redeploy; re-measure from a cold cache.")
    m.bash(f"ssh root@{GPU} 'curl -s http://localhost:30000/get_server_info'",
           '{"internal_states": [{"avg_spec_accept_length": 1.31, "last_gen_throughput": 52.4}]}')
    m.bash(f"ssh root@{GPU} 'curl -s -X POST http://localhost:30000/flush_cache'",
           "Traceback (most recent call last):\n  File \"/srv/x.py\", line 3, in <module>\n"
           "RuntimeError: Cache not flushed because there are pending requests.", exit_code=1)
    m.bash(f"ssh root@{GPU} 'grep -c Decode /var/log/sglang.log'", "412")
    playbook = tmp_path / "playbook.yaml"
    made = run_cli("distill", str(_write(tmp_path, m)), "-o", str(playbook))
    assert made.code == 0, made.stderr
    runs = [s["run"] for s in yaml.safe_load(playbook.read_text(encoding="utf-8"))["steps"]]
    assert not any("flush_cache" in run for run in runs), runs
    assert "(curl /flush_cache)" in made.stderr
