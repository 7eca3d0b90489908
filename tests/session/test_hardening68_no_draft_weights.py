"""analyze: a server that stopped with the engines' "Cannot find any model weights with `<dir>`"
(vLLM 0.34.0 model_loader/default_loader.py, SGLang 0.5.23 srt/model_loader/loader.py
_prepare_weights) for the DRAFT's folder - what a stale model.safetensors.index.json beside a
single model.safetensors gives (SD710) - was a bare error with no finding. It is SD710 when the
same output says the folder is the draft's; the target's folder is no draft fault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.spec_facts import text_observations

SGLANG_TB = (
    "[2026-12-06 10:00:05] Scheduler hit an exception: Traceback (most recent call last):\n"
    '  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker_v2.py", line 140, in __init__\n'
    "    self._draft_worker = EagleDraftWorker(\n"
    '  File "/opt/sglang/python/sglang/srt/model_loader/loader.py", line 581, in _prepare_weights\n'
    '    raise RuntimeError(\n'
    "RuntimeError: Cannot find any model weights with `{path}`\n")
VLLM_TB = (
    "(EngineCore_DP0 pid=812) Traceback (most recent call last):\n"
    '  File "/usr/lib/python3/site-packages/vllm/v1/spec_decode/eagle.py", line 1010, in load_model\n'
    "    self.model = get_model(vllm_config=self.vllm_config, model_config=draft_model_config)\n"
    '  File "/usr/lib/python3/site-packages/vllm/model_executor/model_loader/default_loader.py", line 262, in _prepare_weights\n'
    "    raise RuntimeError(\n"
    "RuntimeError: Cannot find any model weights with `{path}`\n")
TARGET_TB = (
    "Traceback (most recent call last):\n"
    '  File "/opt/sglang/python/sglang/srt/model_executor/model_runner.py", line 900, in load_model\n'
    "    self.model = get_model(model_config=self.model_config, load_config=self.load_config)\n"
    "RuntimeError: Cannot find any model weights with `{path}`\n")


def _codes(text: str) -> list[str]:
    return [o.code for o in text_observations(text)]


VLLM_034_TB = (
    "(EngineCore pid=812) Traceback (most recent call last):\n"
    '  File "/usr/lib/python3/site-packages/vllm/v1/worker/gpu/spec_decode/eagle/utils.py", line 131, in load_eagle_model\n'
    "    eagle_model = get_model(\n"
    '  File "/usr/lib/python3/site-packages/vllm/model_executor/model_loader/default_loader.py", line 262, in _prepare_weights\n'
    "    raise RuntimeError(\n"
    "RuntimeError: Cannot find any model weights with `{path}`\n")


@pytest.mark.parametrize("log", [SGLANG_TB, VLLM_TB, VLLM_034_TB])
def test_the_draft_loaders_traceback_is_sd710(log):
    obs = text_observations(log.format(path="/ckpt/run7/checkpoint-3"))
    assert [o.code for o in obs] == ["SD710"]
    assert "Cannot find any model weights with `/ckpt/run7/checkpoint-3`" in obs[0].evidence


def test_a_path_the_output_names_as_the_draft_is_sd710():
    echo = ("server_args=ServerArgs(model_path='/models/Llama-3.1-8B-Instruct', "
            "speculative_algorithm='EAGLE3', speculative_draft_model_path='/ckpt/run7/checkpoint-3', "
            "speculative_num_steps=3)\n")
    assert _codes(echo + "RuntimeError: Cannot find any model weights with `/ckpt/run7/checkpoint-3`") == ["SD710"]
    vllm = ("Initializing a V1 LLM engine (v0.34.0) with config: model='/models/Llama-3.1-8B-Instruct', "
            "speculative_config=SpeculativeConfig(method='eagle3', model='/ckpt/run7/checkpoint-3', "
            "num_spec_tokens=3)\n")
    assert _codes(vllm + "RuntimeError: Cannot find any model weights with `/ckpt/run7/checkpoint-3`") == ["SD710"]
    # the target's path in the same echo: no draft fault
    assert _codes(echo + "RuntimeError: Cannot find any model weights with `/models/Llama-3.1-8B-Instruct`") == []
    assert _codes(vllm + "RuntimeError: Cannot find any model weights with `/models/Llama-3.1-8B-Instruct`") == []


def test_a_target_path_that_starts_the_drafts_is_no_finding():
    echo = ("server_args=ServerArgs(model_path='/models/llama', "
            "speculative_draft_model_path='/models/llama-v2', speculative_num_steps=3)\n")
    assert _codes(echo + "RuntimeError: Cannot find any model weights with `/models/llama`") == []
    assert _codes(echo + "RuntimeError: Cannot find any model weights with `/models/llama-v2`") == ["SD710"]


def test_a_folder_named_as_a_draft_is_sd710():
    assert _codes("RuntimeError: Cannot find any model weights with `/models/llama3-8b-eagle3/`") == ["SD710"]
    assert _codes("RuntimeError: Cannot find any model weights with `/models/Llama-3.1-8B-Instruct`") == []


def test_the_targets_folder_and_the_source_are_no_finding():
    assert _codes(TARGET_TB.format(path="/models/Llama-3.1-8B-Instruct")) == []
    # a grep of the loader's raise statement, and the message asked about
    assert _codes('581:                f"Cannot find any model weights with `{model_name_or_path}`"') == []
    assert _codes("Did it fail with RuntimeError: Cannot find any model weights with `/models/d-eagle3`?") == []


def _session(path: Path, calls: list[tuple[str, str]]) -> None:
    lines: list[dict] = [{"type": "user", "message": {"role": "user", "content": "The server does not start."}}]
    for n, (command, output) in enumerate(calls):
        lines += [{"type": "assistant", "message": {"role": "assistant", "content": [
                      {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": command}}]}},
                  {"type": "user", "message": {"role": "user", "content": [
                      {"type": "tool_result", "tool_use_id": f"t{n}", "content": output}]}}]
    for n, line in enumerate(lines):
        line.update(uuid=f"u{n}", parentUuid=f"u{n - 1}" if n else None, sessionId="s",
                    timestamp=f"2026-12-06T10:{n:02d}:00.000Z")
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def test_analyze_reports_sd710_at_the_log(tmp_path):
    session = tmp_path / "s.jsonl"
    launch = ("python -m sglang.launch_server --model-path /models/t --speculative-algorithm EAGLE3 "
              "--speculative-draft-model-path /ckpt/run7/checkpoint-3 --port 30000 > /tmp/sglang.log 2>&1 &")
    # the stale index the error comes of, as the session showed it (hardening 69: the same error
    # with no such listing is no finding, see test_hardening69_no_weights_cause.py)
    listing = "config.json\nmodel.safetensors\nmodel.safetensors.index.json\n"
    _session(session, [(launch, ""), ("tail -n 7 /tmp/sglang.log", SGLANG_TB.format(path="/ckpt/run7/checkpoint-3")),
                       ("ls /ckpt/run7/checkpoint-3", listing)])
    found = [(f.code, f.seq) for f in analyze_path(session).findings]
    assert ("SD710", 4) in found, found
    doc = distill_playbook(analyze_path(session))
    (check,) = [s for s in doc["steps"] if s.get("probe") == "vocab_maps"]
    assert "SD710 [msg 4]" in check["why"], check["why"]
    # (the listing's command names the folder: the var is named after it, checkpoint_3)
    var = check["with"]["draft_model"].split()[1]
    assert doc["vars"][var] == "/ckpt/run7/checkpoint-3"
