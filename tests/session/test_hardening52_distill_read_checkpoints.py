"""distill: a session that found a config or vocab fault without launching a server (the server
was already running) but read the draft's files (`cat DRAFT/config.json`, a `load_file` of its
weights) got a built-in check with empty checkpoint vars: the step was skipped ("no draft
checkpoint") until the user dug the path out of the transcript again. The folder of the
checkpoint file the session read is now the var's default, and the why says which command read
it; a target var left empty says the step uses the target the draft's config names (it said
"skipped without it", which the probes do not do)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.session import analyze_path  # noqa: E402
from spec_debug.session.distill import distill_playbook, dump_playbook  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402
from tests.session.test_hardening51_distill_builtin_checks import _claude_session  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("read_ckpt")
    save_verifier_and_draft(root)
    return root / "draft", root / "target"


def test_the_draft_config_the_session_read_is_the_checked_draft(world, tmp_path):
    draft, _ = world
    session = tmp_path / "s.jsonl"
    layers = json.loads((draft / "config.json").read_text())
    _claude_session(session, [
        ("ps -eo pid,args | grep [l]aunch_server", "4242 python -m sglang.launch_server --port 30000"),
        (f"cat {draft}/config.json", json.dumps(layers)),
        ("grep -n aux_hidden_state_layer_ids /opt/train/config.yaml", "12: aux_hidden_state_layer_ids: [3, 31, 59]"),
    ], "Training used layer ids [3, 31, 59] but the draft config says [2, 30, 58].")
    doc = distill_playbook(analyze_path(session))
    (check,) = [s for s in doc["steps"] if s.get("probe") == "model_configs"]
    assert doc["vars"]["draft_model"] == str(draft)
    assert doc["vars"]["target_model"] == ""
    assert f"the checkpoints the session's commands read (the draft {draft} [msg 3])" in check["why"]
    text = dump_playbook(doc)
    assert (f"  draft_model: {draft}  # the draft checkpoint the session's commands read (step model_configs); "
            "--var draft_model=DIR for another\n") in text
    assert ("  target_model: ''  # empty: the target the draft's config names, where the host has it; "
            "--var target_model=DIR names the one step model_configs checks against\n") in text

    playbook = tmp_path / "pb.yaml"
    playbook.write_text(text, encoding="utf-8")
    out = tmp_path / "runs"
    done = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local",
                           "--out", str(out)],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    (step,) = [s for s in record["steps"] if s["id"] == "model_configs"]
    assert step["status"] != "skipped", (step, done.stdout + done.stderr)


def test_a_target_weights_read_fills_the_target_and_a_launch_still_wins(tmp_path):
    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        ("ssh gpu01 \"python -c 'from safetensors.torch import load_file; "
         "print(load_file(\\\"/models/l31-eagle3/model.safetensors\\\")[\\\"d2t\\\"][:4].tolist())'\"", "[3, 9, 12, 20]"),
        ("ssh gpu01 'cat /models/Llama-3.1-8B-Instruct/config.json | grep vocab_size'", '"vocab_size": 128256,'),
    ], "Confirmed: d2t holds absolute target ids, not offsets.")
    doc = distill_playbook(analyze_path(session))
    assert (doc["vars"]["draft_model"], doc["vars"]["target_model"]) == \
        ("/models/l31-eagle3", "/models/Llama-3.1-8B-Instruct")
    launched = tmp_path / "l.jsonl"
    _claude_session(launched, [
        ("ssh gpu01 'python -m sglang.launch_server --model-path /models/t --speculative-algorithm EAGLE3 "
         "--speculative-draft-model-path /models/d --speculative-num-steps 3 &'", ""),
        ("ssh gpu01 'cat /models/other-eagle3/config.json'", "{}"),
    ], "Confirmed: d2t holds absolute target ids, not offsets.")
    doc = distill_playbook(analyze_path(launched))
    assert (doc["vars"]["draft_model"], doc["vars"]["target_model"]) == ("/models/d", "/models/t")


def test_a_server_the_session_only_listed_with_ps_is_where_the_paths_are(tmp_path):
    """No launch, no checkpoint file read: the server was up before the session, and `ps` showed
    its command line. The why said where the paths are (it said the session named none); the
    analysis now keeps the paths that listing names, and they are the vars' defaults
    (test_hardening55_distill_seen_checkpoints)."""
    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        ("ssh gpu01 'ps -eo pid,args | grep [s]glang.launch_server'",
         "41877 python -m sglang.launch_server --model-path /models/Llama-3.1-8B-Instruct --speculative-algorithm "
         "EAGLE3 --speculative-draft-model-path /models/l31-eagle3 --speculative-num-steps 3 --port 30000"),
        ("ssh gpu01 'python /opt/tools/dump_d2t.py | head -3'", "[1146, 1147, 1150]"),
    ], "Confirmed: d2t holds absolute target ids, not offsets.")
    doc = distill_playbook(analyze_path(session))
    (check,) = [s for s in doc["steps"] if s.get("probe") == "vocab_maps"]
    assert (doc["vars"]["draft_model"], doc["vars"]["target_model"]) == \
        ("/models/l31-eagle3", "/models/Llama-3.1-8B-Instruct")
    assert ("on the draft and target the server the session listed runs (/models/l31-eagle3, "
            "/models/Llama-3.1-8B-Instruct; its command line at [msg 2])") in check["why"], check["why"]


def test_a_listing_that_names_no_checkpoint_is_where_to_look(tmp_path):
    """A listing whose command line names no model (`--model-path` in a config file): the why
    still says where the paths are."""
    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        ("ssh gpu01 'ps -eo pid,args | grep [s]glang.launch_server'",
         "41877 python -m sglang.launch_server --config /etc/sglang/serve.yaml --port 30000"),
        ("ssh gpu01 'python /opt/tools/dump_d2t.py | head -3'", "[1146, 1147, 1150]"),
    ], "Confirmed: d2t holds absolute target ids, not offsets.")
    doc = distill_playbook(analyze_path(session))
    (check,) = [s for s in doc["steps"] if s.get("probe") == "vocab_maps"]
    assert (doc["vars"]["draft_model"], doc["vars"]["target_model"]) == ("", "")
    assert ("on the checkpoints --var draft_model=DIR and --var target_model=DIR name: the server's command line "
            "the session listed at [msg 2] (`ps -eo pid,args | grep [s]glang.launch_server`) names them "
            "(--speculative-draft-model-path and --model-path") in check["why"], check["why"]


def test_a_draft_read_from_the_hub_cache_is_the_draft(tmp_path):
    """The snapshot folder's own name is a revision hash: the repository's name says it is a
    drafter (was taken for the target)."""
    cache = "/root/.cache/huggingface/hub"
    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        (f"cat {cache}/models--yuhuili--EAGLE3-LLaMA3.1-Instruct-8B/snapshots/4a1c/config.json", "{}"),
        (f"cat {cache}/models--meta-llama--Llama-3.1-8B-Instruct/snapshots/0e9e/config.json", '{"vocab_size": 128256}'),
    ], "Confirmed: d2t holds absolute target ids, not offsets.")
    doc = distill_playbook(analyze_path(session))
    assert (doc["vars"]["draft_model"], doc["vars"]["target_model"]) == \
        (f"{cache}/models--yuhuili--EAGLE3-LLaMA3.1-Instruct-8B/snapshots/4a1c",
         f"{cache}/models--meta-llama--Llama-3.1-8B-Instruct/snapshots/0e9e")


def test_a_file_tool_read_is_not_denied(tmp_path):
    """A config read with the Read tool is no command: the why said the session's commands read
    none (it said the session read none). The analysis now keeps that read, and its folder is
    the draft var's default (test_hardening55_distill_seen_checkpoints)."""
    lines = [
        {"type": "user", "message": {"role": "user", "content": "Acceptance is near zero with the new drafter."}},
        {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/ckpt/l31-eagle3/config.json"}}]}},
        {"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": '     1\t{"draft_vocab_size": 32000}'}]}},
        {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "Confirmed: d2t holds absolute target ids, not offsets."}]}}]
    for n, line in enumerate(lines):
        line.update(uuid=f"u{n}", parentUuid=f"u{n - 1}" if n else None, sessionId="s",
                    timestamp=f"2026-11-20T10:{n:02d}:00.000Z")
    session = tmp_path / "s.jsonl"
    session.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    (check,) = distill_playbook(analyze_path(session))["steps"]
    assert "on the checkpoints the session read (the draft /ckpt/l31-eagle3 [msg 1])" in check["why"], check["why"]


def test_a_listing_of_another_program_is_not_the_servers(tmp_path):
    """`ps aux | grep observe` looks for no serving engine ("serve" inside a word)."""
    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        ("ssh gpu01 'ps aux | grep [o]bserve'", "4242 /usr/bin/observe --port 9000"),
        ("ssh gpu01 'python /opt/tools/dump_d2t.py | head -3'", "[1146, 1147, 1150]"),
    ], "Confirmed: d2t holds absolute target ids, not offsets.")
    (check,) = [s for s in distill_playbook(analyze_path(session))["steps"] if s.get("probe") == "vocab_maps"]
    assert "command line the session listed" not in check["why"], check["why"]
