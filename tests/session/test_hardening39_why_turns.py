"""A command's `why` is the agent's reasoning in the same turn: a person's message between the
agent's words and its next command ends that turn; and a distilled step's why is the words that
led to it, not to the command before it. Sessions are written the way Claude Code writes them
(incident_story._Writer); the worker-process read must give the same analysis."""

from __future__ import annotations

import json
import multiprocessing
from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path, parallel
from spec_debug.session.distill import distill_playbook
from tests.session.incident_story import _Writer

ASKED = "The GPUs look fine. Should I restart the server with a bigger --mem-fraction-static?"


def _session(tmp_path: Path, rounds: int = 1) -> Path:
    m = _Writer("9a1b0000-0000-4000-8000-00000000d039", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
    for _ in range(rounds):
        m.bash("ssh root@gpu01 nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)",
               text="First I'll look at the GPUs on gpu01.")
        m.say(ASKED)
        m.prompt("No, never restart it. Read the server log for the accept length instead.")
        m.bash("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "Decode batch. accept len: 1.02")
        m.bash("ssh root@gpu01 'curl -sf http://localhost:30000/health'",
               "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused", exit_code=7)
        m.bash("ssh root@gpu01 'ps aux | grep sglang'", "root 4121 python3 -m sglang.launch_server")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return path


def test_the_agents_question_before_a_persons_answer_is_no_reason_for_its_next_command(tmp_path):
    """The agent asked "Should I restart the server?", the person said no and to read the log,
    and the agent ran `tail` with no word of its own. Before, `tail` was shown with the question
    (2 seq before it, within reach), and a playbook step reading the log gave as its why the
    restart the person had just refused."""
    analysis = analyze_path(_session(tmp_path))
    whys = {c.inner: c.why for c in analysis.commands}
    assert whys["nvidia-smi -L"] == "First I'll look at the GPUs on gpu01."
    assert whys["tail -n 20 /var/log/sglang.log"] == "", whys
    doc = distill_playbook(analysis)
    assert not any("restart" in step["why"] for step in doc["steps"]), doc["steps"]


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="the worker processes are forked")
def test_the_turn_ends_at_a_persons_message_wherever_the_spans_are_cut(monkeypatch, tmp_path):
    """The worker processes read the file in byte spans (spec_debug.session.parallel): the
    analysis is the same as the one-process read for every cut, the question never quoted."""
    path = _session(tmp_path, rounds=6)
    monkeypatch.setattr(parallel, "_start_method", lambda: "fork")
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", float("inf"))
    one = json.dumps(analyze_path(path).to_json(), indent=1)
    assert ASKED not in {c["why"] for c in json.loads(one)["commands"]}
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    ran = []
    real = parallel._parsed_in_workers

    def spy(*args):
        ran.append(True)
        return real(*args)

    monkeypatch.setattr(parallel, "_parsed_in_workers", spy)
    for span in (700, 1500, 4000):
        monkeypatch.setattr(parallel, "SPAN_BYTES", span)
        assert json.dumps(analyze_path(path).to_json(), indent=1) == one, span
    assert ran, "the workers did not run"


def test_a_step_is_not_given_the_words_that_led_to_the_command_before_it(tmp_path):
    """"Let me see what changed recently in the checkout", then `git log` (no step), then the
    benchmark (a step: SD501's evidence) with no words of its own. Before, the benchmark step's why
    was the git log's reason: the words stood for the first chosen step, not the first command."""
    m = _Writer("9a1b0000-0000-4000-8000-00000000d339", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 in our sglang checkout is slower than without speculation (54.8 vs 90 tok/s).")
    m.bash("git log --oneline -3", "a1b2c3d eagle3: capture aux hidden states", text="Let me see what changed recently "
                                                                                 "in the checkout.")
    m.bash("ssh root@gpu01 'python3 -m sglang.bench_one_batch --model-path meta-llama/Llama-3.1-8B-Instruct "
           "--batch-size 1'", "Decode.  median latency: 0.0182 s, median throughput:     54.80 token/s")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    analysis = analyze_path(path)
    assert [c.why for c in analysis.commands][:2] == ["Let me see what changed recently in the checkout."] * 2
    steps = {s["run"].split()[0]: s for s in distill_playbook(analysis)["steps"]}
    assert steps["python3"]["why"].startswith("In the session its output was evidence for SD501"), steps
    assert "checkout" not in steps["python3"]["why"]
