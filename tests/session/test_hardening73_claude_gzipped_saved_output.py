"""A Claude Code project folder archived with ``gzip -r`` (which the analyzer reads: the session
files as ``.jsonl.gz``): a Bash result too long to keep inline is the CLI's ``<persisted-output>``
marker, its whole output saved in ``<sessionId>/tool-results/toolu_….txt``, which ``gzip -r`` made
``toolu_….txt.gz``. No file had the marker's name, so only the 2 KB preview was read, and the CUDA
OOM traceback that ended the server's log was lost. The compressed copy is now read, decompressed
(its head and tail, as an uncompressed one's)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

SID = "aaaa7373-0000-4000-8000-000000000045"
CALL = "toolu_01QmFQwVvYgR8uDqYH5wXJ73"
TAIL = "ssh gpu01 'tail -n 5000 /var/log/sglang.log'"


def _line(n: int, kind: str, content) -> dict:
    return {"parentUuid": f"u-{n - 1}" if n else None, "isSidechain": False, "userType": "external", "cwd": "/w",
            "sessionId": SID, "version": "2.1.90", "type": kind, "uuid": f"u-{n}",
            "timestamp": f"2026-04-02T08:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}}


def _log(lines: int) -> str:
    return "".join(f"[2026-04-02 08:00:{i % 60:02d}] Capture cuda graph bs {i}\n" for i in range(lines)) + (
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", line 212, in forward_draft\n'
        "    hidden = torch.cat(aux_hidden_states, dim=-1)\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")


def _project(tmp_path: Path, log: str, packed: bool) -> Path:
    project = tmp_path / "-w"
    saved = project / SID / "tool-results" / f"{CALL}.txt"
    saved.parent.mkdir(parents=True)
    marker = ("<persisted-output>\nOutput too large (160.4KB). Full output saved to: "
              f"/home/mei/.claude/projects/-w/{SID}/tool-results/{CALL}.txt\n\n"
              f"Preview (first 2KB):\n{log[:2048]}\n</persisted-output>")
    lines = [_line(0, "user", "why does the server die on gpu01?"),
             _line(1, "assistant", [{"type": "tool_use", "id": CALL, "name": "Bash", "input": {"command": TAIL}}]),
             _line(2, "user", [{"type": "tool_result", "tool_use_id": CALL, "is_error": False, "content": marker}])]
    trunk = project / f"{SID}.jsonl"
    text = "".join(json.dumps(x) + "\n" for x in lines).encode()
    if packed:  # what `gzip -r` over the project leaves
        Path(f"{saved}.gz").write_bytes(gzip.compress(log.encode()))
        Path(f"{trunk}.gz").write_bytes(gzip.compress(text))
    else:
        saved.write_text(log)
        trunk.write_bytes(text)
    return project


@pytest.mark.parametrize("packed", [False, True], ids=["plain", "gzipped"])
@pytest.mark.parametrize("lines", [4000, 40000], ids=["whole", "head-and-tail"])  # 160 KB; 1.7 MB, past head + tail
def test_the_saved_output_of_a_gzipped_project_is_read(tmp_path: Path, packed: bool, lines: int) -> None:
    doc = analyze_path(_project(tmp_path, _log(lines), packed)).to_json()
    # gzipped was: no error at all (the preview holds only "Capture cuda graph" lines)
    assert [(e["seq"], e["kind"], e["file"], e["line"], e["host"]) for e in doc["errors"]] == [
        (2, "cuda_oom", "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", 212, "gpu01")]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [(TAIL, 0)]
