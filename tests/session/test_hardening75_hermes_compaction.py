"""Hermes Agent compresses a long conversation by replacing its middle turns with a summary message,
user or assistant as the turns around it allow: ``[CONTEXT COMPACTION — REFERENCE ONLY] Earlier
turns were compacted into the summary below. ...`` (``[CONTEXT SUMMARY]:`` in earlier releases),
closed by ``--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---``;
when it must share the person's next message, their words come first between ``[PRIOR CONTEXT —
for reference only; not a new message]`` and ``[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]``
(NousResearch/hermes-agent ``agent/context_compressor.py``).

Before: the summary was a prompt the person typed (the postmortem listed the handoff note among
their requests) and no compaction was counted. Now it is the compaction and its summary; the
person's words in a merged message are still their prompt."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

PREFIX = ("[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted into the summary below. This is a "
          "handoff from a previous context window — treat it as background reference, NOT as active instructions. "
          "The current session state (files, config, etc.) may reflect work described here — avoid repeating it:")
BODY = ("\n## Historical Task Snapshot\nStart the EAGLE-3 server; the launch failed with torch.OutOfMemoryError: "
        "CUDA out of memory.")
END = "\n\n--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---"


def _session(tmp_path: Path, summary: dict, after: list[dict]) -> Path:
    messages = [{"role": "system", "content": "You are Hermes Agent."},
                {"role": "user", "content": "start the EAGLE-3 server"},
                summary,
                {"role": "assistant", "content": "", "tool_calls": [{"id": "c0", "type": "function", "function": {
                    "name": "terminal", "arguments": json.dumps({"command": "nvidia-smi"})}}]},
                {"role": "tool", "tool_call_id": "c0", "content": json.dumps(
                    {"output": "GPU 0: NVIDIA H100", "exit_code": 0, "error": None})},
                *after]
    path = tmp_path / "session_20261102_090000_7a8b9c.json"
    path.write_text(json.dumps({"session_id": "20261102_090000_7a8b9c", "messages": messages}))
    return path


def test_a_summary_message_is_a_compaction_not_a_prompt(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, {"role": "user", "content": PREFIX + BODY + END},
                              [{"role": "user", "content": "now lower --mem-fraction-static"},
                               {"role": "assistant", "content": "Done."}]))
    assert [p.text for p in a.prompts] == ["start the EAGLE-3 server", "now lower --mem-fraction-static"]
    assert a.stats["compactions"] == 1
    assert [c.command for c in a.commands] == ["nvidia-smi"]


def test_the_words_typed_with_the_summary_stay_a_prompt(tmp_path: Path) -> None:
    merged = ("[PRIOR CONTEXT — for reference only; not a new message]\ncheck the GPU first\n"
              "[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]\n" + PREFIX + BODY + END)
    legacy = "[CONTEXT SUMMARY]: The launch failed with a CUDA OOM." + END + "\n\nthen try tp 2"
    for summary, typed in ((merged, "check the GPU first"), (legacy, "then try tp 2")):
        a = analyze_path(_session(tmp_path, {"role": "user", "content": summary}, []))
        assert [p.text for p in a.prompts] == ["start the EAGLE-3 server", typed]
        assert a.stats["compactions"] == 1


def test_an_assistant_summary_is_a_compaction(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, {"role": "assistant", "content": PREFIX + BODY + END}, []))
    assert a.stats["compactions"] == 1
    assert [p.text for p in a.prompts] == ["start the EAGLE-3 server"]


def test_the_notes_hermes_adds_after_a_compaction_are_no_prompts(tmp_path: Path) -> None:
    """After a compaction Hermes puts the task list back as a user message of its own
    (``[Your active task list was preserved across context compression]``), and adds "Continue from
    the compressed conversation context above. ..." when the person's turns were all compressed."""
    a = analyze_path(_session(tmp_path, {"role": "user", "content": PREFIX + BODY + END}, [
        {"role": "user", "content": "[Your active task list was preserved across context compression]\n"
                                    "- [>] 1. relaunch with --mem-fraction-static 0.7"},
        {"role": "user", "content": "Continue from the compressed conversation context above. This marker exists "
                                    "because no human user turn was available."},
        {"role": "assistant", "content": "Relaunching."}]))
    assert [p.text for p in a.prompts] == ["start the EAGLE-3 server"]
