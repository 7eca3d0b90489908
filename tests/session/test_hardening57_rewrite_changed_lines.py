"""analyze: a Write of a whole file again changed only the lines that differ.

The agent writes /root/serve.yaml (the draft's steps and its CUDA graph setting), suspects
``--speculative-num-steps 8`` and then the CUDA graph capture, writes serve.yaml again with only
``speculative_num_steps: 3`` new, relaunches and says "That fixed it: 96.8 tok/s now." A Write's
whole content was its change, so its unchanged ``cuda_graph: false`` line named the newest guess
and the outcome settled that one, not the steps guess the rewrite fixed. A Write of a path the
agent wrote before now changes the lines the earlier Write did not hold; a first Write is still
a change whole.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.touched import rewritten
from tests.session.incident_story import _Writer, _bench

BENCH = "ssh gpu01 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
LAUNCH = "ssh gpu01 'python -m sglang.launch_server --config /root/serve.yaml'"
STEPS = "I suspect --speculative-num-steps 8 is too many steps for this draft."
GRAPH = "Maybe the CUDA graph capture is disabled for the draft."
YAML = "model_path: /models/llama\nspeculative_algorithm: EAGLE3\nspeculative_num_steps: {steps}\ncuda_graph: false\n"


def _session(tmp_path, first_write: bool):
    w = _Writer("57570000-0000-4000-8000-0000000000b2", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 gives 60 tok/s on this box; without speculation it was 90 tok/s.")
    if first_write:
        w.tool("Write", {"file_path": "/root/serve.yaml", "content": YAML.format(steps=8)}, "File created successfully")
    w.bash(LAUNCH, "The server is fired up and ready to roll!", text="Launching the server.")
    w.bash(BENCH, _bench(60.0, 1.4))
    w.say(STEPS)
    w.say(GRAPH)
    w.tool("Write", {"file_path": "/root/serve.yaml", "content": YAML.format(steps=3)}, "File written successfully")
    w.bash(LAUNCH, "The server is fired up and ready to roll!", text="Relaunching.")
    w.bash(BENCH, _bench(96.8, 2.9))
    w.say("That fixed it: 96.8 tok/s now.")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_a_rewrite_of_the_steps_confirms_the_steps_guess(tmp_path):
    a = _session(tmp_path, True)
    assert [(h.text, h.status) for h in a.hypotheses] == [(STEPS, "confirmed"), (GRAPH, "open")]


def test_a_first_write_is_a_change_whole(tmp_path):
    # nothing known of the file before: its cuda_graph line may be new, the newest guess stays the one
    a = _session(tmp_path, False)
    assert [(h.text, h.status) for h in a.hypotheses] == [(STEPS, "open"), (GRAPH, "confirmed")]


def test_rewritten_is_bounded_and_keeps_new_lines():
    written: OrderedDict = OrderedDict()
    assert rewritten(written, "/a.yaml", "/a.yaml x: 1\ny: 2") == "/a.yaml x: 1\ny: 2"
    assert rewritten(written, "/a.yaml", "/a.yaml x: 1\ny: 3") == "/a.yaml y: 3"
    for i in range(100):
        rewritten(written, f"/f{i}", f"/f{i} z")
    assert len(written) <= 32
