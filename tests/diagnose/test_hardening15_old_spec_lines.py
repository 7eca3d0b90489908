"""Acceptance lines the server-log reader skipped: vLLM 0.8.x's first V1 spec-decoding lines
(counts, no accept length) and SGLang's per-request `Finish:` lines (spec_accept_length)."""

from __future__ import annotations

from spec_debug.diagnose.serverlog import parse_server_log
from spec_debug.probes import server_log

# https://github.com/vllm-project/vllm/pull/15902 (2025-04-01), its BEFORE and AFTER lines: vLLM
# 0.8.2-0.8.4 V1 logged these per interval, with no num_drafts (PR #16665 added it) and so no AL
V1_082 = "Speculative metrics: Draft acceptance rate: 1.000, Number of accepted tokens: 66, Number of draft tokens: 66, "
V1_083 = "SpecDecoding metrics: Draft acceptance rate: 100.0%, Accepted: 66 tokens, Drafted: 66 tokens"
# The engine config line with K, in the SpeculativeConfig.__repr__ form (vllm/config.py)
STARTUP_K3 = ("INFO 04-10 10:00:00 [core.py:58] Initializing a V1 LLM engine (v0.8.4) with config: "
              "model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=SpeculativeConfig(method='eagle3', "
              "model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3), tokenizer='meta-llama/Llama-3.1-8B-Instruct'")


def test_every_draft_accepted_is_k_plus_one_with_k_from_the_startup_line():
    # vLLM counted drafts as drafted / K then (PR #15151 get_max_num_emitted_tokens), so 66 of 66
    # drafted tokens accepted at K=3 are 22 drafts of 3 accepted tokens plus the bonus token
    for line in (V1_082, V1_083):
        stats = parse_server_log(STARTUP_K3 + "\n" + line)
        assert stats.engine == "vllm" and stats.spec_metric_lines == 1
        assert stats.accepted_tokens == 66 and stats.drafted_tokens == 66
        assert stats.accept_length == 4.0, line


def test_intervals_weigh_by_their_drafts():
    collapsed = "SpecDecoding metrics: Draft acceptance rate: 0.0%, Accepted: 0 tokens, Drafted: 300 tokens"
    stats = parse_server_log("\n".join([STARTUP_K3, V1_083, collapsed]))
    # 22 drafts at AL 4 and 100 drafts at AL 1: the collapse dominates, as it did on the server
    assert stats.accept_length_min == 1.0 and stats.accept_length_max == 4.0
    assert abs(stats.accept_length - (22 * 4 + 100 * 1) / 122) < 1e-3


def test_without_k_no_accept_length_is_made_up():
    stats = parse_server_log(V1_083)
    assert stats.accepted_tokens == 66 and stats.accept_length is None


# https://github.com/sgl-project/sglang/pull/11441 (2025-10-10): the Finish line of --log-requests;
# the meta_info keys are the ones srt/managers/tokenizer_manager.py `_calculate_spec_decoding_metrics`
# sets (spec_accept_length = completion_tokens / spec_verify_ct)
FINISH = ("[2025-10-02 23:42:16] Finish: obj=GenerateReqInput(video_data=None, rid='5799660f79fd4dc481ac2226d5b97102', "
          "return_logprob=False, logprob_start_len=-1, top_logprobs_num=0, token_ids_logprob=None, "
          "return_text_in_logprobs=True, stream=True, log_metrics=True, return_hidden_states=False, modalities=[], "
          "session_params=None, lora_id=None, custom_logit_processor=None, bootstrap_host=None, bootstrap_port=None, "
          "bootstrap_room=None, bootstrap_pair_key=None, data_parallel_rank=None, background=False, "
          "conversation_id=None, priority=None, extra_key=None, no_logs=False, custom_labels=None, label=None, "
          "return_bytes=False), out={{'meta_info': {{'id': '5799660f79fd4dc481ac2226d5b97102', 'finish_reason': "
          "{{'type': 'stop', 'matched': 128009}}, 'prompt_tokens': 40, 'weight_version': 'default', "
          "'completion_tokens': {tokens}, 'cached_tokens': 0, 'spec_accept_rate': {rate}, "
          "'spec_accept_length': {al}, 'spec_accept_token_num': {acc}, 'spec_draft_token_num': {drafted}, "
          "'spec_verify_ct': {verify}, 'e2e_latency': 1.12}}, 'text': '{text}'}}")


def _finish(tokens: int, verify: int, text: str = "ok") -> str:
    accepted = tokens - verify  # EAGLE with 3 steps, 4 draft tokens: 3 guesses per pass
    # a request never verified keeps the defaults: 'spec_accept_rate': 0.0, 'spec_accept_length': 0
    return FINISH.format(tokens=tokens, verify=verify, al=tokens / verify if verify else 0,
                         rate=accepted / (3 * verify) if verify else 0.0,
                         acc=accepted, drafted=3 * verify, text=text)


def test_finished_requests_give_the_accept_length_over_their_verify_passes():
    lines = [_finish(120, 40), _finish(30, 30), _finish(0, 0)]  # the last was never verified (aborted)
    stats = parse_server_log("\n".join(lines))
    assert stats.engine == "sglang" and stats.finished_requests == 2
    assert stats.accept_length == round(150 / 70, 4)
    assert stats.accept_length_min == 1.0 and stats.accept_length_max == 3.0


def test_decode_batch_lines_stay_the_log_accept_length():
    # https://github.com/sgl-project/sglang/issues/11948
    decode = ("[2025-10-20 08:30:12] Decode batch. #running-req: 1, #token: 108, token usage: 0.00, accept len: 2.17, "
              "accept rate: 0.54, cuda graph: True, gen throughput (token/s): 178.86, #queue-req: 0,")
    stats = parse_server_log("\n".join([decode, _finish(120, 40)]))
    assert stats.accept_length == 2.17 and stats.request_accept_length_mean == 3.0


def test_the_probe_ships_the_finish_line_s_counts_not_its_text(tmp_path):
    log = tmp_path / "server.log"
    long_answer = "The answer, at length. " * 800  # --log-requests-level 2 logs the whole output
    log.write_text("\n".join([_finish(120, 40, long_answer), _finish(30, 30)]) + "\n")
    host = server_log.run({"server_log": str(log)})
    assert len(host["lines"]) == 2 and all(len(line) < 300 for line in host["lines"])
    assert parse_server_log("\n".join(host["lines"])).accept_length == round(150 / 70, 4)
