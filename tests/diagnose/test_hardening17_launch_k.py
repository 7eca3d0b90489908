"""A `tail` of a long-running vLLM 0.8.x server's log: its SpecDecoding lines give only counts
(`Accepted: N tokens, Drafted: M tokens`, no accept length) and the startup line that says K has
scrolled away. K is still the audited launch command's num_speculative_tokens, so the throughput
step reads the accept length with it; the log's own startup line wins when it is there."""

from __future__ import annotations

import json

from spec_debug.diagnose.steps import launch_step, throughput_step
from spec_debug.probes import launch_flags, server_log
from spec_debug.probes.registry import ProbeContext

# https://github.com/vllm-project/vllm/pull/15902 (2025-04-01), its AFTER line (vLLM 0.8.3-0.8.4 V1),
# and the same line for an interval where the draft collapsed
GOOD = "INFO 04-10 10:05:00 [metrics.py:89] SpecDecoding metrics: Draft acceptance rate: 100.0%, Accepted: 66 tokens, Drafted: 66 tokens"
COLLAPSED = "INFO 04-10 10:05:10 [metrics.py:89] SpecDecoding metrics: Draft acceptance rate: 0.0%, Accepted: 0 tokens, Drafted: 300 tokens"
# The engine config line with K, in the SpeculativeConfig.__repr__ form (vllm/config.py)
STARTUP_K3 = ("INFO 04-10 10:00:00 [core.py:58] Initializing a V1 LLM engine (v0.8.4) with config: "
              "model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=SpeculativeConfig(method='eagle3', "
              "model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3), tokenizer='meta-llama/Llama-3.1-8B-Instruct'")


def _serve(k: int, **extra) -> str:
    # vLLM's EAGLE-3 example of 0.8.x (docs/source/features/spec_decode.md), K as given
    spec = {"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": k, **extra}
    return f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{json.dumps(spec)}'"


def _throughput(tmp_path, command: str, log_lines: list[str]) -> tuple[dict, list]:
    log = tmp_path / "server.log"
    log.write_text("\n".join(log_lines) + "\n")
    launch_facts = launch_step.parse(launch_flags.run({"server_cmdline": command, "server_log": str(log)}))
    facts = throughput_step.parse(server_log.run({"server_log": str(log), "baseline_tok_s": "90"}))
    host = {**launch_facts, "eval": {"reference": {"steps": 3, "reference": "target_argmax",
                                                   "target_conditional_acceptance": [0.75, 0.7, 0.6]}}}
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts={**host, **facts})
    findings = throughput_step.check(ctx)
    return facts["throughput"], findings


def test_a_log_tail_without_the_startup_line_reads_its_accept_length_with_the_launch_k(tmp_path):
    tp, findings = _throughput(tmp_path, _serve(3), [GOOD, COLLAPSED])
    # 22 drafts at AL 4 (66 of 66 accepted at K=3) and 100 at AL 1: weighed by drafts, as the
    # server ran them
    assert tp["observed_accept_length"] == round(1 + 66 / (366 / 3), 4)
    assert any("K = 3 (num_speculative_tokens) of the launch command" in note for note in tp["model"]["notes"])
    [gap] = [f for f in findings if f.code == "SD502"]
    assert f"server log accept length {1 + 66 / 122:.2f}" in gap.evidence


def test_the_log_startup_line_wins_over_the_launch_k(tmp_path):
    # the audited command says K=5, but the server that wrote the log ran K=3 (its startup line)
    tp, _ = _throughput(tmp_path, _serve(5), [STARTUP_K3, GOOD])
    assert tp["observed_accept_length"] == 4.0
    assert not any("of the launch command" in note for note in tp["model"]["notes"])


def test_no_launch_command_and_no_startup_line_make_no_accept_length_up(tmp_path):
    log = tmp_path / "server.log"
    log.write_text(GOOD + "\n")
    facts = throughput_step.parse(server_log.run({"server_log": str(log), "baseline_tok_s": "90"}))
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts=facts)
    throughput_step.check(ctx)
    assert facts["throughput"]["log"]["accepted_tokens"] == 66
    assert facts["throughput"]["observed_accept_length"] is None


def test_a_k_schedule_gives_no_single_k_to_read_the_counts_with(tmp_path):
    # num_speculative_tokens_per_batch_size (vllm/config/speculative.py): K varies with the batch,
    # so no one K turns the counts into drafts
    tp, _ = _throughput(tmp_path, _serve(3, num_speculative_tokens_per_batch_size=[[1, 8, 3], [9, 256, 1]]),
                        [GOOD, COLLAPSED])
    assert tp["log"]["drafted_tokens"] == 366 and tp["observed_accept_length"] is None
