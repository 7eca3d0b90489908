"""analyze: a Codex ``apply_patch`` is a change by the lines it adds, bounded.

After the previous fix an edit tool's call text is kept as a change; a Codex patch's text is the
whole patch (openai/codex ``codex-rs/apply-patch``: ``*** Begin Patch``, context, ``-`` and ``+``
lines), unbounded. Its context and removed lines counted as changed: a patch of the draft's
config.json that changes ``eagle_aux_hidden_state_layer_ids`` next to an unchanged
``"use_cuda_graph": true`` line "changed" the CUDA graph guess's words, so "That fixed it" settled
that guess and left the layer-ids guess, the one fixed, open. Now only the added lines count, and
at most :data:`EDIT_TEXT_CHARS` of them.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path, touched
from spec_debug.session.formats.common import EDIT_TEXT_CHARS

LAUNCH = ("ssh gpu01 'python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3 --speculative-num-steps 3 --port 30000'")
LAYERS = "I suspect the draft was trained on other aux hidden state layer ids than SGLang captures."
GRAPH = "Maybe the CUDA graph capture is disabled for the draft."
FIXED = "That fixed it: 96.8 tok/s now."
PATCH = ("*** Begin Patch\n*** Update File: /models/e3/config.json\n@@\n   \"use_cuda_graph\": true,\n"
         "-  \"eagle_aux_hidden_state_layer_ids\": [1, 23, 44],\n"
         "+  \"eagle_aux_hidden_state_layer_ids\": [2, 16, 29],\n   \"capture_mode\": \"full\"\n*** End Patch\n")


def _say(text: str) -> dict:
    return {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}


def _shell(call_id: str, command: str, output: str) -> list[dict]:
    return [{"type": "function_call", "name": "shell", "call_id": call_id,
             "arguments": json.dumps({"command": ["bash", "-lc", command]})},
            {"type": "function_call_output", "call_id": call_id,
             "output": json.dumps({"output": output, "metadata": {"exit_code": 0, "duration_seconds": 1.0}})}]


def _rollout(path: Path, *items: dict) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/work",
                          "originator": "codex_cli_rs", "cli_version": "0.63.0"}}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_a_patch_of_the_layer_ids_confirms_the_layer_ids_guess(tmp_path):
    path = _rollout(
        tmp_path / "rollout.jsonl",
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "EAGLE-3 gives 60 tok/s on gpu01."}]},
        *_shell("c1", LAUNCH, "The server is fired up and ready to roll!"),
        _say(LAYERS), _say(GRAPH),
        {"type": "custom_tool_call", "status": "completed", "call_id": "p1", "name": "apply_patch", "input": PATCH},
        {"type": "custom_tool_call_output", "call_id": "p1",
         "output": json.dumps({"output": "Success. Updated the following files:\nM /models/e3/config.json\n",
                               "metadata": {"exit_code": 0, "duration_seconds": 0.0}})},
        *_shell("c2", LAUNCH, "The server is fired up and ready to roll!"),
        _say(FIXED))
    a = analyze_path(path)
    assert [(h.text, h.status) for h in a.hypotheses] == [(LAYERS, "confirmed"), (GRAPH, "open")]


def test_a_long_patch_is_kept_bounded():
    big = "*** Begin Patch\n*** Add File: /tmp/x.py\n" + "+x = 1\n" * 100000 + "*** End Patch\n"
    assert len(touched.edit_text("/tmp/x.py", big)) <= EDIT_TEXT_CHARS + len("/tmp/x.py ")
    assert len(touched.edit_text("/tmp/x.py", "y" * 100000)) <= EDIT_TEXT_CHARS + len("/tmp/x.py ")
