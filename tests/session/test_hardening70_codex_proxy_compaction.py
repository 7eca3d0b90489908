"""Codex's own compaction (a provider with no remote compaction: a local vLLM or SGLang server) through a
logging proxy. Codex asks the model for a handoff summary with its compaction prompt as the last user
message (openai/codex ``codex-rs/core/templates/compact/prompt.md``, "You are performing a CONTEXT
CHECKPOINT COMPACTION. ..."), then sends each later request as a new history: its context, the
person's earlier messages, and the summary in a user message after its bridge (``templates/compact/
summary_prefix.md``, "Another language model started to solve this problem ...";
``codex-rs/core/src/compact.rs``, ``build_compacted_history``). Read from the proxy's record, both
were the person's prompts, and the earlier prompts the rewritten history repeats were read again."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening69_codex_proxy_conversations import (
    A1, ASK_A, OA1, _AGENTS, _ENV, _ask, _output, _record, _said, _shell)

COMPACT = _ask("You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM that "
               "will resume the task.\n\nInclude:\n- Goal / user objective\n- Current progress and key decisions "
               "made\n")
PREFIX = ("Another language model started to solve this problem and produced a summary of its thinking process. "
          "You also have access to the state of the tools that were used by that language model. Use this to build "
          "on the work that has already been done and avoid duplicating work. Here is the summary produced by the "
          "other language model, use the information in this summary to  assist with your own analysis:")
SUMMARY = "Goal: find why acceptance dropped on gpu07.\nDone: nvidia-smi failed (driver mismatch).\nNext: gpu12."
ASK_2 = _ask("now look at gpu12")
REPLY = _said("Reinstall the driver on gpu07.")
B1 = _shell("call_b1", "ssh gpu12 nvidia-smi")
OB1 = _output("call_b1", "Exit code: 0\nWall time: 0.2 seconds\nOutput:\nok\n")
C1 = _shell("call_c1", "ssh gpu12 'tail -n 20 sglang.log'")
OC1 = _output("call_c1", "Exit code: 0\nWall time: 0.2 seconds\nOutput:\naccept len 3.2\n")
HEAD = [_AGENTS, _ENV, ASK_A, A1, OA1, REPLY, ASK_2, B1, OB1]
AFTER = [_AGENTS, _ENV, ASK_A, ASK_2, _ask(f"{PREFIX}\n{SUMMARY}")]
CALLS = [
    ([_AGENTS, _ENV, ASK_A], [A1]),
    ([_AGENTS, _ENV, ASK_A, A1, OA1], [REPLY]),
    ([_AGENTS, _ENV, ASK_A, A1, OA1, REPLY, ASK_2], [B1]),
    ([*HEAD, COMPACT], [_said(SUMMARY)]),  # the compaction call
    (AFTER, [C1]),
    ([*AFTER, C1, OC1], [_said("gpu12 accepts 3.2 tokens a step.")]),
]


def test_codex_s_compaction_through_a_proxy_adds_no_prompt(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, (items, output) in enumerate(CALLS):
        (logs / f"2025-12-05_10-21-2{n}-000000.json").write_text(
            json.dumps(_record("019a6e1c-a", items, output, n)))
    doc = analyze_path(logs).to_json()
    assert [p["text"] for p in doc["prompts"]] == ["accept length dropped on gpu07", "now look at gpu12"]
    assert [c["command"] for c in doc["commands"]] == [
        "ssh gpu07 nvidia-smi", "ssh gpu12 nvidia-smi", "ssh gpu12 'tail -n 20 sglang.log'"]
