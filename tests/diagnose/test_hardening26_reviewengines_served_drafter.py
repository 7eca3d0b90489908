"""Review of round 26's drafter routing (engines.drafter_module, forward_source's draft lookup).

- SGLang python/sglang/srt/models/deepseek_eagle3.py registers
  `EntryClass = [Eagle3DeepseekV2ForCausalLM, Eagle3DeepseekV3ForCausalLM]` (the V3 class a bare
  alias): a draft saved as Eagle3DeepseekV3ForCausalLM runs that MLA file too, which reads no
  norm flag; the table routed only the V2 name there, so a V3 draft's flags read as honoured.
- The served draft is looked up where the server looks (launch_flags.find_models): a speculative
  config naming `./eagle3-draft` is opened from the server's working directory, not the probe's,
  and a containerised server's paths from its own filesystem.
"""

from __future__ import annotations

import json

from spec_debug.eagle3 import engines
from spec_debug.probes import forward_source
from spec_debug.probes.launch_flags import ServerView

MLA_V3 = {"architectures": ["Eagle3DeepseekV3ForCausalLM"], "model_type": "deepseek_v3",
          "hidden_size": 7168, "kv_lora_rank": 512, "q_lora_rank": 1536, "num_hidden_layers": 1,
          "norm_before_fc": True, "fc_norm": True, "draft_vocab_size": 32000}


def test_sglang_runs_a_deepseek_v3_named_eagle3_draft_with_deepseek_eagle3():
    assert engines.drafter_module("sglang", MLA_V3) == "deepseek_eagle3"
    assert engines.ignored_norm_flags("sglang", "0.5.20", MLA_V3) == ["norm_before_fc", "fc_norm"]
    assert engines.drafter_module("vllm", MLA_V3) == "deepseek_eagle3"


def test_a_draft_path_relative_to_the_servers_working_directory_is_found(tmp_path):
    served_from = tmp_path / "models"
    (served_from / "eagle3-draft").mkdir(parents=True)
    (served_from / "eagle3-draft" / "config.json").write_text(json.dumps(MLA_V3))
    argv = ["vllm", "serve", "deepseek-ai/DeepSeek-V3", "--speculative-config",
            json.dumps({"method": "eagle3", "model": "./eagle3-draft", "num_speculative_tokens": 3})]
    view = ServerView(cwd=str(served_from), environ={}, root="")
    assert forward_source._served_draft_config({}, lambda: argv, view) == MLA_V3


def test_a_containerised_servers_draft_is_read_from_its_filesystem(tmp_path):
    container_root = tmp_path / "proc-root"
    (container_root / "models" / "draft").mkdir(parents=True)
    (container_root / "models" / "draft" / "config.json").write_text(json.dumps(MLA_V3))
    argv = ["python3", "-m", "sglang.launch_server", "--model-path", "/models/target",
            "--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/models/draft"]
    view = ServerView(cwd="/", environ={}, root=str(container_root))
    assert forward_source._served_draft_config({}, lambda: argv, view) == MLA_V3


def test_a_draft_model_var_naming_the_servers_path_is_looked_up_where_the_server_looks(tmp_path):
    # the playbook passes the launch step's draft path, as the server's command line writes it
    container_root = tmp_path / "proc-root"
    (container_root / "models" / "draft").mkdir(parents=True)
    (container_root / "models" / "draft" / "config.json").write_text(json.dumps(MLA_V3))
    argv = ["vllm", "serve", "/models/target", "--speculative-config", '{"model": "/models/draft"}']
    view = ServerView(cwd="/", environ={}, root=str(container_root))
    found = forward_source._served_draft_config({"draft_model": "/models/draft"}, lambda: argv, view)
    assert found == MLA_V3
