"""An OpenHands evaluation's output folder: ``output.jsonl`` (one instance a line) beside
``llm_completions/<instance_id>/<model>-<time>.json``, the raw LLM request and response OpenHands
logs per call when ``log_completions`` is on (All-Hands-AI/OpenHands ``openhands/llm/llm.py``;
folder from ``evaluation/utils/shared.py``). Scanning the folder read every such file as one more
OpenAI session, each a copy of its instance's conversation so far."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from spec_debug.session import analyze_path

OUTPUT = Path(__file__).parent / "data_h15" / "openhands_eval_output.jsonl"


def _completion_log(folder: Path, instance_id: str, n: int) -> None:
    """One call as OpenHands' ``log_completions`` writes it: messages, response, args, kwargs,
    timestamp, cost."""
    folder = folder / "llm_completions" / instance_id
    folder.mkdir(parents=True, exist_ok=True)
    call = {
        "messages": [{"role": "system", "content": "You are OpenHands agent"},
                     {"role": "user", "content": "ponyc segfaults when trying to match a single element tuple"}],
        "response": {"id": f"gen-{n}", "object": "chat.completion", "created": 1746030774 + n,
                     "model": "openrouter-llama-4-maverick",
                     "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                         "role": "assistant", "content": "Let me look at the repository.",
                         "tool_calls": [{"id": f"toolu_{n}", "type": "function", "function": {
                             "name": "execute_bash", "arguments": json.dumps({"command": "ls -l /workspace"})}}]}}],
                     "usage": {"prompt_tokens": 5920, "completion_tokens": 128}},
        "args": [], "kwargs": {"stop": ["</execute_bash>"]}, "timestamp": 1746030777.8 + n, "cost": 0.0,
    }
    (folder / f"openai__openrouter-llama-4-maverick-{1746030777.8 + n}.json").write_text(json.dumps(call))


def test_an_evaluation_folder_is_its_instances_not_its_request_logs(tmp_path: Path) -> None:
    shutil.copy(OUTPUT, tmp_path / "output.jsonl")
    (tmp_path / "metadata.json").write_text(json.dumps({"agent_class": "CodeActAgent", "max_iterations": 50}))
    instance_ids = [json.loads(line)["instance_id"] for line in OUTPUT.read_text().splitlines() if line.strip()]
    for n, instance_id in enumerate(instance_ids):
        _completion_log(tmp_path, instance_id, n)

    a = analyze_path(tmp_path)
    assert sorted(s["id"] for s in a.sessions) == sorted(instance_ids)
    assert a.format == "openhands"


def test_a_folder_named_llm_completions_elsewhere_is_still_scanned(tmp_path: Path) -> None:
    """Only beside an evaluation's output is the folder OpenHands' request log."""
    _completion_log(tmp_path, "run1", 0)
    a = analyze_path(tmp_path)
    assert len(a.sessions) == 1
