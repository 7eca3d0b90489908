"""A secret in a JSON document longer than the capture limit reaches the facts as printed.

A `json:` capture (and a probe) reads a document longer than the capture limit whole from the
step's artifact (hardening73). That artifact is masked as it is written, like run.json, so the
fact was the mask: a server config's `api_key` captured with `--capture-limit 0` (or from a
config past 256 KiB) was `***REDACTED***`, and the next step's `curl -H "Authorization: Bearer
{{ facts.api_key }}"` got a 401 on every host, while the same playbook passed with a short
document. The document is now parsed as the host printed it (kept in memory while the step
runs); the artifact, run.json and the reports stay masked. Through the real CLI.
"""

from __future__ import annotations

import json

from tests.conftest import only_run, run_cli

API_KEY = "sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
CONFIG = {"api_key": API_KEY, "served_model_name": "llama-3.1-8b-eagle3",
          "tokenizer_padding": ["x" * 64 for _ in range(6000)]}
PLAYBOOK = """\
name: server_config
steps:
  - id: config
    run: cat server_config.json
    capture:
      - json: api_key
        name: api_key
  - id: use_key
    run: |
      if [ "{{ facts.api_key }}" = "$(python3 -c 'import json; print(json.load(open("server_config.json"))["api_key"])')" ]; then
        echo key-is-the-servers
      else
        echo key-differs
      fi
    expect:
      - contains: key-is-the-servers
"""


def _run(tmp_path, *flags):
    (tmp_path / "server_config.json").write_text(json.dumps(CONFIG, indent=2))
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", "p.yaml", "--host", "local", *flags, "--out", "runs", cwd=tmp_path)
    run_dir, record = only_run(tmp_path / "runs")
    return result, run_dir, record


def test_a_secret_read_past_the_capture_limit_is_the_value_the_host_printed(tmp_path):
    result, run_dir, record = _run(tmp_path, "--capture-limit", "0")
    steps = {s["id"]: s for s in record["steps"]}
    assert steps["config"]["truncated"] is True
    assert steps["use_key"]["status"] == "passed", steps["use_key"]["message"]  # was: key-differs (the mask)
    assert result.code == 0 and record["findings"] == []
    # What is written down stays masked: the record's fact, the artifact, the reports.
    assert record["facts"]["local"]["api_key"] != API_KEY
    for written in run_dir.rglob("*"):
        if written.is_file():
            assert API_KEY not in written.read_text(errors="replace"), written


def test_the_default_capture_limit_reads_a_long_config_the_same_way(tmp_path):
    assert len(json.dumps(CONFIG, indent=2)) > 256 * 1024
    result, _, record = _run(tmp_path)
    assert [s["status"] for s in record["steps"]] == ["passed", "passed"], result.stderr
