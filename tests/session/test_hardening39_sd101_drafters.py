"""analyze: SD101 (one draft step) judged as the launch audit judges it, not on the flag alone.

Before, every launch written with `--speculative-num-steps 1` (or `num_speculative_tokens: 1`) was
an SD101 *error*, so a session that served DeepSeek-V3 the way SGLang's DeepSeek docs do
(`--speculative-algorithm EAGLE --speculative-num-steps 1` with no draft path: the model's own
MTP module, trained for one step) had "Root causes found: SD101" in its postmortem, and so did an
SGLang NGRAM server verifying 12 draft tokens (NGRAM never reads the steps). The catalog says an
n-gram/plain-LM drafter's single step is a warning, and the launch audit
(checks/launch_flags.check_num_steps) says so too; now the session analysis asks it.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer

DEEPSEEK_MTP = ("ssh root@gpu01 python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3-0324 "
                "--speculative-algorithm EAGLE --speculative-num-steps 1 --speculative-eagle-topk 1 "
                "--speculative-num-draft-tokens 2 --trust-remote-code --tp 8")
NGRAM_WIDE = ("ssh root@gpu01 python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
              "--speculative-algorithm NGRAM --speculative-num-steps 1 --speculative-num-draft-tokens 12")
VLLM_NGRAM = ("ssh gpu02 vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
              "'{\"method\": \"ngram\", \"num_speculative_tokens\": 1, \"prompt_lookup_max\": 4}'")
EAGLE3_ONE = ("ssh gpu03 python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
              "--speculative-algorithm EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
              "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2")


def _analyze(tmp_path, *commands):
    m = _Writer("9a1b0000-0000-4000-8000-00000000d039", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("Speculative decoding gives no speedup, find out why.")
    for command in commands:
        m.bash(command, "server started", exit_code=0)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _sd101(analysis):
    return [f for f in analysis.findings if f.code == "SD101"]


def test_deepseek_mtp_at_one_step_is_a_warning_not_a_root_cause(tmp_path):
    analysis = _analyze(tmp_path, DEEPSEEK_MTP)
    [finding] = _sd101(analysis)
    assert finding.severity == "warning"
    assert finding.host == "gpu01"
    assert "Root causes found" not in " ".join(postmortem_view(analysis)["summary"])


def test_an_ngram_server_verifying_twelve_tokens_is_not_capped(tmp_path):
    assert _sd101(_analyze(tmp_path, NGRAM_WIDE)) == []


def test_a_vllm_ngram_drafter_at_one_token_is_a_warning(tmp_path):
    [finding] = _sd101(_analyze(tmp_path, VLLM_NGRAM))
    assert finding.severity == "warning"


def test_an_eagle3_draft_at_one_step_stays_an_error(tmp_path):
    [finding] = _sd101(_analyze(tmp_path, EAGLE3_ONE))
    assert finding.severity == "error"
    assert finding.host == "gpu03"


def test_the_gravest_launch_sets_the_severity_whatever_the_order(tmp_path):
    # one SD101 record per session: an n-gram launch's warning, then an EAGLE-3 launch's error
    [finding] = _sd101(_analyze(tmp_path, VLLM_NGRAM, EAGLE3_ONE))
    assert finding.severity == "error"
    assert finding.evidence_seqs == [1, 3]
    [finding] = _sd101(_analyze(tmp_path, EAGLE3_ONE, VLLM_NGRAM))
    assert finding.severity == "error"


def test_the_severity_travels_from_the_parse_workers():
    # a big session file is parsed in worker processes, which send each observation as a tuple
    from spec_debug.session.extract import Extracted
    from spec_debug.session.parallel import _pack, _unpack
    from spec_debug.session.spec_facts import launch_observations

    launch = tuple(launch_observations(VLLM_NGRAM))
    assert [o.severity for o in launch] == ["warning"]
    back = _unpack(_pack(Extracted((), (), launch)))
    assert [(o.code, o.severity) for o in back.launch] == [("SD101", "warning")]


def test_a_running_servers_args_are_judged_as_its_command(tmp_path):
    # GET /get_server_info: the ServerArgs a running SGLang server reports, as JSON (null, false)
    import json

    def info(**args):
        return json.dumps({"model_path": "deepseek-ai/DeepSeek-V3-0324", "tp_size": 8, "enable_dp_attention": False,
                           "speculative_draft_model_path": None, "speculative_eagle_topk": 1,
                           "speculative_num_draft_tokens": 2, **args}, indent=2)

    m = _Writer("9a1b0000-0000-4000-8000-00000000d139", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("Speculative decoding gives no speedup, find out why.")
    m.bash("ssh gpu01 curl -s localhost:30000/get_server_info",
           info(speculative_algorithm="EAGLE", speculative_num_steps=1))
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    [finding] = _sd101(analyze_path(path))
    assert (finding.severity, finding.host) == ("warning", "gpu01")  # the model's own MTP module
    m.bash("ssh gpu01 curl -s localhost:30000/get_server_info",
           info(speculative_algorithm="EAGLE3", speculative_num_steps=1,
                speculative_draft_model_path="/models/eagle3-draft"))
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    [finding] = _sd101(analyze_path(path))
    assert finding.severity == "error"


def test_a_deepseek_nextn_draft_at_one_step_is_a_warning(tmp_path):
    # the SGLang DeepSeek docs' launch before they dropped the draft path: the MTP module exported
    nextn = DEEPSEEK_MTP.replace("--speculative-num-steps 1",
                                 "--speculative-draft-model-path lmsys/DeepSeek-V3-0324-NextN --speculative-num-steps 1")
    [finding] = _sd101(_analyze(tmp_path, nextn))
    assert finding.severity == "warning"
