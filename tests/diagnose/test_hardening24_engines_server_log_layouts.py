"""server_log probe on the log files a GPU host really has (round 24).

- logrotate's compressed rotation (`sglang.log.1.gz`) was read as bytes: no numbers, and the
  step said the log had none;
- Docker's json-file log (/var/lib/docker/containers/ID/ID-json.log, where a containerised
  server's stdout/stderr land on the host) wraps each line in JSON: the Decode batch lines kept
  their escapes and the startup line's settings were not read;
- a log the probe's user cannot read failed the whole probe (PermissionError) instead of
  saying so."""

from __future__ import annotations

import gzip
import json

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes import server_log
from spec_debug.probes.registry import ProbeContext

# SGLang 0.5.x scheduler lines (python/sglang/srt/managers/scheduler_metrics_mixin.py format)
DECODE = ("[2025-11-03 10:12:{s:02d}] Decode batch. #running-req: 1, #token: 1290, token usage: 0.01, "
          "accept len: 2.17, accept rate: 0.39, cuda graph: True, gen throughput (token/s): 54.80, #queue-req: 0, ")


def _lines(n: int = 5) -> list[str]:
    return [DECODE.format(s=i) for i in range(n)]


def _facts(host: dict) -> dict:
    return throughput_step.parse({**host, "args": {"baseline_tok_s": "90"}})["throughput"]


def test_a_rotated_gzip_log_is_read(tmp_path):
    path = tmp_path / "sglang.log.1.gz"
    with gzip.open(path, "wt") as handle:
        handle.write("\n".join(_lines()) + "\n")
    host = server_log.run({"server_log": str(path)})
    assert host["found"] and host["total_lines"] == 5
    facts = _facts(host)
    assert facts["measured_tok_s"] == 54.8 and facts["log"]["accept_length"] == 2.17


def test_a_docker_json_file_log_is_unwrapped(tmp_path):
    path = tmp_path / "0f3c-json.log"
    path.write_text("".join(json.dumps({"log": line + "\n", "stream": "stderr",
                                        "time": "2025-11-03T10:12:00.1Z"}) + "\n" for line in _lines()))
    host = server_log.run({"server_log": str(path)})
    assert host["lines"][0] == DECODE.format(s=0)
    facts = _facts(host)
    assert facts["measured_tok_s"] == 54.8 and facts["log"]["accept_length"] == 2.17


def test_an_unreadable_log_is_one_reason(tmp_path, monkeypatch):
    path = tmp_path / "server.log"
    path.write_text("\n".join(_lines()))
    real_open = open

    def denied(file, mode="r", *args, **kwargs):
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", denied)
    host = server_log.run({"server_log": str(path)})
    monkeypatch.undo()
    assert host["found"] is False and host["unreadable"] == f"{path} cannot be read: Permission denied"
    facts = throughput_step.parse({**host, "args": {"baseline_tok_s": "90"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    [finding] = throughput_step.check(ctx)
    assert finding.code == "SD004" and "cannot be read: Permission denied" in " ".join([finding.title, *finding.evidence])


def test_a_truncated_gzip_is_a_reason(tmp_path):
    path = tmp_path / "sglang.log.2.gz"
    data = gzip.compress(("\n".join(_lines(200)) + "\n").encode())
    path.write_bytes(data[: len(data) // 2])
    host = server_log.run({"server_log": str(path)})
    assert host["found"] is False and host["unreadable"].startswith(f"{path} cannot be read")
