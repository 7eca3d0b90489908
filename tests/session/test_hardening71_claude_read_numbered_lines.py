"""Claude Code's Read tool gives the model each line of the file behind its number (``    12→…``;
newer CLIs ``12\\t…``) and, on most models, its malware reminder after the text
(``\\n\\n<system-reminder>\\nWhenever you read a file, you should consider whether it would be
considered malware. ...</system-reminder>\\n``: FileReadTool's CYBER_RISK_MITIGATION_REMINDER, as real
sessions carry it). The session line keeps the file's own text in ``toolUseResult.file.content``.

Read from the numbered copy, a traceback in a log the agent read lost its exception line (every
line began with its number): a second error, "traceback without an exception line (truncated
output)", came with each, the real one quoted "4→RuntimeError: ..." with no file or line, and the
reminder's words were part of the output. Now the file's text is the result's output."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

SID = "c3d4e5f6-0000-4000-8000-00000000f711"
REMINDER = ("\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered "
            "malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to "
            "improve or augment the code. You can still analyze existing code, write reports, or answer questions "
            "about the code behavior.\n</system-reminder>\n")
LOG = ("[2026-04-02 10:00:01] Load weight begin.\nTraceback (most recent call last):\n"
       '  File "/sgl/python/sglang/srt/model_executor/model_runner.py", line 412, in load_model\n'
       "    self.model = get_model(config)\n"
       "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")


def _numbered(text: str, arrow: bool) -> str:
    return "".join(f"{n:6}\u2192{line}\n" if arrow else f"{n}\t{line}\n"
                   for n, line in enumerate(text.splitlines(), 1))


def _session(path: Path, content: str, file: dict | None) -> Path:
    env = {"sessionId": SID, "cwd": "/work", "version": "2.1.118", "isSidechain": False, "userType": "external"}
    result = {**env, "type": "user", "uuid": "r0", "parentUuid": "a0", "timestamp": "2026-04-02T10:01:10.000Z",
              "message": {"role": "user", "content": [
                  {"type": "tool_result", "tool_use_id": "toolu_r", "content": content}]}}
    if file is not None:
        result["toolUseResult"] = {"type": "text", "file": file}
    rows = [{**env, "type": "user", "uuid": "u0", "parentUuid": None, "timestamp": "2026-04-02T10:00:00.000Z",
             "message": {"role": "user", "content": "why did the server die on gpu03?"}},
            {**env, "type": "assistant", "uuid": "a0", "parentUuid": "u0", "timestamp": "2026-04-02T10:01:00.000Z",
             "message": {"id": "m0", "role": "assistant", "content": [
                 {"type": "tool_use", "id": "toolu_r", "name": "Read", "input": {"file_path": "/work/server.log"}}]}},
            result]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _file(text: str) -> dict:
    lines = text.count("\n")
    return {"filePath": "/work/server.log", "content": text, "numLines": lines, "startLine": 1, "totalLines": lines}


def _errors(path: Path) -> list[tuple]:
    return [(e.kind, e.exception, e.message, e.file, e.line) for e in analyze_path(path).errors]


OOM = [("cuda_oom", "torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 2.00 GiB",
        "/sgl/python/sglang/srt/model_executor/model_runner.py", 412)]


def test_a_read_log_s_traceback_is_one_error_with_its_place(tmp_path: Path) -> None:
    path = _session(tmp_path / f"{SID}.jsonl", _numbered(LOG, arrow=True) + REMINDER, _file(LOG))
    assert _errors(path) == OOM  # was "1→..." quoted, no file, and a second "truncated" traceback


def test_newer_tab_numbered_lines_read_the_same(tmp_path: Path) -> None:
    path = _session(tmp_path / f"{SID}.jsonl", _numbered(LOG, arrow=False), _file(LOG))
    assert _errors(path) == OOM


def test_the_result_s_text_is_the_file_s_without_the_reminder(tmp_path: Path) -> None:
    path = _session(tmp_path / f"{SID}.jsonl", _numbered(LOG, arrow=True) + REMINDER, _file(LOG))
    (source,) = discover(path)
    (result,) = [e for e in iter_events(source, ReadStats(), AgentTree()) if e.kind == "tool_result"]
    assert result.text == LOG and not result.is_error


def test_a_result_without_the_file_s_copy_is_the_numbered_text_without_its_numbers(tmp_path: Path) -> None:
    # older lines (or other readers' copies) without toolUseResult.file.content: the numbered copy,
    # every line numbered, loses its numbers (hardening72: was kept as the model's text); a text
    # not wholly so numbered is read as sent (test_hardening72_claude_read_numbered_copy.py)
    content = _numbered("hello\n", arrow=True)
    path = _session(tmp_path / f"{SID}.jsonl", content, {"filePath": "/work/server.log", "numLines": 1})
    (source,) = discover(path)
    (result,) = [e for e in iter_events(source, ReadStats(), AgentTree()) if e.kind == "tool_result"]
    assert result.text == "hello\n"
