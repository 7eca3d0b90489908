"""The batch size an SGLang server log's readings are of (metrics._one_batch_size): named only
where every Decode batch line ran the same number of requests. The scan stops at the first line
whose count differs from the first one's; these logs put the difference at each place it can be
(the second line, a later one, the last) and mix the line spellings the pattern reads."""

from spec_debug.session.metrics import scan_metrics


def _line(running: int, tput: float, head: str = "Decode batch,") -> str:
    return (f"[2026-03-02 10:00:00 TP0] {head} #running-req: {running}, #token: 5683, token usage: 0.07, "
            f"accept len: 2.97, accept rate: 0.28, cuda graph: True, gen throughput (token/s): {tput:.2f}, "
            f"#queue-req: 0")


def _throughput_context(lines: list[str]) -> str:
    (reading,) = [m for m in scan_metrics("\n".join(lines)) if m.name == "throughput"]
    return reading.context


def test_every_line_at_four_requests_names_the_batch_size():
    assert _throughput_context([_line(4, 60.0), _line(4, 61.0), _line(4, 62.0), _line(4, 63.0)]) == \
        "SGLang Decode batch, mean of 4 lines, batch size 4"


def test_one_line_names_its_batch_size():
    assert _throughput_context([_line(12, 60.0)]) == "SGLang Decode batch, mean of 1 line, batch size 12"


def test_a_second_line_that_differs_names_none():
    assert _throughput_context([_line(4, 60.0), _line(5, 61.0), _line(4, 62.0)]) == "SGLang Decode batch, mean of 3 lines"


def test_a_later_line_that_differs_names_none():
    assert _throughput_context([_line(4, 60.0), _line(4, 61.0), _line(4, 62.0), _line(8, 63.0)]) == \
        "SGLang Decode batch, mean of 4 lines"


def test_a_count_that_only_starts_like_the_first_one_differs():
    # "4" and "40": the whole count is compared, not its first digit
    assert _throughput_context([_line(4, 60.0), _line(4, 61.0), _line(40, 62.0)]) == "SGLang Decode batch, mean of 3 lines"


def test_the_forward_iteration_and_dot_spellings_are_lines_of_the_same_batch():
    lines = [_line(2, 60.0, "Decode batch [1840],"), _line(2, 61.0, "Decode batch."), _line(2, 62.0)]
    assert _throughput_context(lines) == "SGLang Decode batch, mean of 3 lines, batch size 2"
    lines[2] = _line(3, 62.0, "Decode batch [1842],")
    assert _throughput_context(lines) == "SGLang Decode batch, mean of 3 lines"
