"""A Read result whose line keeps no plain copy of the file (``toolUseResult.file.content``): sessions
of older CLIs (no toolUseResult at all, as claude-code-log PR #172 parses them), a sub-agent's Read
copied into the trunk's ``agent_progress`` lines (``data.message`` holds the message alone), stream-json
without ``tool_use_result``. Its text is the numbered copy the model got (``     4→…``, newer CLIs
``4\\t…``): a traceback in a log it read lost its exception line (every line began with its number),
the error quoted "4→torch.OutOfMemoryError: ..." with no file or line, and a second "traceback
without an exception line" came with it. The numbers are now taken off when every line has one,
numbered one after another; anything else is read as sent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.formats.claude_code import numbered_copy_text
from spec_debug.session.sources import discover, iter_events

SID = "c3d4e5f6-0000-4000-8000-00000000f721"
AGENT = "a7d2c0f1"
REMINDER = ("\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered "
            "malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to "
            "improve or augment the code. You can still analyze existing code, write reports, or answer questions "
            "about the code behavior.\n</system-reminder>\n")
LOG = ("[2026-04-02 10:00:01] Load weight begin.\nTraceback (most recent call last):\n"
       '  File "/sgl/python/sglang/srt/model_executor/model_runner.py", line 412, in load_model\n'
       "    self.model = get_model(config)\n"
       "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
OOM = [("cuda_oom", "torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 2.00 GiB",
        "/sgl/python/sglang/srt/model_executor/model_runner.py", 412)]


def _arrow(text: str, first: int = 1) -> str:
    return "".join(f"{n:6}\u2192{line}\n" for n, line in enumerate(text.splitlines(), first))


def _tabs(text: str, first: int = 1) -> str:
    # newer CLIs: "1\talpha\n2\tbeta\n3\t" for "alpha\nbeta\n" (the empty last line numbered too)
    return "\n".join(f"{n}\t{line}" for n, line in enumerate(text.split("\n"), first))


ENV = {"sessionId": SID, "cwd": "/work", "version": "1.0.51", "isSidechain": False, "userType": "external"}


def _rows(content: str, tool: str = "Read", result: dict | None = None) -> list[dict]:
    answer = {**ENV, "type": "user", "uuid": "r0", "parentUuid": "a0", "timestamp": "2026-04-02T10:01:10.000Z",
              "message": {"role": "user", "content": [
                  {"type": "tool_result", "tool_use_id": "toolu_r", "content": content}]}}
    if result is not None:
        answer["toolUseResult"] = result
    args = {"file_path": "/work/server.log"} if tool == "Read" else {"command": "cat -n /work/server.log"}
    return [{**ENV, "type": "user", "uuid": "u0", "parentUuid": None, "timestamp": "2026-04-02T10:00:00.000Z",
             "message": {"role": "user", "content": "why did the server die on gpu03?"}},
            {**ENV, "type": "assistant", "uuid": "a0", "parentUuid": "u0", "timestamp": "2026-04-02T10:01:00.000Z",
             "message": {"id": "m0", "role": "assistant", "content": [
                 {"type": "tool_use", "id": "toolu_r", "name": tool, "input": args}]}},
            answer]


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _result_text(path: Path) -> str:
    (source,) = discover(path)
    (result,) = [e for e in iter_events(source, ReadStats(), AgentTree()) if e.kind == "tool_result"]
    return result.text


def _errors(path: Path) -> list[tuple]:
    return [(e.kind, e.exception, e.message, e.file, e.line) for e in analyze_path(path).errors]


def test_an_older_session_s_read_of_a_log_gives_its_traceback_with_its_place(tmp_path: Path) -> None:
    path = _write(tmp_path / f"{SID}.jsonl", _rows(_arrow(LOG) + REMINDER))
    assert _errors(path) == OOM  # was "1→..." quoted with no file, and a second "truncated" traceback
    assert _result_text(path) == LOG


def test_an_offset_read_in_the_tab_shape_is_the_file_s_lines(tmp_path: Path) -> None:
    # the copy of a partial read (offset 40) whose toolUseResult names the file but holds no content
    path = _write(tmp_path / f"{SID}.jsonl", _rows(_tabs(LOG, first=40), result={
        "type": "text", "file": {"filePath": "/work/server.log", "numLines": 6, "startLine": 40}}))
    assert _result_text(path) == LOG
    assert _errors(path) == OOM


def test_a_sub_agent_s_read_copied_in_progress_lines_is_the_file_s_text(tmp_path: Path) -> None:
    # CLIs before 2.1.71: the trunk's agent_progress copy of a sub-agent's message, its
    # sub-agents/ folder not kept; the copy holds the message alone, no toolUseResult
    def progress(n: int, message: dict) -> dict:
        return {"type": "progress", "uuid": f"p{n}", "parentUuid": None, "sessionId": SID, "cwd": "/work",
                "version": "2.1.50", "timestamp": f"2026-04-02T10:00:0{n}.500Z", "parentToolUseID": "toolu_s",
                "toolUseID": "toolu_s", "data": {"type": "agent_progress", "agentId": AGENT, "prompt": "read it",
                                                 "message": message}}

    rows = [{**ENV, "type": "user", "uuid": "u0", "parentUuid": None, "timestamp": "2026-04-02T10:00:00.000Z",
             "message": {"role": "user", "content": "why did the server die on gpu03?"}},
            {**ENV, "type": "assistant", "uuid": "a0", "parentUuid": "u0", "timestamp": "2026-04-02T10:00:01.000Z",
             "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_s", "name": "Task",
                                                           "input": {"description": "read the log",
                                                                     "prompt": "read it"}}]}},
            progress(2, {"type": "assistant", "timestamp": "2026-04-02T10:00:02.000Z", "message": {
                "role": "assistant", "content": [{"type": "tool_use", "id": "toolu_r", "name": "Read",
                                                  "input": {"file_path": "/work/server.log"}}]}}),
            progress(3, {"type": "user", "timestamp": "2026-04-02T10:00:03.000Z", "message": {
                "role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_r",
                                             "content": _arrow(LOG) + REMINDER}]}}),
            {**ENV, "type": "user", "uuid": "r1", "parentUuid": "a0", "timestamp": "2026-04-02T10:00:09.000Z",
             "toolUseResult": {"status": "completed", "agentId": AGENT},
             "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_s",
                                                      "content": "It ran out of memory."}]}}]
    path = _write(tmp_path / f"{SID}.jsonl", rows)
    (source,) = discover(path)
    results = [(e.agent, e.text) for e in iter_events(source, ReadStats(), AgentTree()) if e.kind == "tool_result"]
    assert results == [(AGENT, LOG), ("main", "It ran out of memory.")]
    assert _errors(path) == OOM


@pytest.mark.parametrize("content", [
    # an Edit's snippet: a header line before the numbered ones
    "The file /work/a.py has been updated. Here's the result of running `cat -n` on a snippet of the edited "
    "file:\n     1\u2192import os\n     2\u2192print(os.getcwd())",
    "     1\u2192alpha\n     3\u2192gamma\n",  # a gap: not one line after another
    "     1\u2192alpha\n2\tbeta\n",  # two shapes
    "     1\talpha\n     2\tbeta\n",  # `cat -n`'s padded tab, never the Read tool's
    "     1\u2192alpha\nbeta\n",  # a line without its number
])
def test_text_that_is_not_wholly_a_numbered_copy_is_read_as_sent(tmp_path: Path, content: str) -> None:
    path = _write(tmp_path / f"{SID}.jsonl", _rows(content))
    assert _result_text(path) == content


def test_a_bash_result_in_a_session_file_keeps_its_numbers(tmp_path: Path) -> None:
    # `cat -n` through Bash prints what it printed: its toolUseResult is the process's
    content = _tabs("alpha\nbeta\n")
    path = _write(tmp_path / f"{SID}.jsonl", _rows(content, tool="Bash", result={
        "stdout": content, "stderr": "", "interrupted": False, "isImage": False}))
    assert _result_text(path) == content


@pytest.mark.parametrize(("copy", "text"), [
    ("1\talpha\n2\tbeta\n3\t", "alpha\nbeta\n"),  # CLI 2.1.x, a file ending in a newline
    ("    99\u2192x = 1\n   100\u2192y = 2\n", "x = 1\ny = 2\n"),  # the number's width grows
    ("1\t\tindented\n2\tnext", "\tindented\nnext"),  # the file's own tab stays
    ("1\u2192only" + REMINDER, "only"),
    ("<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>", None),
])
def test_numbered_copy_text(copy: str, text: str | None) -> None:
    assert numbered_copy_text(copy) == text
