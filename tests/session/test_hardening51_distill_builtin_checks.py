"""A session that found the drafter's d2t broken with its own ``python -c 'print(d2t[:6])'``
was distilled into that command alone: the playbook never ran spec-debug's vocab_maps check,
which reads d2t, t2d and the head rows against the target vocabulary, on the checkpoints the
session's server was launched with. It now adds that check (and model_configs for a config or
layer finding) after the session's own steps, with the draft and target of the last launch as
vars; run on a speculators-saved checkpoint whose d2t holds absolute ids, the step finds SD302."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.session import analyze_path  # noqa: E402
from spec_debug.session.distill import distill_playbook, dump_playbook  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


def _claude_session(path: Path, calls: list[tuple[str, str]], said: str) -> None:
    lines: list[dict] = [{"type": "user", "message": {"role": "user", "content": "Acceptance is near zero on gpu01."}}]
    for n, (command, output) in enumerate(calls):
        lines += [{"type": "assistant", "message": {"role": "assistant", "content": [
                      {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": command}}]}},
                  {"type": "user", "message": {"role": "user", "content": [
                      {"type": "tool_result", "tool_use_id": f"t{n}", "content": output}]}}]
    lines.append({"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": said}]}})
    for n, line in enumerate(lines):
        line.update(uuid=f"u{n}", parentUuid=f"u{n - 1}" if n else None, sessionId="s",
                    timestamp=f"2026-11-20T10:{n:02d}:00.000Z")
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


@pytest.fixture(scope="module")
def absolute_d2t(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("absolute_d2t")
    save_verifier_and_draft(root)
    tensors = load_file(str(root / "draft" / "model.safetensors"))
    tensors["d2t"] = tensors["d2t"] + torch.arange(len(tensors["d2t"]), dtype=tensors["d2t"].dtype)  # ids, not offsets
    save_file(tensors, str(root / "draft" / "model.safetensors"))
    return root / "draft", root / "target"


def test_a_vocab_finding_adds_the_vocab_maps_check_on_the_launched_checkpoints(absolute_d2t, tmp_path):
    draft, target = absolute_d2t
    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        (f"python -m sglang.launch_server --model-path {target} --speculative-algorithm EAGLE3 "
         f"--speculative-draft-model-path {draft} --speculative-num-steps 3 --speculative-eagle-topk 1 "
         "--speculative-num-draft-tokens 4 --port 30000 &", ""),
        (f"python -c 'from safetensors.torch import load_file; print(load_file(\"{draft}/model.safetensors\")"
         "[\"d2t\"][:4].tolist())'", "[3, 9, 12, 20]"),
    ], "Confirmed: d2t holds absolute target ids, not offsets.")
    doc = distill_playbook(analyze_path(session))
    step = doc["steps"][-1]
    assert (step["id"], step["probe"], step["provenance"]["seq"]) == ("vocab_maps", "vocab_maps", 5)
    assert step["with"] == {"draft_model": "{{ draft_model or facts.resolved_draft_model | default('') }}",
                            "target_model": "{{ target_model or facts.resolved_target_model | default('') }}"}
    assert (doc["vars"]["draft_model"], doc["vars"]["target_model"]) == (str(draft), str(target))
    assert "SD302 [msg 5]: d2t is not an offset table" in step["why"]

    playbook = tmp_path / "pb.yaml"
    playbook.write_text(dump_playbook(doc), encoding="utf-8")
    out = tmp_path / "runs"
    done = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local",
                           "--out", str(out)],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 1, done.stdout + done.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    codes = {(f["code"], f["step"]) for f in record["findings"]}
    assert ("SD302", "vocab_maps") in codes, record["findings"]


def test_a_config_finding_adds_the_configs_check_with_empty_paths_when_no_launch_names_them(tmp_path):
    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        ("ssh gpu01 'cat \"$DRAFT_DIR\"/config.json'", '{"eagle_aux_hidden_state_layer_ids": [2, 30, 58]}'),
        ("ssh gpu01 'grep -n aux_hidden_state_layer_ids /opt/train/config.yaml'", "12: aux_hidden_state_layer_ids: [3, 31, 59]"),
    ], "Training used layer ids [3, 31, 59] but the draft config says [2, 30, 58].")
    doc = distill_playbook(analyze_path(session))
    checks = [s for s in doc["steps"] if "probe" in s]
    assert [(s["id"], s["probe"]) for s in checks] == [("model_configs", "model_configs")]
    assert (doc["vars"]["draft_model"], doc["vars"]["target_model"]) == ("", "")
    assert "on the checkpoints --var draft_model=DIR and --var target_model=DIR name" in checks[0]["why"]


def test_no_builtin_check_without_such_a_finding(tmp_path):
    session = tmp_path / "s.jsonl"
    _claude_session(session, [("ssh gpu01 'python -m sglang.launch_server --model-path /m --speculative-algorithm "
                               "EAGLE3 --speculative-draft-model-path /d --speculative-num-steps 1 &'", "")],
                    "num-steps 1 caps drafting.")
    doc = distill_playbook(analyze_path(session))
    assert [s.get("probe") for s in doc["steps"]] == ["launch_flags"]


def test_the_checkpoint_vars_say_what_they_are(tmp_path):
    """Their comment (what `explain` shows) said "a host the session's command named"."""
    from spec_debug.session.distill import dump_playbook as dump

    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        ("ssh gpu01 'cat \"$DRAFT_DIR\"/config.json'", '{"eagle_aux_hidden_state_layer_ids": [2, 30, 58]}'),
        ("ssh gpu01 'grep -n aux_hidden_state_layer_ids /opt/train/config.yaml'", "12: aux_hidden_state_layer_ids: [3, 31, 59]"),
    ], "Training used layer ids [3, 31, 59] but the draft config says [2, 30, 58].")
    text = dump(distill_playbook(analyze_path(session)))
    assert "  draft_model: ''  # empty: --var draft_model=DIR names the draft checkpoint step model_configs checks " \
           "(skipped without it)\n" in text
    launched = tmp_path / "l.jsonl"
    _claude_session(launched, [
        ("ssh gpu01 'python -m sglang.launch_server --model-path /models/t --speculative-algorithm EAGLE3 "
         "--speculative-draft-model-path /models/d --speculative-num-steps 1 &'", ""),
        ("ssh gpu01 'cat /models/d/config.json'", '{"eagle_aux_hidden_state_layer_ids": [2, 30, 58]}'),
        ("ssh gpu01 'grep -n aux_hidden_state_layer_ids /opt/train/config.yaml'", "12: aux_hidden_state_layer_ids: [3, 31, 59]"),
    ], "Training used layer ids [3, 31, 59] but the draft config says [2, 30, 58].")
    text = dump(distill_playbook(analyze_path(launched)))
    assert "  draft_model: /models/d  # the draft checkpoint the session's server was launched with (step " \
           "model_configs); --var draft_model=DIR for another\n" in text


def test_a_finding_said_after_a_file_tool_read_distills_its_check(tmp_path):
    """The agent read the d2t dump with the Read tool (no command) and said what it showed: was
    "nothing to distill"; the playbook is spec-debug's check of it."""
    lines = [
        {"type": "user", "message": {"role": "user", "content": "Acceptance is near zero with the new drafter."}},
        {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/ckpt/draft/d2t_dump.txt"}}]}},
        {"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "     1\t[0, 1, 2, 5, 9, 14] 128201"}]}},
        {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "Confirmed: d2t holds absolute target ids, not offsets."}]}}]
    for n, line in enumerate(lines):
        line.update(uuid=f"u{n}", parentUuid=f"u{n - 1}" if n else None, sessionId="s",
                    timestamp=f"2026-11-20T10:{n:02d}:00.000Z")
    session = tmp_path / "s.jsonl"
    session.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    doc = distill_playbook(analyze_path(session))
    assert [(s["id"], s["probe"], s["provenance"]["seq"]) for s in doc["steps"]] == [("vocab_maps", "vocab_maps", 3)]
    assert doc["vars"] == {"draft_model": "", "target_model": ""}
    out = tmp_path / "pb.yaml"
    out.write_text(dump_playbook(doc), encoding="utf-8")
    from spec_debug.playbook import load_playbook

    assert [s.id for s in load_playbook(out).playbook.steps] == ["vocab_maps"]


def test_both_checks_share_one_pair_of_checkpoint_vars(tmp_path):
    """A session with a layer finding and a vocab finding and no launch: the two checks each
    made their own empty vars (draft_model and draft_model_2), so one --var draft_model=DIR
    left the vocab check skipped."""
    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        ("ssh gpu01 'cat \"$DRAFT_DIR\"/config.json'", '{"eagle_aux_hidden_state_layer_ids": [2, 30, 58]}'),
        ("ssh gpu01 'grep -n aux_hidden_state_layer_ids /opt/train/config.yaml'", "12: aux_hidden_state_layer_ids: [3, 31, 59]"),
    ], "Training used layer ids [3, 31, 59] but the draft config says [2, 30, 58]. "
       "Also confirmed: d2t holds absolute target ids, not offsets.")
    doc = distill_playbook(analyze_path(session))
    checks = [s for s in doc["steps"] if "probe" in s]
    assert [s["probe"] for s in checks] == ["model_configs", "vocab_maps"]
    assert {k: v for k, v in doc["vars"].items() if k.endswith("_model") or "_model_" in k} == \
        {"draft_model": "", "target_model": ""}
    assert checks[0]["with"] == checks[1]["with"]
