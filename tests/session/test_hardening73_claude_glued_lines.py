"""A Claude Code session whose process was killed while it appended a line (kill -9, OOM, a VS Code
Remote-SSH tunnel that dropped): the cut record has no newline, and when the session goes on in the
same file the next record is written right after it, two on one line,
``{"type":"pr-link","sessionId":"…","prNu{"parentUuid":…}`` (anthropics/claude-code issue #52387,
CLI 2.1.118). The whole line was skipped as broken JSON, the whole record with it: here the result
of ``ssh gpu01 nvidia-smi``, so the command read as never answered (no exit code) and its error was
lost. Now the whole record at the end of such a line is read; the cut one is still counted as a
skipped line."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "aaaa7373-0000-4000-8000-000000000013"
SMI = "ssh gpu01 nvidia-smi"
TAIL = "ssh gpu01 'tail -n 20 /tmp/sglang.log'"
FAILED = "Exit code 9\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."


def _line(n: int, kind: str, content, **extra) -> dict:
    return {"parentUuid": f"u-{n - 1}" if n else None, "isSidechain": False, "userType": "external", "cwd": "/w",
            "sessionId": SID, "version": "2.1.118", "type": kind, "uuid": f"u-{n}",
            "timestamp": f"2026-04-23T10:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}


def _lines() -> list[dict]:
    return [
        _line(0, "user", "why is accept length 1.0 on gpu01?"),
        _line(1, "assistant", [{"type": "tool_use", "id": "toolu_smi", "name": "Bash", "input": {"command": SMI}}]),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_smi", "content": FAILED, "is_error": True}],
              toolUseResult="Error: " + FAILED),
        _line(3, "assistant", [{"type": "tool_use", "id": "toolu_tail", "name": "Bash", "input": {"command": TAIL}}]),
        _line(4, "user", [{"type": "tool_result", "tool_use_id": "toolu_tail", "content": "accept len: 1.00"}],
              toolUseResult={"stdout": "accept len: 1.00", "stderr": "", "interrupted": False, "isImage": False}),
    ]


def _session(tmp_path: Path, cut: str) -> Path:
    rows = [json.dumps(line) for line in _lines()]
    rows[2] = cut + rows[2]  # the cut record, then the next append on its line
    path = tmp_path / "-w" / f"{SID}.jsonl"
    path.parent.mkdir()
    path.write_text("\n".join(rows) + "\n")
    return path


def _read(path: Path) -> tuple[list, list, dict]:
    doc = analyze_path(path).to_json()
    commands = [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]]
    errors = [(e["kind"], e["message"], e["source_line"]) for e in doc["errors"]]
    return commands, errors, doc["stats"]


def test_the_record_appended_after_a_cut_one_is_read(tmp_path: Path) -> None:
    cut = '{"type":"pr-link","sessionId":"' + SID + '","prNu'  # the shape issue #52387 shows
    commands, errors, stats = _read(_session(tmp_path, cut))
    assert commands == [(SMI, 9, True), (TAIL, 0, False)]  # was (SMI, None, False): never answered
    assert errors == [("cuda_error", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                                     "driver.", 3)]
    assert (stats["broken_json"], stats["lines_skipped"], stats["lines"]) == (1, 1, 5)


def test_a_cut_tool_result_glued_to_its_rewrite(tmp_path: Path) -> None:
    """The cut record is itself a user line holding an object of its own (``{"type":"tool_res``),
    whose openings come before the whole record's: the whole one is still the one read."""
    cut = ('{"parentUuid":"u-1","isSidechain":false,"type":"user","message":{"role":"user","content":'
           '[{"type":"tool_result","tool_use_id":"toolu_smi","content":"Exit code 9\\nNVIDIA-SMI has fa')
    commands, errors, stats = _read(_session(tmp_path, cut))
    assert commands == [(SMI, 9, True), (TAIL, 0, False)]
    assert [e[0] for e in errors] == ["cuda_error"]
    assert (stats["broken_json"], stats["lines_skipped"]) == (1, 1)


def test_a_line_cut_at_the_end_of_the_file_is_skipped_as_before(tmp_path: Path) -> None:
    rows = [json.dumps(line) for line in _lines()[:4]]
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(rows) + "\n" + json.dumps(_lines()[4])[:120])
    commands, errors, stats = _read(path)
    assert commands == [(SMI, 9, True), (TAIL, None, False)]
    assert (stats["broken_json"], stats["lines_skipped"], stats["lines"]) == (1, 1, 5)
