"""A finding the agent states in words right after reading a command's output ("Confirmed: d2t
holds absolute target ids", after printing d2t from the checkpoint on a100-3) is about that
host: it had no host, so distill and the report could not say where the vocab map was broken."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_D2T = ("ssh ubuntu@a100-3 \"/opt/vllm-env/bin/python -c 'from safetensors.torch import load_file; "
        "d = load_file(\\\"/ckpt/drafter/model.safetensors\\\")[\\\"d2t\\\"]; print(d[:6].tolist(), int(d.max()))'\"")
_SAID = "Confirmed: d2t holds absolute target ids (d2t[5] = 14, max 128201), not offsets."


def _write(path: Path, read_first: bool) -> None:
    lines = [{"type": "user", "message": {"role": "user", "content": "Speculation on a100-3 accepts almost nothing."}}]
    if read_first:
        lines += [
            {"type": "assistant", "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": _D2T}}]}},
            {"type": "user", "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "[0, 1, 2, 5, 9, 14] 128201"}]}}]
    lines.append({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": _SAID}]}})
    for n, line in enumerate(lines):
        line.update(uuid=f"u{n}", parentUuid=f"u{n - 1}" if n else None, sessionId="s",
                    timestamp=f"2026-11-20T10:0{n}:00.000Z")
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def test_a_finding_said_after_reading_an_output_is_that_hosts(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    _write(path, read_first=True)
    [finding] = analyze_path(path).findings
    assert (finding.code, finding.seq, finding.host, finding.hosts, finding.read_seqs) == \
        ("SD302", 3, "a100-3", ["a100-3"], [2])


def test_a_finding_said_with_nothing_read_has_no_host(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    _write(path, read_first=False)
    [finding] = analyze_path(path).findings
    assert (finding.code, finding.host, finding.hosts) == ("SD302", None, [])
