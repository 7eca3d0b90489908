"""distill tells the draft checkpoint by the config the session printed, not only by its folder's name.

A session that found a config fault without launching a server read the checkpoints' configs:
``cat /models/run7/config.json`` printed a speculators EAGLE-3 config ("Eagle3DraftModel",
"speculators_model_type": "eagle3") and ``cat /models/DeepSeek-V3/config.json`` the target's.
Before, distill told draft from target by the folder's name alone: ``run7`` names no drafter, so
the built-in check's draft var was left empty ("the session read no draft checkpoint ... the step
is skipped without it"), and where run7 was the only read it became the *target*. Now a folder
whose printed config shows a drafter is the draft, whatever it is called, whether a command
printed it or a file tool (Claude Code's Read) showed it; a target's config, and a command that
prints two configs at once, tell nothing."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.checkpoints_seen import shown_draft
from spec_debug.session.distill import distill_playbook
from tests.session.test_hardening51_distill_builtin_checks import _claude_session

DRAFT_CONFIG = (Path(__file__).parents[1] / "data" / "speculators_eagle3_draft" / "config.json").read_text()
SAID = "Training used layer ids [3, 31, 59] but the draft config says [0, 2, 4]."


def _vars(tmp_path: Path, calls: list[tuple[str, str]]) -> tuple[str, str, str]:
    session = tmp_path / "s.jsonl"
    _claude_session(session, calls, SAID)
    doc = distill_playbook(analyze_path(session))
    (check,) = [s for s in doc["steps"] if s.get("probe") == "model_configs"]
    return doc["vars"]["draft_model"], doc["vars"]["target_model"], check["why"]


def test_a_drafter_in_a_plain_folder_is_the_draft(tmp_path):
    draft, target, why = _vars(tmp_path, [
        ("ssh gpu01 'cat /models/run7/config.json'", DRAFT_CONFIG),
        ("ssh gpu01 'cat /models/DeepSeek-V3/config.json | grep vocab_size'", '"vocab_size": 129280,'),
    ])
    assert (draft, target) == ("/models/run7", "/models/DeepSeek-V3")
    assert "(the draft /models/run7 [msg 1], the target /models/DeepSeek-V3 [msg 3])" in why


def test_the_only_config_read_a_drafter_is_no_target(tmp_path):
    draft, target, _ = _vars(tmp_path, [
        ("jq . /ckpt/run7/step_4000/config.json", DRAFT_CONFIG),
    ])
    assert (draft, target) == ("/ckpt/run7/step_4000", "")


def test_what_tells_nothing():
    sglang = json.dumps({"architectures": ["LlamaForCausalLMEagle3"], "draft_vocab_size": 32000})
    assert shown_draft("cat /models/run7/config.json", sglang) == "/models/run7"
    assert shown_draft("cat ~/ckpt/r2/config.json | head -5", '  "architectures": [\n    "Eagle3LlamaForCausalLM"') \
        == "~/ckpt/r2"
    target = json.dumps({"architectures": ["DeepseekV3ForCausalLM"], "num_nextn_predict_layers": 1})
    assert shown_draft("cat /models/DeepSeek-V3/config.json", target) is None
    assert shown_draft("cat /models/run7/config.json /models/DeepSeek-V3/config.json", sglang + target) is None
    assert shown_draft("cat config.json", sglang) is None  # a relative path: the session's own folder


def test_a_file_tools_read_of_the_drafters_config(tmp_path):
    # Claude Code's Read shows the file with its line numbers (cat -n's)
    shown = "".join(f"{n:>6}\t{line}\n" for n, line in enumerate(DRAFT_CONFIG.splitlines(), 1))
    lines = [{"type": "user", "message": {"role": "user", "content": "Acceptance is near zero on this box."}},
             {"type": "assistant", "message": {"role": "assistant", "content": [
                 {"type": "tool_use", "id": "t0", "name": "Read", "input": {"file_path": "/models/run7/config.json"}}]}},
             {"type": "user", "message": {"role": "user", "content": [
                 {"type": "tool_result", "tool_use_id": "t0", "content": shown}]}},
             {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": SAID}]}}]
    for n, line in enumerate(lines):
        line.update(uuid=f"u{n}", parentUuid=f"u{n - 1}" if n else None, sessionId="s",
                    timestamp=f"2026-11-20T10:{n:02d}:00.000Z")
    session = tmp_path / "s.jsonl"
    session.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    doc = distill_playbook(analyze_path(session))
    assert (doc["vars"]["draft_model"], doc["vars"]["target_model"]) == ("/models/run7", "")
