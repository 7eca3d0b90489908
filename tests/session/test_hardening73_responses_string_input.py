"""A Responses API request whose ``input`` is the prompt as one string, ``client.responses.create(
model="gpt-5", input="why is ...")`` (openai/openai-python ``types/responses/response_create_params.py``:
``input: Union[str, ResponseInputParam]``; the API reference's first example). Only a list ``input``
made a request body a Responses exchange: a log of request bodies and response objects lost the
person's prompt (an ``other`` record, counted as an unknown type), a logging proxy's record of the
first call, ``{"request": {"model", "input": "..."}, "response": {"object": "response", ...}}``, lost
the call the model answered with (its command never ran, its output's CUDA OOM belonged to no
command), and a file of that one record was "not a session transcript". Now the string is the
prompt; an embeddings request (``{model, input, encoding_format}``) is still no conversation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

PROMPT = "why is the EAGLE-3 server on gpu01 slow?"
OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


def _call(call_id: str, command: str) -> dict:
    return {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id, "name": "run_shell",
            "arguments": json.dumps({"command": command}), "status": "completed"}


def _response(n: int, output: list) -> dict:
    return {"id": f"resp_{n}", "object": "response", "created_at": 1760000000 + n, "status": "completed",
            "model": "gpt-5", "output": output}


ANSWER = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
          "content": [{"type": "output_text", "text": "The draft model ran out of memory.", "annotations": []}]}
RESULT = {"type": "function_call_output", "call_id": "call_1", "output": OOM}


def test_a_log_of_request_bodies_keeps_the_prompt(tmp_path: Path) -> None:
    records = [{"model": "gpt-5", "instructions": "You debug GPU servers.", "input": PROMPT,
                "tools": [{"type": "function", "name": "run_shell", "parameters": {"type": "object"}}]},
               _response(1, [_call("call_1", "ssh gpu01 tail -3 /var/log/sglang.log")]),
               {"model": "gpt-5", "previous_response_id": "resp_1", "input": [RESULT]},
               _response(2, [ANSWER])]
    path = tmp_path / "responses.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    a = analyze_path(path)
    # was []: the first request was an unknown record
    assert [(p.seq, p.text) for p in a.prompts] == [(1, PROMPT)]  # (0: the instructions)
    assert a.to_json()["stats"]["unknown_types"] == 0
    assert [(c.host, c.inner, c.seq, c.result_seq) for c in a.commands] == [
        ("gpu01", "tail -3 /var/log/sglang.log", 2, 3)]


def test_a_proxy_record_of_the_first_call_keeps_its_command(tmp_path: Path) -> None:
    records = [{"request": {"model": "gpt-5", "input": PROMPT},
                "response": _response(1, [_call("call_1", "ssh gpu01 tail -3 /var/log/sglang.log")])},
               {"request": {"model": "gpt-5", "previous_response_id": "resp_1", "input": [RESULT]},
                "response": _response(2, [ANSWER])}]
    path = tmp_path / "proxy.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    a = analyze_path(path)
    # was no command, and the OOM an error of no command
    assert [(c.host, c.inner, c.result_seq) for c in a.commands] == [("gpu01", "tail -3 /var/log/sglang.log", 2)]
    assert [(e.kind, e.command_seq) for e in a.errors] == [("cuda_oom", a.commands[0].seq)]
    assert [p.text for p in a.prompts] == [PROMPT]


def test_one_proxy_record_is_a_transcript(tmp_path: Path) -> None:
    path = tmp_path / "call.json"
    path.write_text(json.dumps({"request": {"model": "gpt-5", "input": PROMPT},
                                "response": _response(1, [_call("call_1", "ssh gpu01 nvidia-smi")])}))
    a = analyze_path(path)  # was UsageError: not a session transcript
    assert a.format == "openai"
    assert [(c.host, c.inner) for c in a.commands] == [("gpu01", "nvidia-smi")]


@pytest.mark.parametrize("record", [
    {"model": "text-embedding-3-small", "input": PROMPT, "encoding_format": "float"},
    {"model": "omni-moderation-latest", "input": PROMPT},
])
def test_an_embeddings_or_moderation_request_is_still_no_transcript(tmp_path: Path, record: dict) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(record))
    with pytest.raises(UsageError, match="not a session transcript"):
        analyze_path(path)
