"""Acceptance readings in engines' own output that were not read.

- SGLang's per-request meta_info while speculating (sgl-project/sglang#11441): "spec_accept_rate"
  and "spec_accept_length", in a /generate response's JSON or the server's "Finish: ... out=
  {'meta_info': {...}}" log line. Nothing was read (a quote between the key and its colon).
- llama-server's print_timing line since ggml-org/llama.cpp#24536: "draft acceptance = 0.54671
  (  158 accepted /   289 generated), mean acceptance length =  2.63": the rate was lost once
  the word "rate" was dropped from it (#12603's "draft acceptance rate = 0.23026 (...)" was read).
"""

from spec_debug.session.metrics import extract_metrics


def _readings(text, prose=False):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=prose))


FINISH_LOG = ("[2025-10-02 23:42:16] Finish: obj=GenerateReqInput(rid='5799660f79fd4dc481ac2226d5b97102'), "
              "out={'meta_info': {'id': '5799660f79fd4dc481ac2226d5b97102', 'finish_reason': {'type': 'stop', "
              "'matched': 151645}, 'prompt_tokens': 22, 'completion_tokens': 512, 'cached_tokens': 0, "
              "'spec_accept_rate': 0.6123, 'spec_accept_length': 2.84, 'spec_verify_ct': 180, 'e2e_latency': 2.31}}\n")
GENERATE_JSON = ('{"text":"...","meta_info":{"id":"a","prompt_tokens":22,"completion_tokens":512,'
                 '"spec_accept_rate":0.5,"spec_accept_length":2.5,"spec_verify_ct":204}}\n')


def test_sglang_meta_info_accept_length_and_rate():
    assert _readings(FINISH_LOG) == [("accept_length", 2.84), ("accept_rate", 0.6123)]
    # one request each: the mean over the requests printed
    assert _readings(FINISH_LOG + GENERATE_JSON) == [("accept_length", 2.67), ("accept_rate", 0.5561)]


def test_sglang_meta_info_without_speculation_has_none():
    assert _readings('{"meta_info":{"prompt_tokens":22,"spec_accept_length":null}}') == []
    # a script's own lookup of the key is no reading
    assert _readings('acc = meta.get("spec_accept_length", 1.0)\n') == []


LLAMA_24536 = """\
0.09.401.679 I slot print_timing: id  1 | task 90 | draft acceptance = 0.54671 (  158 accepted /   289 generated), mean acceptance length =  2.63, acceptance rate per position = 0.70, 0.52, 0.41
0.09.401.680 I slot print_timing: id  1 | task 90 |
prompt eval time =      58.21 ms /    21 tokens (    2.77 ms per token,   360.77 tokens per second)
       eval time =    2049.23 ms /   400 tokens (    5.12 ms per token,   195.20 tokens per second)
"""


def test_llama_server_draft_acceptance_without_rate():
    assert _readings(LLAMA_24536) == [("accept_length", 2.63), ("accept_rate", 0.54671),
                                      ("prefill_throughput", 360.77), ("throughput", 195.2)]
    old = "draft acceptance rate = 0.23026 (   70 accepted /   304 generated)\n"
    assert _readings(old) == [("accept_rate", 0.23026)]
