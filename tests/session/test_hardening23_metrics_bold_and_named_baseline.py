"""Readings in Markdown bold, and a speedup with the run it is against named before its factor.

NVIDIA/TensorRT-LLM#5146 reports "average acceptance length **1.83 / 4**, tps/user speedup over
regular decoding: **1.26x**": the bold hid the accept length ("**" between the words and the
number) and "over regular decoding:" between the word and the factor hid the speedup. Both are
read now; a speedup over another drafter stays none.
"""

from spec_debug.session.metrics import extract_metrics

TRTLLM_5146 = """(H200 TP8, conc=4)
- public BF16 Llama 3.3 70b + public Eagle3: average acceptance length **1.83 / 4**, tps/user speedup over regular decoding: **1.26x**
- NV FP8 Llama 4 Maverick + NV BF16 Eagle3: average acceptance length **2.90 / 4**, tps/user speedup over regular decoding: **1.67x**
"""


def _readings(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True))


def test_the_pr_description_is_read():
    assert _readings(TRTLLM_5146) == [("accept_length", 1.83), ("accept_length", 2.9),
                                      ("speedup", 1.26), ("speedup", 1.67)]


def test_a_bold_rate():
    assert _readings("acceptance rate: **62%**") == [("accept_rate", 62.0)]


def test_a_speedup_over_another_drafter_is_none():
    assert _readings("speedup over eagle-2: 1.1x") == []
    assert _readings("speedup over regular decoding of eagle-2: 1.1x") == []
