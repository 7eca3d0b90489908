"""A ``tool`` message whose ``tool_call_id`` names no call of the log. Clients that regenerate or
transform the ids of the calls the server returned answer under ids of their own (cloudflare/ai PR
#384: "tool call IDs were regenerated when constructing conversation history ... ID mismatches
between assistant tool calls and their corresponding tool results"; NousResearch/hermes-agent PR
#4534), and vLLM and SGLang run on such a history without a complaint. The output belonged to no
command (the CUDA OOM an error of no command, the ``ssh gpu01`` call with no result and no exit
status). A result whose id no call has now answers the last reply's calls in order, as a result
with no id does; a result naming a known call still answers that call."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


def _call(call_id: str, command: str) -> dict:
    return {"id": call_id, "type": "function",
            "function": {"name": "bash", "arguments": json.dumps({"command": command})}}


def _analyze(tmp_path: Path, calls: list[dict], results: list[dict]):
    messages = [{"role": "user", "content": "why does the EAGLE-3 server on gpu01 crash?"},
                {"role": "assistant", "content": None, "tool_calls": calls}, *results]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(messages))
    return analyze_path(path)


def test_a_regenerated_id_answers_the_waiting_call(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [_call("chatcmpl-tool-8f2c", "ssh gpu01 'tail -3 /var/log/sglang.log; exit 1'")],
                 [{"role": "tool", "tool_call_id": "call_5d1e0a", "content": OOM + "\nExit code: 1"}])
    # was [(None, None)] and an error of no command
    assert [(c.host, c.result_seq, c.exit_code) for c in a.commands] == [("gpu01", 2, 1)]
    assert [(e.kind, e.command_seq) for e in a.errors] == [("cuda_oom", 1)]


def test_parallel_calls_answered_under_other_ids_go_in_order(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [_call("functions.bash:0", "ssh gpu01 nvidia-smi -L"),
                            _call("functions.bash:1", "ssh gpu01 tail -3 /var/log/sglang.log")],
                 [{"role": "tool", "tool_call_id": "tc_1", "content": "GPU 0: NVIDIA H100 80GB HBM3"},
                  {"role": "tool", "tool_call_id": "tc_2", "content": OOM}])
    assert [(c.inner, c.result_seq) for c in a.commands] == [
        ("nvidia-smi -L", 2), ("tail -3 /var/log/sglang.log", 3)]
    assert [(e.kind, e.seq) for e in a.errors] == [("cuda_oom", 3)]


def test_a_known_id_still_answers_its_own_call(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [_call("call_a", "ssh gpu01 nvidia-smi -L"),
                            _call("call_b", "ssh gpu01 tail -3 /var/log/sglang.log")],
                 [{"role": "tool", "tool_call_id": "call_b", "content": OOM},
                  {"role": "tool", "tool_call_id": "call_x", "content": "GPU 0: NVIDIA H100 80GB HBM3"}])
    assert [(c.inner, c.result_seq) for c in a.commands] == [
        ("nvidia-smi -L", 3), ("tail -3 /var/log/sglang.log", 2)]


def test_an_unknown_id_with_no_call_waiting_answers_nothing(tmp_path: Path) -> None:
    a = _analyze(tmp_path, [_call("call_a", "ssh gpu01 nvidia-smi -L")],
                 [{"role": "tool", "tool_call_id": "call_a", "content": "GPU 0: NVIDIA H100 80GB HBM3"},
                  {"role": "tool", "tool_call_id": "call_old", "content": OOM}])
    assert [(c.inner, c.result_seq) for c in a.commands] == [("nvidia-smi -L", 2)]
    assert [(e.kind, e.command_seq) for e in a.errors] == [("cuda_oom", None)]
