"""analyze: SGLang's per-request accept length from its verify passes, where meta_info gives no
spec_accept_length.

SGLang releases before sgl-project/sglang#11441 report a speculating request's verify passes
("spec_verify_ct") and its completion tokens in /generate's meta_info, and SGLang's own test reads
the accept length as their ratio (test/srt/test_eagle_infer.py: completion_tokens / spec_verify_ct).
Before, a session that measured the accept length that way (curl /generate on the server) had no
reading at all: only "spec_accept_length" was read.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer


def _generate(completion_tokens: int, verify_ct: int) -> str:
    return json.dumps({"text": " Paris is the capital of France.",
                       "meta_info": {"id": "3c1d5e", "finish_reason": {"type": "length", "length": completion_tokens},
                                     "prompt_tokens": 12, "completion_tokens": completion_tokens, "cached_tokens": 0,
                                     "spec_verify_ct": verify_ct, "e2e_latency": 1.84}})


def test_a_generate_response_gives_its_accept_length(tmp_path):
    m = _Writer("9a1b0000-0000-4000-8000-00000000f039", None, datetime(2026, 3, 3, 9, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 gives no speedup on gpu05.")
    m.bash("ssh gpu05 \"curl -s localhost:30000/generate -d '{\\\"text\\\": \\\"The capital of France is\\\", "
           "\\\"sampling_params\\\": {\\\"max_new_tokens\\\": 256, \\\"temperature\\\": 0}}'\"",
           _generate(256, 200))
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    readings = [(r.name, r.value, r.unit, r.host) for r in analyze_path(path).metrics]
    assert readings == [("accept_length", 1.28, "tokens", "gpu05")]


def test_each_request_of_a_batch_counts_once():
    batch = "[" + _generate(100, 50) + ", " + _generate(90, 30) + "]"
    assert [(r.name, r.value) for r in extract_metrics(batch)] == [("accept_length", 2.5)]


def test_the_servers_finish_log_line_of_an_older_release():
    line = ("[2025-06-02 23:42:16] Finish: obj=GenerateReqInput(rid='5799660f'), out={'meta_info': {'id': "
            "'5799660f', 'finish_reason': {'type': 'stop', 'matched': 151645}, 'prompt_tokens': 22, "
            "'completion_tokens': 512, 'cached_tokens': 0, 'spec_verify_ct': 180, 'e2e_latency': 2.31}}\n")
    assert [(r.name, r.value) for r in extract_metrics(line)] == [("accept_length", 2.844)]


def test_no_speculation_and_a_stated_length_are_read_as_before():
    assert extract_metrics(_generate(100, 0)) == []  # no verify pass: the server does not speculate
    stated = json.dumps({"meta_info": {"completion_tokens": 512, "spec_verify_ct": 204, "spec_accept_length": 2.5}})
    assert [(r.name, r.value) for r in extract_metrics(stated)] == [("accept_length", 2.5)]
