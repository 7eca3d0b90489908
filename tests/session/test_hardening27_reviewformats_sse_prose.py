"""A note that quotes a Responses API stream after prose lines shaped like headers
(``Summary: ...``, ``Server: ...``) is a text log: its shell commands and errors are read. The
stream sniff took any ``Word: text`` line for an HTTP header and read the note as a stream, its
commands lost. Header lines count only after ``curl -i``'s status line."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

CREATED = json.dumps({"type": "response.created", "response": {"id": "resp_1", "model": "m"}})
NOTE = f"""\
Summary: the proxy hangs after the first event
Server: vllm 0.11 with eagle3

event: response.created
data: {CREATED}

$ vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{{"method": "eagle3"}}'
RuntimeError: CUDA error: an illegal memory access was encountered
"""


def test_a_note_quoting_a_stream_after_prose_is_a_text_log(tmp_path):
    path = tmp_path / "issue.md"
    path.write_text(NOTE)
    doc = analyze_path(path).to_json()
    assert doc["sessions"][0]["format"] == "text"
    assert [c["command"].split()[:2] for c in doc["commands"]] == [["vllm", "serve"]]


def test_curl_i_headers_before_a_stream_still_tell_a_stream(tmp_path):
    path = tmp_path / "stream.txt"
    path.write_text("HTTP/1.1 200 OK\r\nDate: Tue, 01 Dec 2026 20:00:00 GMT\r\nContent-Type: text/event-stream\r\n"
                    f"x-request-id: req_1\r\n\r\nevent: response.created\r\ndata: {CREATED}\r\n\r\n")
    assert analyze_path(path).to_json()["sessions"][0]["format"] == "openai"
