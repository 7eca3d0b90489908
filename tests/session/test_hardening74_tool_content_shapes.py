"""A ``role: tool`` message whose content is no plain text: an object (an agent loop that appends
``{"role": "tool", "content": result}`` with the dict its tool returned, and saves its messages
before any client turns them into text), or the tool's JSON encoded a second time (a tool that
returns ``json.dumps(result)`` inside a framework that encodes whatever a tool returns: the model
got a JSON string, ``"{\\"output\\": ...}"``).

Before: the object read as an empty output (the traceback of a crashed server launch lost: no
error, the call a success), and the string encoded twice as one line of escapes (its exit code not
read, its error message the escaped JSON). Now both read as the JSON they hold: the output with
its newlines, its exit code, its error."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
RESULT = {"output": "Traceback (most recent call last):\n  File \"/srv/launch.py\", line 3, in <module>\n"
                    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "exit_code": 1}


def _chat(tmp_path: Path, content: object) -> Path:
    messages = [{"role": "user", "content": "start the EAGLE-3 server"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "call_1", "type": "function",
                     "function": {"name": "terminal", "arguments": json.dumps({"command": LAUNCH})}}]},
                {"role": "tool", "tool_call_id": "call_1", "content": content},
                {"role": "assistant", "content": "Out of memory."}]
    path = tmp_path / "messages.jsonl"
    path.write_text("".join(json.dumps(m) + "\n" for m in messages))
    return path


def _read(path: Path) -> tuple[list, list]:
    a = analyze_path(path)
    return [(c.command, c.exit_code, c.is_error) for c in a.commands], [(e.kind, e.message) for e in a.errors]


EXPECTED = ([(LAUNCH, 1, True)],
            [("cuda_oom", "CUDA out of memory. Tried to allocate 2.00 GiB")])


def test_content_as_an_object(tmp_path: Path) -> None:
    assert _read(_chat(tmp_path, RESULT)) == EXPECTED


def test_content_encoded_twice(tmp_path: Path) -> None:
    assert _read(_chat(tmp_path, json.dumps(json.dumps(RESULT)))) == EXPECTED


def test_content_encoded_once_as_before(tmp_path: Path) -> None:
    assert _read(_chat(tmp_path, json.dumps(RESULT))) == EXPECTED


def test_a_quoted_string_that_is_no_json_stays(tmp_path: Path) -> None:
    commands, _ = _read(_chat(tmp_path, '"{not json" was printed'))
    assert commands == [(LAUNCH, None, False)]


def test_a_text_part_as_an_object(tmp_path: Path) -> None:
    commands, errors = _read(_chat(tmp_path, {"type": "text", "text": RESULT["output"] + "\nExit code: 1"}))
    assert commands == [(LAUNCH, 1, True)] and [k for k, _ in errors] == ["cuda_oom"]
