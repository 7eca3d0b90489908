"""analyze: a server that refused the draft at startup with the engine's own words for a
draft-config fault the catalog codes (SGLang's "EAGLE3 currently only supports 1 layer": SD708;
LlamaMLP's "Unsupported activation: X. Only silu is supported for now.": SD706; SGLang's
TypeError in set_eagle3_layers_to_capture on aux layer ids written as strings: SD707) was a
bare error with no finding, so distill kept no check of it. Each is now its finding, and the
playbook runs model_configs on the launched draft, which finds the same code in its config."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.session import analyze_path  # noqa: E402
from spec_debug.session.distill import distill_playbook, dump_playbook  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402
from tests.session.test_hardening51_distill_builtin_checks import _claude_session  # noqa: E402

ACT = "ValueError: Unsupported activation: gelu_pytorch_tanh. Only silu is supported for now."


def _traceback(frame: str, line: str, error: str) -> str:
    return ("[2026-11-20 10:00:01] Scheduler hit an exception: Traceback (most recent call last):\n"
            f'  File "/opt/sglang/python/sglang/srt/models/{frame}", line 120, in __init__\n'
            f"    {line}\n{error}")


def _launch(draft: str, target: str) -> str:
    return (f"python -m sglang.launch_server --model-path {target} --speculative-algorithm EAGLE3 "
            f"--speculative-draft-model-path {draft} --speculative-num-steps 3 --speculative-eagle-topk 1 "
            "--speculative-num-draft-tokens 4 --port 30000 > /tmp/sglang.log 2>&1 &")


@pytest.mark.parametrize(("log", "code"), [
    (_traceback("llama_eagle3.py", 'raise ValueError("EAGLE3 currently only supports 1 layer")',
                "ValueError: EAGLE3 currently only supports 1 layer"), "SD708"),
    (_traceback("llama.py", 'raise ValueError(f"Unsupported activation: {hidden_act}. Only silu is supported for now.")',
                ACT), "SD706"),
    ('  File "/opt/sglang/python/sglang/srt/models/llama.py", line 512, in set_eagle3_layers_to_capture\n'
     "    self.model.layers_to_capture = [val + 1 for val in layer_ids]\n"
     'TypeError: can only concatenate str (not "int") to str', "SD707"),
])
def test_the_engines_refusal_is_its_finding(tmp_path, log, code):
    session = tmp_path / "s.jsonl"
    _claude_session(session, [(_launch("/models/d-eagle3", "/models/t"), ""), ("tail -n 4 /tmp/sglang.log", log)],
                    "The server did not start.")
    found = [(f.code, f.seq) for f in analyze_path(session).findings]
    assert found == [(code, 4)], found


def test_a_grep_of_the_engines_source_is_no_finding(tmp_path):
    session = tmp_path / "s.jsonl"
    _claude_session(session, [("grep -n 'supports 1 layer' /opt/sglang/python/sglang/srt/models/llama_eagle3.py",
                               '120:            raise ValueError("EAGLE3 currently only supports 1 layer")')],
                    "SGLang refuses drafts of more than one layer.")
    assert analyze_path(session).findings == []


def test_the_distilled_check_finds_the_activation_in_the_launched_draft(tmp_path):
    root = tmp_path / "world"
    save_verifier_and_draft(root)
    draft, target = root / "draft", root / "target"
    config = json.loads((draft / "config.json").read_text())
    config["transformer_layer_config"]["hidden_act"] = "gelu_pytorch_tanh"  # copied from a Gemma target
    (draft / "config.json").write_text(json.dumps(config))
    session = tmp_path / "s.jsonl"
    _claude_session(session, [(_launch(str(draft), str(target)), ""), ("tail -n 1 /tmp/sglang.log", ACT)],
                    "The draft's MLP activation is not one SGLang can build.")
    doc = distill_playbook(analyze_path(session))
    (check,) = [s for s in doc["steps"] if s.get("probe") == "model_configs"]
    assert "SD706 [msg 4]: Draft config names an MLP activation the engines cannot build" in check["why"]
    assert doc["vars"]["draft_model"] == str(draft)
    playbook = tmp_path / "pb.yaml"
    playbook.write_text(dump_playbook(doc), encoding="utf-8")
    out = tmp_path / "runs"
    done = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local",
                           "--out", str(out)],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    assert ("SD706", "model_configs") in {(f["code"], f["step"]) for f in record["findings"]}, \
        (record["findings"], done.stdout + done.stderr)
