"""Host-side probes on real things: a real process in /proc, the installed speculators source,
a real log file, a Hugging Face cache layout; then their controller-side parse and check."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spec_debug.diagnose.steps import engine_step, forward_step, launch_step, throughput_step
from spec_debug.probes import engine_info, forward_source, hostfiles, launch_flags, server_log
from spec_debug.probes.registry import ProbeContext

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "spec_debug" / "data" / "demo"


def context(facts, host_facts=None, vars=None, step="s"):
    return ProbeContext(step_id=step, host="h", args={}, facts=facts, host_facts={**(host_facts or {}), **facts},
                        vars=vars or {})


@pytest.fixture
def fake_server():
    """A real process whose command line is an SGLang server's (it only sleeps)."""
    argv = [sys.executable, "-c", "import time; time.sleep(60)", "-m", "sglang.launch_server",
            "--model-path", str(DEMO / "target"), "--speculative-algorithm", "EAGLE3",
            "--speculative-draft-model-path", str(DEMO / "draft"), "--speculative-num-steps", "1",
            "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "2"]
    proc = subprocess.Popen(argv)
    time.sleep(0.3)
    yield proc
    proc.kill()
    proc.wait()


def test_launch_flags_finds_the_server_in_proc_and_reads_its_configs(fake_server):
    host = launch_flags.run({"server_cmdline": ""})
    pids = [p["pid"] for p in host["processes"]]
    assert fake_server.pid in pids
    if host["source"] != f"/proc/{fake_server.pid}/cmdline":  # another server runs on this machine
        pytest.skip(f"a real server process (pid {min(pids)}) is chosen first on this machine")
    # the demo's draft is the SGLang conversion (hardening75): its config says 3 in num_lookahead_tokens
    assert host["models"][str(DEMO / "draft")]["config"]["architectures"] == ["LlamaForCausalLMEagle3"]
    facts = launch_step.parse(json.loads(json.dumps(host)))  # what travels is JSON
    assert facts["launch"]["num_steps"] == 1 and facts["launch"]["trained_steps"] == 3
    assert facts["resolved_draft_model"] == str(DEMO / "draft")
    found = launch_step.check(context(facts))
    assert [(f.code, f.severity) for f in found] == [("SD101", "error")]
    assert facts["launch"]["raised"] == ["SD101"]


def test_launch_flags_with_no_server_is_an_info_line_not_an_error(tmp_path):
    assert launch_flags.server_processes(tmp_path) == []  # an empty /proc
    facts = launch_step.parse({"processes": []})
    found = launch_step.check(context(facts))
    assert [(f.code, f.severity) for f in found] == [("SD004", "info")]
    assert "server_cmdline" in found[0].title


def test_vllm_serve_of_a_speculators_checkpoint_uses_its_verifier():
    cfg = json.loads((REPO / "tests" / "data" / "speculators_eagle3_draft" / "config.json").read_text())
    host = {"source": "var", "cmdline": "vllm serve /ckpt/spec",
            "models": {"/ckpt/spec": {"path": "/ckpt/spec", "config": cfg}}}
    facts = launch_step.parse(host)
    assert facts["launch"]["draft_path"] == "/ckpt/spec" and facts["launch"]["target_path"] == "target"


def test_engine_info_reads_metadata_without_importing():
    host = engine_info.run({"engine": "", "engine_version": "", "launch_engine": ""})
    assert host["packages"]["speculators"]["version"] == "0.9.0"
    imported = subprocess.run(
        [sys.executable, "-c", "import sys; from spec_debug.probes import engine_info; engine_info.run({}); "
                               "print('speculators' in sys.modules, 'torch' in sys.modules)"],
        capture_output=True, text=True, check=True).stdout.split()
    assert imported == ["False", "False"]
    facts = engine_step.parse({**host, "args": {"launch_engine": "sglang", "engine_version": "0.5.4"}})
    assert (facts["engine"]["name"], facts["engine"]["version"]) == ("sglang", "0.5.4")
    none = engine_step.parse({**host, "args": {}})
    if none["engine"]["name"] is None:  # no engine installed here
        assert [f.code for f in engine_step.check(context(none))] == ["SD004"]


ENGINE_STYLE_LAYER = '''
import torch
from torch import nn


class LlamaDecoderLayer(nn.Module):
    # Written for this test with the semantics EAGLE3.md section 2 reports for SGLang's
    # llama_eagle3.py at 03d5a777: residual taken before hidden_norm, no norm flags at all.
    def forward(self, positions, embeds, hidden_states, forward_batch, residual):
        residual = hidden_states
        embeds = self.input_layernorm(embeds)
        hidden_states = self.hidden_norm(hidden_states)
        hidden_states = torch.cat([embeds, hidden_states], dim=-1)
        hidden_states = self.self_attn(positions, hidden_states, forward_batch)
        hidden_states, residual = self.post_attention_layernorm(hidden_states, residual)
        hidden_states = self.mlp(hidden_states)
        return hidden_states, residual
'''


def test_forward_source_reads_the_installed_speculators_and_an_engine_file(tmp_path):
    engine_file = tmp_path / "llama_eagle3.py"
    engine_file.write_text(ENGINE_STYLE_LAYER)
    host = forward_source.run({"engine": "sglang", "engine_files": [str(engine_file)]})
    ref = host["reference"]
    assert ref["found"] and ref["version"] == "0.9.0"
    assert all(ref["flags"].values())  # speculators 0.9.0 implements all four flags
    assert ["input_embeds", "hidden_states"] in ref["cat_orders"]
    assert "if self.norm_before_residual:" in ref["functions"]["model_definitions.py:Eagle3FirstLayerMixin.forward"]
    assert not any(host["engine"]["flags"].values())
    facts = forward_step.parse(host)
    assert facts["forward"]["side_by_side"][0].startswith("model_definitions.py:Eagle3FirstLayerMixin.forward")
    draft = {"speculators_model_type": "eagle3", "norm_before_residual": True}
    found = forward_step.check(context(facts, {"configs": {"draft_config": draft}}))
    assert [(f.code, f.severity) for f in found] == [("SD601", "error")]
    assert any("norm_before_residual=True" in e for e in found[0].evidence)
    # near miss: the checkpoint does not use the flag the engine lacks
    quiet = forward_step.check(context(forward_step.parse(host), {"configs": {"draft_config": {
        "speculators_model_type": "eagle3"}}}))
    assert quiet == []


def test_server_log_ships_only_the_lines_with_numbers(tmp_path):
    log = tmp_path / "server.log"
    noise = "[2025-10-22 10:27:56 TP0] Load weight end. type=LlamaForCausalLMEagle3, mem usage=1.2 GB\n"
    line = ("[2025-10-22 10:27:57 TP0] Decode batch. #running-req: 1, #token: 108, token usage: 0.00, accept len: 2.17, "
            "accept rate: 0.54, cuda graph: True, gen throughput (token/s): 178.86, #queue-req: 0, \n")
    log.write_text(noise * 5000 + line * 3 + "Output token throughput (tok/s):         2943.46\n")
    host = server_log.run({"server_log": str(log), "baseline_tok_s": "200"})
    assert host["total_lines"] == 5004 and len(host["lines"]) == 4
    facts = throughput_step.parse(host)
    assert facts["throughput"]["log"]["measured_tok_s"] == 2943.46
    assert server_log.run({"server_log": str(tmp_path / "missing.log")})["found"] is False


def test_model_dir_resolves_a_hub_id_from_the_hf_cache(tmp_path, monkeypatch):
    snap = tmp_path / "models--RedHatAI--Qwen3-8B-speculator.eagle3" / "snapshots" / "abc123"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text('{"speculators_model_type": "eagle3"}')
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    assert hostfiles.resolve_model_dir("RedHatAI/Qwen3-8B-speculator.eagle3") == snap
    assert hostfiles.resolve_model_dir("RedHatAI/not-there") is None
    info = hostfiles.describe_model(str(DEMO / "draft"))
    assert info["tensors"]["fc.weight"][0] == [32, 96]


def test_launch_flags_reads_the_draft_named_in_a_ps_style_speculative_config():
    """A line copied from `ps -ww` has no quotes around the JSON; the draft it names is still read."""
    line = (f"python3 -m vllm.entrypoints.openai.api_server --model {DEMO / 'target'} --speculative-config "
            f'{{"method": "eagle3", "model": "{DEMO / "draft"}", "num_speculative_tokens": 1}} --port 8000')
    host = launch_flags.run({"server_cmdline": line})
    assert host["models"][str(DEMO / "draft")]["config"]["architectures"] == ["LlamaForCausalLMEagle3"]
    facts = launch_step.parse(json.loads(json.dumps(host)))
    assert (facts["launch"]["num_steps"], facts["launch"]["trained_steps"]) == (1, 3)
    assert [f.code for f in launch_step.check(context(facts))] == ["SD101"]


def test_a_router_launch_is_a_server_command():
    argv = ["python", "-m", "sglang_router.launch_server", "--model-path", "m", "--dp-size", "2"]
    assert launch_flags.is_server_argv(argv)
    assert not launch_flags.is_server_argv(["python", "-m", "sglang_router.launch_router", "--worker-urls", "x"])
