"""Layer ids printed on a host (the draft config's [1, 29, 57], then the training config's
[2, 30, 58], both read on gpu-b200-2) gave an SD202 with no host: distill and the report could
not say which host's drafter was fed the wrong layers. The finding is the printing command's
host's, as a launch finding is."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def _codex(path: Path, calls: list[tuple[str, str]]) -> None:
    records = [{"type": "session_meta", "payload": {"id": "c0dex", "cwd": "/home/dev"}}]
    for n, (command, output) in enumerate(calls):
        records += [
            {"type": "response_item", "payload": {"type": "function_call", "name": "shell", "call_id": f"c{n}",
                                                  "arguments": json.dumps({"command": ["bash", "-lc", command]})}},
            {"type": "response_item", "payload": {"type": "function_call_output", "call_id": f"c{n}", "output": json.dumps(
                {"output": output, "metadata": {"exit_code": 0, "duration_seconds": 0.4}})}}]
    for n, record in enumerate(records):
        record["timestamp"] = f"2026-11-21T08:00:{n:02d}.000Z"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_layer_ids_printed_on_a_host_are_that_hosts_finding(tmp_path: Path) -> None:
    path = tmp_path / "rollout.jsonl"
    _codex(path, [
        ("ssh gpu-b200-2 'grep -A4 aux /models/drafter/config.json'",
         '    "eagle_aux_hidden_state_layer_ids": [\n        1,\n        29,\n        57\n    ],'),
        ("ssh gpu-b200-2 'grep -n aux_hidden /opt/specforge/configs/train.yaml'", "14:aux_hidden_state_layer_ids: [2, 30, 58]"),
    ])
    [finding] = analyze_path(path).findings
    assert (finding.code, finding.host, finding.hosts, finding.evidence) == (
        "SD202", "gpu-b200-2", ["gpu-b200-2"], ["[msg 2] layer ids [1, 29, 57] vs [msg 4] [2, 30, 58]"])
