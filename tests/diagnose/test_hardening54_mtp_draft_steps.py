"""An SGLang server drafting with its DeepSeek-V3 target's own MTP module (--speculative-
algorithm EAGLE with no draft path, the target's config counting num_nextn_predict_layers),
audited with `spec-debug run perf_regression --host local`. The configs and vocab steps said
"nothing for MTP serving", but hidden_layout asked for "--var hidden_states=DIR" (given: its
probe had no draft to run it on), reference_forward for another interpreter and drafter_eval
for "--var hidden_states=DIR --var draft_model=DIR": a draft directory that does not exist.
Each now says the MTP line. A real run on this machine, a real target config.json."""

from __future__ import annotations

import json
from pathlib import Path

from tests.ssh.test_fleet_faults import assert_clean_cli, load_run

MTP_LINE = "Not checked: nothing for MTP serving (an EAGLE-3 draft's checks)"


def _target(tmp_path: Path) -> Path:
    target = tmp_path / "DeepSeek-V3"
    target.mkdir()
    (target / "config.json").write_text(json.dumps({
        "architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3",
        "num_hidden_layers": 61, "hidden_size": 7168, "vocab_size": 129280,
        "num_attention_heads": 128, "max_position_embeddings": 163840,
        "num_nextn_predict_layers": 1}))
    return target


def test_every_draft_step_says_the_server_drafts_with_its_targets_mtp(cli, tmp_path):
    target = _target(tmp_path)
    data = tmp_path / "hs"
    data.mkdir()
    out = tmp_path / "runs"
    command = (f"python -m sglang.launch_server --model-path {target} --speculative-algorithm EAGLE "
               "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
    result = cli("run", "perf_regression", "--host", "local", "--out", str(out),
                 "--var", f"server_cmdline={command}", "--var", "engine=sglang",
                 "--var", "engine_version=0.5.4", "--var", f"hidden_states={data}",
                 cwd=tmp_path, timeout=120)
    assert_clean_cli(result)
    _, record = load_run(out)
    by_step: dict[str, list[dict]] = {}
    for finding in record["findings"]:
        by_step.setdefault(finding["step"], []).append(finding)
    for step in ("configs", "vocab", "hidden_layout", "reference_forward", "drafter_eval"):
        assert [(f["code"], f["title"]) for f in by_step[step]] == [("SD004", MTP_LINE)], step
        assert "drafts with the MTP module(s) inside its target" in by_step[step][0]["evidence"][0]
