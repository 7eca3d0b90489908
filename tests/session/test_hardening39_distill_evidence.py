"""A distilled step is evidence of a finding by what its command printed, not by the words the
agent wrote in the same message. An OpenAI chat message holds the agent's text and its tool
calls together (one seq): a finding read from the text is no finding of the call's output."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.playbook import load_playbook_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook

PS = "python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct " \
     "--speculative-config {\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", " \
     "\"num_speculative_tokens\": 1} --port 8000"
BENCH = "============ Serving Benchmark Result ============\nSuccessful requests: 32\n" \
        "Output token throughput (tok/s): 410.22\nMean TPOT (ms): 21.3\n"


def _call(call_id: str, command: str) -> dict:
    return {"id": call_id, "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}


def _session(tmp_path: Path, said: str, command: str, output: str) -> Path:
    messages = [
        {"role": "system", "content": "You are a debugging agent."},
        {"role": "user", "content": "vLLM with EAGLE-3 on gpu03 is slower than without. Find out why."},
        {"role": "assistant", "content": "Let me check the server's flags.",
         "tool_calls": [_call("c1", "ssh ubuntu@gpu03 'ps -eo args | grep [v]llm'")]},
        {"role": "tool", "tool_call_id": "c1", "content": PS},
        {"role": "assistant", "content": "Now the benchmark.", "tool_calls": [_call(
            "c2", "ssh ubuntu@gpu03 'vllm bench serve --model meta-llama/Llama-3.1-8B-Instruct --num-prompts 32'")]},
        {"role": "tool", "tool_call_id": "c2", "content": BENCH},
        {"role": "assistant", "content": said, "tool_calls": [_call("c3", command)]},
        {"role": "tool", "tool_call_id": "c3", "content": output},
    ]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    return path


def test_a_slowdown_stated_beside_a_call_is_no_evidence_of_its_output(tmp_path):
    """"Throughput is 410 tok/s; the baseline was 520 tok/s" (SD501, read from the text) in the
    message that also calls `grep acceptance vllm.log`. Before, the grep became a step whose why
    said its output was evidence for SD501: the log's acceptance line says nothing of throughput."""
    path = _session(tmp_path, "Throughput is 410 tok/s; the baseline was 520 tok/s. Check the acceptance in the log.",
                    "ssh ubuntu@gpu03 'grep -i acceptance /var/log/vllm.log | tail -n 3'",
                    "INFO SpecDecoding metrics: Mean acceptance length: 1.05, Accepted: 121 tokens, Drafted: 2300 tokens")
    analysis = analyze_path(path)
    (sd501,) = [f for f in analysis.findings if f.code == "SD501"]
    grep = next(c for c in analysis.commands if "grep -i acceptance" in c.command)
    assert grep.seq in sd501.evidence_seqs  # the text of the call's own message
    doc = distill_playbook(analysis)
    load_playbook_text(dump_playbook(doc), "distilled.yaml")
    assert not any("SD501" in s["why"] and "grep" in s.get("run", "") for s in doc["steps"]), doc["steps"]
    assert not any("acceptance" in s.get("run", "") for s in doc["steps"]), doc["steps"]


def test_a_command_whose_output_holds_the_evidence_stays_a_step(tmp_path):
    """The same message shape, where the call's output is the evidence (its log shows a
    throughput under the baseline the text names): the step stays, and says so."""
    path = _session(tmp_path, "The baseline without speculation was 520 tok/s. Check the server log.",
                    "ssh ubuntu@gpu03 'tail -n 2 /var/log/vllm.log'",
                    "INFO Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 402.5 tokens/s")
    analysis = analyze_path(path)
    tail = next(c for c in analysis.commands if "tail -n 2" in c.command)
    assert any(f.code == "SD501" and tail.result_seq in f.evidence_seqs for f in analysis.findings), analysis.findings
    doc = distill_playbook(analysis)
    (step,) = [s for s in doc["steps"] if s.get("run", "").startswith("tail -n 2")]
    assert "evidence for SD501" in step["why"], step
