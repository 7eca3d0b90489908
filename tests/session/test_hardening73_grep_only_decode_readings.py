"""analyze: SGLang's Decode batch readings cut out of their lines by `grep -o` are read.

An agent that greps the readings alone out of a speculating SGLang server's log (``grep -oE
"accept len: [0-9.]+|gen throughput \\(token/s\\): [0-9.]+" server.log | tail``) gets one reading a
line, each at the line's start. The decode throughputs were not read at all (no "Decode batch"
on the line, and no "tok/s" for the words' reader), and each accept length was a reading of its
own. They now read as the Decode batch lines they came from: the mean of each.
"""

from spec_debug.session.metrics import extract_metrics

GREPPED = """\
accept len: 3.10
gen throughput (token/s): 250.00
accept len: 3.20
gen throughput (token/s): 260.00
"""

THROUGHPUT_ONLY = """\
gen throughput (token/s): 223.45
gen throughput (token/s): 230.00
"""


def _readings(text):
    return [(m.name, m.value, m.unit, m.context) for m in extract_metrics(text)]


def test_grepped_readings_read_as_the_lines_they_came_from():
    assert _readings(GREPPED) == [("throughput", 255.0, "tok/s", "SGLang Decode batch, mean of 2 lines"),
                                  ("accept_length", 3.15, "tokens", "SGLang Decode batch, mean of 2 lines")]


def test_grepped_throughputs_alone():
    assert _readings(THROUGHPUT_ONLY) == [("throughput", 226.72, "tok/s", "SGLang Decode batch, mean of 2 lines")]


def test_a_whole_decode_batch_line_reads_as_before():
    line = ("[2025-07-10 12:00:00 TP0] Decode batch, #running-req: 1, #token: 581, token usage: 0.00, accept len: "
            "2.77, accept rate: 0.69, cuda graph: True, gen throughput (token/s): 223.45, #queue-req: 0\n")
    assert [(n, v) for n, v, _, _ in _readings(line)] == [("throughput", 223.45), ("accept_length", 2.77),
                                                          ("accept_rate", 0.69)]
