"""`grep -o "accept len: [0-9.]*" server.log`: the accept lengths of SGLang's Decode batch lines,
one a line, without the rest of each line. Before, each line was a reading of its own (a run of
forty lines gave forty accept lengths, the summary's first or last of them), where the full
Decode batch lines give their mean. Now the lines give one reading, their mean, as the whole
lines do (and the accept rate's mean where the pattern took it too); one such line alone is
still read as it is."""

from spec_debug.session.metrics import extract_metrics

# the readings of three Decode batch lines, as `grep -o` prints them
GREP_O = "accept len: 3.21\naccept len: 3.05\naccept len: 2.98\n"
FULL_LINES = "".join(
    f"[2025-06-01 10:00:0{i}] Decode batch. #running-req: 1, #token: {100 + 40 * i}, token usage: 0.01, "
    f"accept len: {a}, gen throughput (token/s): 150.00, #queue-req: 0\n"
    for i, a in enumerate(("3.21", "3.05", "2.98")))


def _readings(text):
    return [(m.name, m.value) for m in extract_metrics(text)]


def test_grep_o_accept_lengths_give_their_mean():
    assert _readings(GREP_O) == [("accept_length", 3.08)]
    assert ("accept_length", 3.08) in _readings(FULL_LINES)  # the same mean as the full lines


def test_line_numbers_and_accept_rate():
    text = "812:accept len: 3.21, accept rate: 0.55\n840:accept len: 3.05, accept rate: 0.51\n"
    found = extract_metrics(text)
    assert [(m.name, m.value, m.context) for m in found] == [
        ("accept_length", 3.13, "SGLang accept len, mean of 2 lines"),
        ("accept_rate", 0.53, "SGLang accept len, mean of 2 lines")]


def test_one_line_is_read_as_it_is():
    assert _readings("accept len: 3.21\n") == [("accept_length", 3.21)]
