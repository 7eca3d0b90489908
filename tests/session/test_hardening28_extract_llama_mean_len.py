"""llama-server's per-request speculation line (tools/server/server-context.cpp, print_timings):
"draft acceptance = %0.5f (%5d accepted / %5d generated), mean len = %5.2f". The mean len is
1 + accepted / verify steps, the accept length; it was no reading (only the rate was read)."""

import pytest

from spec_debug.session.metrics import scan_metrics


def _readings(text):
    return sorted((m.name, m.value) for m in scan_metrics(text, True))


@pytest.mark.parametrize("log, rate, length", [
    # https://github.com/ggml-org/llama.cpp/pull/27342 (DFlash2, a pasted server log)
    ("4.58.584.373 I slot print_timing: id  0 | task 4827 |    graphs reused =       4963\n"
     "4.58.584.379 I slot print_timing: id  0 | task 4827 | draft acceptance = 0.98444 (  886 accepted /   900 "
     "generated), mean len =  4.94\n"
     "4.58.586.503 I slot      release: id  0 | task 4827 | stop processing: n_tokens = 30786, truncated = 0\n",
     0.98444, 4.94),
    # https://github.com/lemonade-sdk/llamacpp-rocm/issues/129
    ("4.01.806.856 I slot print_timing: id  0 | task 0 | draft acceptance = 0.65959 ( 5995 accepted /  9089 "
     "generated), mean len =  4.30\n"
     "4.01.809.152 I slot      release: id  0 | task 0 | stop processing: n_tokens = 8191, truncated = 1\n",
     0.65959, 4.30),
])
def test_llama_server_mean_len_is_the_accept_length(log, rate, length):
    assert _readings(log) == [("accept_length", length), ("accept_rate", rate)]


def test_the_line_without_mean_len_reads_the_rate_alone():
    # https://github.com/ggml-org/llama.cpp/pull/12603 (the line before mean len was added)
    log = "draft acceptance = 0.23026 (   70 accepted /   304 generated)\n"
    assert _readings(log) == [("accept_rate", 0.23026)]


# https://github.com/ggml-org/llama.cpp/pull/24536 (the per-drafter totals, pasted without the
# request's own line)
STATS = ("0.06.896.057 I statistics     draft-eagle3: #calls(b,g,a) =    1     87     87, #gen drafts =     87, "
         "#acc drafts =    70, #gen tokens =    259, #acc tokens =   167, #mean acc len = 2.92, "
         "#acc rate/pos = (0.805, 0.632, 0.483), dur(b,g,a) = 0.005, 325.555, 0.114 ms\n")


def test_llama_statistics_alone_give_the_accept_length():
    assert _readings(STATS) == [("accept_length", 2.92)]


def test_llama_statistics_beside_the_request_line_are_no_second_reading():
    request = ("0.06.896.015 I slot print_timing: id  1 | task 0 | draft acceptance = 0.64479 (  167 accepted /   259 "
               "generated), mean acceptance length =  2.92, acceptance rate per position = (0.805, 0.632, 0.483)\n")
    assert _readings(request + STATS) == [("accept_length", 2.92), ("accept_rate", 0.64479)]


def test_a_drafter_that_drafted_nothing_has_no_length():
    assert _readings(STATS.replace("#gen drafts =     87", "#gen drafts =      0")) == []
