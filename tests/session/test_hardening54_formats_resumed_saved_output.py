"""A resumed Claude Code session's file starts with the lines it copied from the session it
resumed (``claude --resume A`` writes B whose first lines are A's, their sessionId kept:
anthropics/claude-code #4926, #28463). A copied Bash result too long to keep inline is the
CLI's ``<persisted-output>`` marker, and its whole output sits in A's folder,
``<A>/tool-results/``, where the marker says, not in B's: read alone, B's copied call kept only
the 2 KB preview, and the CUDA OOM that ended the log was lost."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

A_ID, B_ID = "aaaa5454-0000-4000-8000-000000000001", "bbbb5454-0000-4000-8000-000000000002"
CALL = "toolu_01QmFQwVvYgR8uDqYH5wXJ3k"


def _line(n: int, sid: str, kind: str, content) -> dict:
    # the envelope of TRANSCRIPTS.md section 1a
    return {"parentUuid": f"{sid[:4]}-{n - 1}" if n else None, "isSidechain": False, "userType": "external",
            "cwd": "/w", "sessionId": sid, "version": "2.0.46", "type": kind, "uuid": f"{sid[:4]}-{n}",
            "timestamp": f"2025-11-30T08:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}}


def test_a_copied_result_saved_aside_is_read_from_the_resumed_sessions_folder(tmp_path: Path) -> None:
    project = tmp_path / "-w"
    (project / A_ID / "tool-results").mkdir(parents=True)
    log = "".join(f"[2025-11-30 08:00:{i % 60:02d}] Capture cuda graph bs {i}\n" for i in range(4000)) + (
        "Traceback (most recent call last):\n"
        '  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", line 212, in forward_draft\n'
        "    hidden = torch.cat(aux_hidden_states, dim=-1)\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    (project / A_ID / "tool-results" / f"{CALL}.txt").write_text(log)
    marker = ("<persisted-output>\nOutput too large (160.4KB). Full output saved to: "
              f"/home/mei/.claude/projects/-w/{A_ID}/tool-results/{CALL}.txt\n\n"
              f"Preview (first 2KB):\n{log[:2048]}\n</persisted-output>")
    copied = [
        _line(0, A_ID, "user", "why does the server die on gpu01?"),
        _line(1, A_ID, "assistant", [{"type": "tool_use", "id": CALL, "name": "Bash",
                                      "input": {"command": "ssh gpu01 'tail -n 5000 /var/log/sglang.log'"}}]),
        _line(2, A_ID, "user", [{"type": "tool_result", "tool_use_id": CALL, "is_error": False, "content": marker}])]
    (project / f"{A_ID}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in copied))
    resumed = [*copied, _line(3, B_ID, "user", "go on: what allocates the 2 GiB?")]
    (project / B_ID).mkdir()  # B's own folder, without that output
    (project / f"{B_ID}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in resumed))
    doc = analyze_path(project / f"{B_ID}.jsonl").to_json()
    assert [(e["seq"], e["kind"], e["file"], e["line"], e["host"]) for e in doc["errors"]] == [
        (2, "cuda_oom", "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", 212, "gpu01")]
