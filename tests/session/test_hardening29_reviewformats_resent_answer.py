"""A log of an agent loop's requests and the answers (``chat.completion``) between them: the next
request sends the answer back as the loop built it, often without the answer's empty fields
(``refusal: null``, ``annotations: []``: a dict of its own, ``model_dump(exclude_none=True)``).
Round 29 read the answer from the ``chat.completion`` and, the copy not being equal, the whole next
request again: the call ran once and was read twice (round 28 read it once, from the request), the
prompt twice. A resent message that differs only by empty fields is the same message."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

from test_hardening29_formats_new_shapes import _completion

CALL = {"id": "call_1", "type": "function",
        "function": {"name": "bash", "arguments": json.dumps({"command": "ssh gpu-node-3 nvidia-smi"})}}
ASKED = {"role": "user", "content": "Why is EAGLE-3 slow on gpu-node-3?"}
ANSWER = {"role": "assistant", "content": None, "tool_calls": [CALL]}
RESULT = {"role": "tool", "tool_call_id": "call_1", "content": "GPU 0: H200, 97% util"}


def test_an_answer_sent_back_without_its_empty_fields_is_read_once(tmp_path):
    resent = {"role": "assistant", "tool_calls": [CALL]}  # exclude_none: no content, refusal or annotations
    log = [{"model": "gpt-4.1", "messages": [ASKED]}, _completion("chatcmpl-1", ANSWER),
           {"model": "gpt-4.1", "messages": [ASKED, resent, RESULT]},
           _completion("chatcmpl-2", {"role": "assistant", "content": "The drafter is not loaded."})]
    path = tmp_path / "proxy.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in log))
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu-node-3 nvidia-smi"]  # was twice
    assert [p["text"] for p in doc["prompts"]] == [ASKED["content"]]  # was twice


def test_a_history_that_differs_in_words_is_still_read_again(tmp_path):
    # an edited history (another prompt at its head) is no resend: read whole, as before
    log = [{"model": "gpt-4.1", "messages": [ASKED]}, _completion("chatcmpl-1", ANSWER),
           {"model": "gpt-4.1", "messages": [{"role": "user", "content": "Check gpu-node-4."}, ANSWER, RESULT]}]
    path = tmp_path / "proxy.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in log))
    doc = analyze_path(path).to_json()
    assert [p["text"] for p in doc["prompts"]] == [ASKED["content"], "Check gpu-node-4."]
