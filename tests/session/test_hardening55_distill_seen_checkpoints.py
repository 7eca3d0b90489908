"""distill: checkpoints the session saw only in a process listing or through a file tool fill the
built-in check's vars.

A server up before the session: the agent ran `ps aux | grep [s]glang` (its command line names
--model-path and --speculative-draft-model-path) or read the draft's config.json with Claude
Code's Read tool, then found the vocab map broken. The playbook's vocab_maps / model_configs step
got empty draft_model and target_model vars (the why said where to look, or that the session read
no checkpoint): the run skipped the check until the user dug the paths out of the transcript. The
analysis now keeps the paths a listed server's command line names and a file tool's checkpoint
reads (not in the JSON contract), and distill makes them the vars' defaults.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.session import analyze_path  # noqa: E402
from spec_debug.session.distill import distill_playbook, dump_playbook  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402
from tests.session.test_hardening51_distill_builtin_checks import _claude_session  # noqa: E402

CONFIRMED = "Confirmed: d2t holds absolute target ids, not offsets."


@pytest.fixture(scope="module")
def absolute_d2t(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("seen_ckpt")
    save_verifier_and_draft(root)
    tensors = load_file(str(root / "draft" / "model.safetensors"))
    tensors["d2t"] = tensors["d2t"] + torch.arange(len(tensors["d2t"]), dtype=tensors["d2t"].dtype)  # ids, not offsets
    save_file(tensors, str(root / "draft" / "model.safetensors"))
    return root / "draft", root / "target"


def _run(doc: dict, tmp_path: Path) -> dict:
    playbook = tmp_path / "pb.yaml"
    playbook.write_text(dump_playbook(doc), encoding="utf-8")
    out = tmp_path / "runs"
    done = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local",
                           "--out", str(out)], capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    record["_output"] = done.stdout + done.stderr
    return record


def test_the_listed_servers_checkpoints_are_the_checked_ones(absolute_d2t, tmp_path):
    draft, target = absolute_d2t
    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        ("ps aux | grep [s]glang.launch_server",
         f"root     41877 98.1  3.0 123456 7890 ?  Rl   08:00  12:34 /usr/bin/python3 -m sglang.launch_server "
         f"--model-path {target} --speculative-algorithm EAGLE3 --speculative-draft-model-path {draft} "
         "--speculative-num-steps 3 --port 30000"),
        ("python /opt/tools/dump_d2t.py | head -3", "[1146, 1147, 1150]"),
    ], CONFIRMED)
    doc = distill_playbook(analyze_path(session))
    (check,) = [s for s in doc["steps"] if s.get("probe") == "vocab_maps"]
    assert (doc["vars"]["draft_model"], doc["vars"]["target_model"]) == (str(draft), str(target))
    assert (f"on the draft and target the server the session listed runs ({draft}, {target}; its command line at "
            "[msg 2])") in check["why"], check["why"]
    assert (f"  draft_model: {draft}  # the draft checkpoint the server the session listed runs (step vocab_maps); "
            "--var draft_model=DIR for another\n") in dump_playbook(doc)
    record = _run(doc, tmp_path)
    (step,) = [s for s in record["steps"] if s["id"] == "vocab_maps"]
    assert step["status"] != "skipped", (step, record["_output"])
    assert ("SD302", "vocab_maps") in {(f["code"], f["step"]) for f in record["findings"]}, record["_output"]


def test_a_listing_of_a_vllm_server_names_its_speculative_config(tmp_path):
    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        ("ssh gpu01 'pgrep -af vllm'",
         "2231 /opt/venv/bin/python3 /opt/venv/bin/vllm serve /models/Llama-3.1-8B-Instruct --speculative-config "
         '{"model": "/models/l31-eagle3", "method": "eagle3", "num_speculative_tokens": 3}\n'
         "2290 grep vllm"),
        ("ssh gpu01 'python /opt/tools/dump_d2t.py | head -3'", "[1146, 1147, 1150]"),
    ], CONFIRMED)
    doc = distill_playbook(analyze_path(session))
    assert (doc["vars"]["draft_model"], doc["vars"]["target_model"]) == \
        ("/models/l31-eagle3", "/models/Llama-3.1-8B-Instruct")


def test_a_launch_the_session_ran_still_wins_over_a_listing(tmp_path):
    session = tmp_path / "s.jsonl"
    _claude_session(session, [
        ("ssh gpu01 'ps aux | grep [s]glang'", "41877 python -m sglang.launch_server --model-path /models/old-t "
                                               "--speculative-draft-model-path /models/old-eagle3"),
        ("ssh gpu01 'python -m sglang.launch_server --model-path /models/t --speculative-algorithm EAGLE3 "
         "--speculative-draft-model-path /models/d --speculative-num-steps 3 &'", ""),
        ("ssh gpu01 'python /opt/tools/dump_d2t.py | head -3'", "[1146, 1147, 1150]"),
    ], CONFIRMED)
    doc = distill_playbook(analyze_path(session))
    assert (doc["vars"]["draft_model"], doc["vars"]["target_model"]) == ("/models/d", "/models/t")


def test_a_config_read_with_the_read_tool_is_the_checked_draft(absolute_d2t, tmp_path):
    draft, _ = absolute_d2t
    lines = [
        {"type": "user", "message": {"role": "user", "content": "Acceptance is near zero with the new drafter."}},
        {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": f"{draft}/config.json"}}]}},
        {"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": '     1\t{"draft_vocab_size": 32000}'}]}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": CONFIRMED}]}}]
    for n, line in enumerate(lines):
        line.update(uuid=f"u{n}", parentUuid=f"u{n - 1}" if n else None, sessionId="s",
                    timestamp=f"2026-11-20T10:{n:02d}:00.000Z")
    session = tmp_path / "s.jsonl"
    session.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    doc = distill_playbook(analyze_path(session))
    (check,) = doc["steps"]
    assert doc["vars"]["draft_model"] == str(draft)
    assert f"on the checkpoints the session read (the draft {draft} [msg 1])" in check["why"], check["why"]
    assert (f"  draft_model: {draft}  # the draft checkpoint the session read (step vocab_maps); "
            "--var draft_model=DIR for another\n") in dump_playbook(doc)
    # the analysis keeps it outside the JSON contract
    assert "checkpoints_seen" not in analyze_path(session).to_json()
    record = _run(doc, tmp_path)
    (step,) = [s for s in record["steps"] if s["id"] == "vocab_maps"]
    assert step["status"] != "skipped", (step, record["_output"])
    assert ("SD302", "vocab_maps") in {(f["code"], f["step"]) for f in record["findings"]}, record["_output"]
