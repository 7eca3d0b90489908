"""A folder of logged calls whose names say nothing of time: LiteLLM's Azure Blob Storage logger
writes each call's StandardLoggingPayload to ``<YYYY-MM-DD>/<id>.json``, the id a uuid4
(BerriAI/litellm ``litellm/integrations/azure_storage/azure_storage.py``,
``upload_to_azure_data_lake_with_azure_account_key``). The folder was read in the order of the
names: the last call first, and as its request holds the whole history every event was that
call's, its file and its time, as if the run had been one call."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_SYSTEM = {"role": "system", "content": "You debug EAGLE-3 speculative decoding on a GPU fleet."}
_USER = {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"}


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function",
         "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}


C1 = _call("call_1", "ssh gpu07 nvidia-smi")
R1 = {"role": "tool", "tool_call_id": "call_1",
      "content": "Failed to initialize NVML: Driver/library version mismatch\nexit code 18"}
C2 = _call("call_2", "ssh gpu07 sudo reboot")
R2 = {"role": "tool", "tool_call_id": "call_2", "content": "Reboot scheduled for Sat 2025-12-06 10:31:00 UTC"}
DONE = {"role": "assistant", "content": "gpu07 is rebooting."}
CALLS = [([_SYSTEM, _USER], C1), ([_SYSTEM, _USER, C1, R1], C2), ([_SYSTEM, _USER, C1, R1, C2, R2], DONE)]
STARTS = [1764930080.1, 1764930084.0, 1764930091.8]  # 2025-12-05 10:21:20, :24, :31 UTC
# uuid4 names, in the reverse of the calls' order by name
NAMES = ["e0c4b8a2-5f6d-4c1e-9a3b-7d2f1e0c9b84.json", "7b1d9e3f-2a4c-4e8b-b6d1-0f3a9c2e5d71.json",
         "1f9a6c2e-8b3d-4a7f-a1e5-c4d2b9e0f6a3.json"]


def _payload(call_id: str, messages: list, answer: dict, start: float) -> dict:
    """LiteLLM's StandardLoggingPayload (BerriAI/litellm ``litellm/types/utils.py``): ``id`` the call's
    uuid, ``response`` the completion, ``startTime``/``endTime`` epoch seconds."""
    return {"id": call_id, "trace_id": "4b1f", "call_type": "acompletion", "stream": False, "status": "success",
            "startTime": start, "endTime": start + 2.5, "model": "gpt-4.1", "messages": messages,
            "response": {"id": f"chatcmpl-{int(start)}", "object": "chat.completion", "created": int(start) + 2,
                         "model": "gpt-4.1",
                         "choices": [{"index": 0, "message": answer, "finish_reason": "stop"}]}}


def _azure_folder(root: Path) -> Path:
    day = root / "litellm-logs" / "2025-12-05"
    day.mkdir(parents=True)
    for name, (messages, answer), start in zip(NAMES, CALLS, STARTS):
        (day / name).write_text(json.dumps(_payload(name.removesuffix(".json"), messages, answer, start)))
    return day


def test_calls_named_by_uuid_are_read_in_the_order_they_were_made(tmp_path: Path) -> None:
    day = _azure_folder(tmp_path)
    doc = analyze_path(day).to_json()
    assert [(s["id"], s["events"]) for s in doc["sessions"]] == [("2025-12-05", 7)]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("ssh gpu07 nvidia-smi", 18), ("ssh gpu07 sudo reboot", None)]
    # each command came in the answer of the call that brought it, answered when that call was
    assert [(Path(c["file"]).name, c["timestamp"]) for c in doc["commands"]] == [
        (NAMES[0], "2025-12-05T10:21:22.000Z"), (NAMES[1], "2025-12-05T10:21:26.000Z")]

