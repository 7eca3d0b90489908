"""analyze: an outcome naming only the symptom settles the guess the agent's changes were about.

An agent suspects ``--speculative-num-steps 8`` (too many steps), then, also, the CUDA graph
capture; it greps the server log for cuda, relaunches with ``--speculative-num-steps 3``, and
writes "That fixed it: 96.8 tok/s now." The outcome names no suspect, so it settled the newest
guess: hypotheses[] and the postmortem showed the CUDA graph guess confirmed by a fix of the step
count, and the steps guess, the one fixed, open to the end. An outcome naming none of the open
guesses now settles the one whose subject the relaunches and edits since the newest guess changed
(a relaunch's options that differ from the launch before it, an edit's words); the newest when
they changed nothing of an older one's, or something of the newest's.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer, _bench

LAUNCH = ("ssh gpu01 'python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3 --speculative-num-steps {steps} --speculative-eagle-topk 4 "
          "--speculative-num-draft-tokens 16 {graph}--port 30000'")
BENCH = "ssh gpu01 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
STEPS = "I suspect --speculative-num-steps 8 is too many steps for this draft."
GRAPH = "Maybe the CUDA graph capture is disabled for the draft."
FIXED = "That fixed it: 96.8 tok/s now."


def _session(tmp_path, *change: tuple[str, str]):
    w = _Writer("55550000-0000-4000-8000-0000000000a1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 gives 60 tok/s on gpu01; without speculation it was 90 tok/s.")
    w.bash(LAUNCH.format(steps=8, graph="--disable-cuda-graph "), "The server is fired up and ready to roll!",
           text="Launching the server.")
    w.bash(BENCH, _bench(60.0, 1.4))
    w.say(STEPS)
    w.say(GRAPH)
    w.bash("ssh gpu01 'grep -i cuda /tmp/server.log | tail -3'", "cuda graph: False")
    for command, output in change:
        w.bash(command, output, text="Trying the change.")
    w.bash(BENCH, _bench(96.8, 2.9))
    w.say(FIXED)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _statuses(a):
    return [(h.text, h.status) for h in a.hypotheses]


def test_a_relaunch_with_fewer_steps_confirms_the_steps_guess(tmp_path):
    a = _session(tmp_path, (LAUNCH.format(steps=3, graph="--disable-cuda-graph "), "ready to roll"))
    assert _statuses(a) == [(STEPS, "confirmed"), (GRAPH, "open")]
    assert a.hypotheses[0].outcome == FIXED


def test_an_edit_of_the_steps_confirms_the_steps_guess(tmp_path):
    edit = ("ssh gpu01 \"sed -i 's/\\\"num_steps\\\": 8/\\\"num_steps\\\": 3/' /models/e3/speculators_config.json\"", "")
    a = _session(tmp_path, edit, (LAUNCH.format(steps=8, graph="--disable-cuda-graph "), "ready to roll"))
    assert _statuses(a) == [(STEPS, "confirmed"), (GRAPH, "open")]


def test_a_relaunch_with_cuda_graphs_on_confirms_the_newest(tmp_path):
    a = _session(tmp_path, (LAUNCH.format(steps=8, graph=""), "ready to roll"))
    assert _statuses(a) == [(STEPS, "open"), (GRAPH, "confirmed")]


def test_a_plain_restart_still_settles_the_newest(tmp_path):
    a = _session(tmp_path, (LAUNCH.format(steps=8, graph="--disable-cuda-graph "), "ready to roll"))
    assert _statuses(a) == [(STEPS, "open"), (GRAPH, "confirmed")]


def test_a_change_of_both_settles_the_newest(tmp_path):
    a = _session(tmp_path, (LAUNCH.format(steps=3, graph=""), "ready to roll"))
    assert _statuses(a) == [(STEPS, "open"), (GRAPH, "confirmed")]


VLLM = ("ssh gpu01 'vllm serve /models/llama --speculative-config "
        "\"{{\\\"method\\\": \\\"eagle3\\\", \\\"model\\\": \\\"/models/e3\\\", \\\"num_speculative_tokens\\\": {n}}}\" "
        "--port 8000'")


def test_a_vllm_relaunch_with_fewer_speculative_tokens_confirms_that_guess(tmp_path):
    tokens = "I suspect num_speculative_tokens 8 is too many for this draft."
    graph = "Maybe the CUDA graph capture is off in the vLLM engine."
    w = _Writer("55550000-0000-4000-8000-0000000000a2", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 on vLLM gives 60 tok/s on gpu01.")
    w.bash(VLLM.format(n=8), "INFO:     Application startup complete.", text="Launching the server.")
    w.say(tokens)
    w.say(graph)
    w.bash(VLLM.format(n=3), "INFO:     Application startup complete.", text="Relaunching.")
    w.say(FIXED)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert _statuses(analyze_path(path)) == [(tokens, "confirmed"), (graph, "open")]


def test_an_outcome_naming_what_both_guesses_name_follows_the_change(tmp_path):
    # "the draft" is in both guesses: it names neither more than the other
    fixed = "That fixed it: the draft now does 96.8 tok/s."
    w = _Writer("55550000-0000-4000-8000-0000000000a3", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 gives 60 tok/s on gpu01.")
    w.bash(LAUNCH.format(steps=8, graph="--disable-cuda-graph "), "ready to roll", text="Launching the server.")
    w.say(STEPS)
    w.say(GRAPH)
    w.bash(LAUNCH.format(steps=3, graph="--disable-cuda-graph "), "ready to roll", text="Relaunching.")
    w.say(fixed)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert _statuses(analyze_path(path)) == [(STEPS, "confirmed"), (GRAPH, "open")]


def test_an_outcome_naming_the_newest_alone_settles_it(tmp_path):
    # "capture" is the CUDA graph guess's alone: whatever the relaunch changed, it speaks of that one
    fixed = "That fixed it: with capture on the draft does 96.8 tok/s."
    w = _Writer("55550000-0000-4000-8000-0000000000a4", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 gives 60 tok/s on gpu01.")
    w.bash(LAUNCH.format(steps=8, graph="--disable-cuda-graph "), "ready to roll", text="Launching the server.")
    w.say(STEPS)
    w.say(GRAPH)
    w.bash(LAUNCH.format(steps=3, graph="--disable-cuda-graph "), "ready to roll", text="Relaunching.")
    w.say(fixed)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert _statuses(analyze_path(path)) == [(STEPS, "open"), (GRAPH, "confirmed")]
