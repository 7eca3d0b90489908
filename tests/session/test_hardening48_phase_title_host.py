"""analyze: a phase's title names the host of the commands of the kind it is named after.

A phase was named after its most common kind of command and, apart from that, after the host
most of its commands ran on: three local reads of SGLang's source beside two commands over ssh
made "Reading source code on gpu-h100-03", telling a reader the source was read on the GPU host.
The host now comes from the commands of the titled kind alone: none where those ran here.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

HOST = "gpu-h100-03"


def _phases(tmp_path, reads_on_host: bool):
    w = _Writer("48480000-0000-4000-8000-0000000000d3", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt(f"Why is EAGLE-3 acceptance so low on {HOST}? Check how SGLang maps draft tokens.")
    w.bash(f"ssh ubuntu@{HOST} 'nvidia-smi'", "| 0  NVIDIA H100 80GB HBM3 | 61234MiB / 81559MiB |")
    w.bash(f"ssh ubuntu@{HOST} 'tail -n 2 /var/log/sglang/server.log'",
           "Decode batch. #running-req: 1, accept len: 1.02, gen throughput (token/s): 94.71")
    where = f"ssh ubuntu@{HOST} " if reads_on_host else ""
    for pattern in ("hot_token_id", "d2t", "t2d"):
        command = f"grep -n {pattern} python/sglang/srt/speculative/eagle_worker.py"
        w.bash(where + (f"'{command}'" if where else command), f"212:        self.{pattern} = None")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [c.category for c in a.commands][2:] == ["read_source"] * 3
    return [s.title for s in a.segments]


def test_local_source_reading_is_not_titled_with_the_gpu_host(tmp_path):
    assert _phases(tmp_path, reads_on_host=False) == [
        f"Why is EAGLE-3 acceptance so low on {HOST}? — Reading source code"]


def test_source_read_on_the_host_keeps_its_host(tmp_path):
    assert _phases(tmp_path, reads_on_host=True) == [
        f"Why is EAGLE-3 acceptance so low on {HOST}? — Reading source code on {HOST}"]


def test_the_vocabmap_story_reads_the_export_here():
    # its pivot phase read SGLang's llama.py on the host once, then the export and its test here
    # (Grep, Read): the pivot's reading was mostly local
    story = Path(__file__).resolve().parents[1] / "data" / "transcripts_vocabmap"
    assert [s.title for s in analyze_path(story).segments][1] == "Reading source code (pivot after [msg 51])"
