"""An acceptance said in words after a structured reading of speed is still read.

vLLM's offline example (vllm-project/vllm examples/offline_inference/spec_decode.py) prints
LLM.generate's progress bar, then its counts and "mean acceptance length: 2.95". The bar made
the output a structured one, and a structured output's words were not read for acceptance: the
accept length was lost (only the bar's 823.45 tok/s was read).
"""

from spec_debug.session.metrics import extract_metrics

SPEC_DECODE_PY = """\
Processed prompts: 100%|##########| 80/80 [00:12<00:00,  6.42it/s, est. speed input: 1234.56 toks/s, output: 823.45 toks/s]
--------------------------------------------------
total_num_output_tokens: 22914
num_drafts: 7775
num_draft_tokens: 23325
num_accepted_tokens: 15131
mean acceptance length: 2.95
--------------------------------------------------
acceptance at token 0: 0.84
acceptance at token 1: 0.64
"""


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=False))


def test_the_bar_and_the_accept_length_are_both_read():
    assert _readings(SPEC_DECODE_PY) == [("accept_length", 2.95), ("throughput", 823.45)]


def test_a_server_log_whose_lines_give_the_acceptance_is_not_read_twice():
    line = ("[2025-01-01 10:00:00 TP0] Decode batch, #running-req: 1, #token: 2048, token usage: 0.01, "
            "accept len: 2.31, accept rate: 0.55, cuda graph: True, gen throughput (token/s): 180.12, #queue-req: 0\n")
    names = [m.name for m in extract_metrics(line * 3, prose=False)]
    assert sorted(names) == ["accept_length", "accept_rate", "throughput"]
