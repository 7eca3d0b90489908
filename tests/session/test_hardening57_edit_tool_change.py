"""analyze: an Edit (MultiEdit, Write) of the draft's config.json is a change whose words say what
it changed, as a ``sed -i`` of the same file is.

An agent suspects the draft's aux hidden-state layer ids, then, also, the CUDA graph capture;
it edits ``eagle_aux_hidden_state_layer_ids`` in config.json with Claude Code's Edit tool,
relaunches the same command, and writes "That fixed it: 96.8 tok/s now." The Edit call kept
only its path, so the outcome (naming no suspect) settled the newest guess, the CUDA graph one,
and the layer-ids guess stayed open. The call now keeps the lines its edit wrote (bounded), in
the inline reader and in the worker processes of a large file alike.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path, parallel
from spec_debug.session.formats.common import EDIT_TEXT_CHARS, edited_text
from tests.session.incident_story import _Writer, _bench

LAUNCH = ("ssh gpu01 'python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3 --speculative-num-steps 3 --port 30000'")
BENCH = "ssh gpu01 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
LAYERS = "I suspect the draft was trained on other aux hidden state layer ids than SGLang captures."
GRAPH = "Maybe the CUDA graph capture is disabled for the draft."
FIXED = "That fixed it: 96.8 tok/s now."
OLD = '  "eagle_aux_hidden_state_layer_ids": [1, 23, 44],'
NEW = '  "eagle_aux_hidden_state_layer_ids": [2, 16, 29],'


def _session(tmp_path, tool: str, tool_input: dict):
    w = _Writer("57570000-0000-4000-8000-0000000000e1", None, datetime(2026, 12, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 gives 60 tok/s on gpu01; without speculation it was 90 tok/s.")
    w.bash(LAUNCH, "The server is fired up and ready to roll!", text="Launching the server.")
    w.bash(BENCH, _bench(60.0, 1.4))
    w.say(LAYERS)
    w.say(GRAPH)
    w.tool(tool, tool_input, "The file /models/e3/config.json has been updated.")
    w.bash(LAUNCH, "The server is fired up and ready to roll!", text="Relaunching.")
    w.bash(BENCH, _bench(96.8, 2.9))
    w.say(FIXED)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


EDIT = ("Edit", {"file_path": "/models/e3/config.json", "old_string": OLD, "new_string": NEW})
MULTI = ("MultiEdit", {"file_path": "/models/e3/config.json", "edits": [
    {"old_string": '"torch_dtype": "float16"', "new_string": '"torch_dtype": "bfloat16"'},
    {"old_string": OLD, "new_string": NEW}]})
WRITE = ("Write", {"file_path": "/models/e3/config.json", "content": "{\n" + NEW + '\n  "rope_theta": 500000.0\n}\n'})


@pytest.mark.parametrize("call", [EDIT, MULTI, WRITE], ids=["Edit", "MultiEdit", "Write"])
@pytest.mark.parametrize("workers", [False, True], ids=["inline", "workers"])
def test_an_edit_of_the_layer_ids_confirms_the_layer_ids_guess(tmp_path, monkeypatch, call, workers):
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0 if workers else float("inf"))
    a = _session(tmp_path, *call)
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "confirmed"), (GRAPH, "open")]
    assert a.hypotheses[0].outcome == FIXED


def test_an_edit_of_something_else_still_settles_the_newest(tmp_path):
    a = _session(tmp_path, "Edit", {"file_path": "/root/work/notes.md", "old_string": "todo", "new_string": "done"})
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "open"), (GRAPH, "confirmed")]


def test_the_kept_text_is_what_changed_and_bounded():
    assert edited_text({"old_string": "a\nb", "new_string": "a\nc"}) == "c"
    long = edited_text({"content": "x" * 100 + "\n" + ("word " * 10000)})
    assert len(long) <= EDIT_TEXT_CHARS
    assert edited_text({"edits": "oops"}) == "" and edited_text({}) == ""
