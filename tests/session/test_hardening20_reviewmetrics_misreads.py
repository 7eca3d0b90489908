"""Other real text that today's new extractor rules (hardening20_extract_*) misread.

Each rule was written for one sentence; these are the sentences around it that it caught too:
a logger's stack with the next log line, a log tail of NCCL's own OOM warnings, "target" as the
target model, "with EAGLE3" over a change that is not speculation, engine settings listed under
a header that says tok/s.
"""

from spec_debug.session.failures import extract_errors
from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


def _errors(text, exit_code=0):
    return [(e.kind, e.exception) for e in extract_errors(text, exit_code)]


# logging's stack_info=True prints "Stack (most recent call last):" and frames, no exception
# (CPython Lib/logging/__init__.py, Formatter.formatStack); a tail that cut the header off
# leaves frames followed by the next log line.
LOGGER_STACK_TAIL = '''\
  File "/opt/vllm/vllm/v1/engine/core.py", line 3, in run_busy_loop
    self._process_engine_step()
  File "/opt/vllm/vllm/v1/engine/core.py", line 2, in _process_engine_step
    logger.warning("slow step", stack_info=True)
INFO: 127.0.0.1:51234 - "POST /v1/completions HTTP/1.1" 200 OK
'''


def test_frames_before_a_log_line_are_no_traceback():
    assert _errors(LOGGER_STACK_TAIL) == []
    # the next line a reading, after a warning's frames
    assert _errors('  File "/opt/x/bench.py", line 3, in <module>\n    warnings.warn("slow")\n'
                   "Throughput: 54.8 tok/s\n") == []


def test_a_headless_traceback_with_an_exception_class_still_counts():
    tail = ('  File "/opt/x/triton_backend.py", line 72, in forward\n    out = kernel(x)\n'
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    assert _errors(tail)[0][1] == "torch.OutOfMemoryError"
    assert _errors('  File "/opt/x/a.py", line 7, in f\n    raise ValueError("bad")\nValueError: bad\n') == \
        [("traceback", "ValueError")]


# NCCL's OOM on a rank, as its log shows it (NCCL src/include/alloc.h "Failed to CUDA calloc",
# misc/strongstream.cc "Cuda failure 'out of memory'"): a tail of the log exits 0.
NCCL_OOM_TAIL = '''\
node1:123:456 [0] NCCL INFO Channel 00/02 : 0 1
node1:123:456 [0] misc/strongstream.cc:53 NCCL WARN Cuda failure 'out of memory'
node1:123:456 [0] include/alloc.h:124 NCCL WARN Failed to CUDA calloc 2097152 bytes
node1:123:456 [0] NCCL INFO init.cc:1234 -> 1
'''


def test_an_nccl_warning_of_a_failure_counts_after_a_clean_exit():
    assert _errors(NCCL_OOM_TAIL)[0][0] == "cuda_oom"
    assert _errors("node1:1:2 [0] NCCL WARN socketProgress: Connection closed by remote peer node2<40286>\n")[0][0] \
        == "nccl"


def test_target_alone_is_the_target_model_no_goal():
    assert _readings("Target: 40 tok/s\nEAGLE3: 95 tok/s") == [("throughput", 40.0), ("throughput", 95.0)]
    assert _readings("Target at 40 tok/s, EAGLE-3 at 95 tok/s.") == [("throughput", 40.0), ("throughput", 95.0)]
    # a goal still is none
    assert _readings("Our target throughput is 100 tok/s; we get 40 tok/s.") == [("throughput", 40.0)]


def test_from_a_to_b_with_speculation_on_in_both_runs():
    assert _readings("with speculative decoding, throughput dropped from 60 to 50 tok/s as batch grew from 1 to 32") \
        == [("throughput", 50.0), ("throughput", 60.0)]
    assert _readings("With EAGLE3 enabled, raising num_speculative_tokens from 3 to 5 moved throughput "
                     "from 80 to 95 tok/s.") == [("throughput", 80.0), ("throughput", 95.0)]
    # the method's gain still starts at the baseline (SafeAILab/EAGLE#228)
    assert _readings("Using EAGLE3, throughput improves from 60 to 90 tok/s.") == \
        [("baseline_throughput", 60.0), ("throughput", 90.0)]


def test_settings_listed_under_a_tok_s_line_are_no_readings():
    text = ("Settings used for the tok/s runs\n- tensor_parallel_size: 2\n- top_p: 0.95\n"
            "- block_size: 16\n- max_num_seqs: 64\n")
    assert _readings(text) == []
    assert _readings("Measuring tok/s with:\n- tp: 2\n- top_p: 0.95\n") == []
    assert _readings("tok/s comparison\n- H100 SXM: 95.2\n- A100 80GB: 60.1\n- speedup: 1.58\n") == \
        [("throughput", 60.1), ("throughput", 95.2)]
    assert _readings("Output tok/s\n- vanilla: 40\n- eagle3_tree: 80\n") == \
        [("baseline_throughput", 40.0), ("throughput", 80.0)]


def test_a_prompt_word_on_the_next_line_leaves_decode_alone():
    assert _readings("decode 45 tok/s\nprompt processing is slow") == [("throughput", 45.0)]
    assert _readings("3000 tok/s total, 40 tok/s decode") == [("throughput", 40.0), ("total_throughput", 3000.0)]


def test_a_signed_change_or_spread_is_no_reading():
    # https://github.com/ggml-org/llama.cpp/pull/27173 (2026-08-16): a column of what each change
    # gained, "~+2-6 t/s", was read as a 4 t/s run
    text = ("| change | how it works | t/s change / improvement |\n|---|---|---|\n"
            "| Draft all tokens in one decode (`LLAMA_SPEC_CHAIN=1`) | Before: one GPU call per draft token. | ~+2-6 t/s |\n"
            "| Return 2 numbers per draft token | The GPU sends back only the picked token. | ~+5-11 t/s |\n")
    assert _readings(text) == []
    assert _readings("EAGLE3: 95 tok/s (+40 tok/s over baseline 55 tok/s)") == \
        [("baseline_throughput", 55.0), ("throughput", 95.0)]
    # a mean and its spread: the mean
    assert _readings("throughput 54.8 ± 0.3 tok/s") == [("throughput", 54.8)]
    assert _readings("throughput 54.8±0.3 tok/s") == [("throughput", 54.8)]


def test_a_unit_label_before_a_pair_or_a_date_is_no_reading():
    # "tokens/s: 50.58" (vllm-project/vllm#5313) is one; a pair or a date after the label is not
    assert _readings("tokens/s: 45 -> 80 with EAGLE3") == []
    assert _readings("tokens/s: 2024-11-30 run") == []
    assert _readings("tokens/s: 50.583147408917135") == [("throughput", 50.583147408917135)]


def test_with_eagle3_after_the_pair_and_then_a_fix_is_two_speculative_runs():
    assert _readings("Throughput went from 60 to 90 tok/s with EAGLE3 after fixing the vocab mapping.") == \
        [("throughput", 60.0), ("throughput", 90.0)]
    assert _readings("Throughput went from 60 to 90 tok/s with EAGLE3 once I fixed the d2t mapping.") == \
        [("throughput", 60.0), ("throughput", 90.0)]
    # speculation the only change named: the first is the baseline
    assert _readings("it went from 30 tok/s to 45 tok/s with MTP.") == \
        [("baseline_throughput", 30.0), ("throughput", 45.0)]


def test_nccl_warning_of_a_missing_optional_library_is_no_failure():
    # older NCCL on a host with no InfiniBand warns so on every rank of a working run
    assert _errors("node1:1:2 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"
                   "node1:1:2 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n") == []
