"""Near misses of the Decode batch log gates in scan_metrics: a log whose every "acc" is one of its
readings skips the per-position scan; a log with a per-position line beside it still reads it."""

from spec_debug.session.metrics import scan_metrics

LOG = "\n".join(
    f"[2026-03-02 10:0{i}:00 TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, "
    f"accept len: 2.{i}0, accept rate: 0.{i + 4}0, cuda graph: True, gen throughput (token/s): 9{i}.00, #queue-req: 0"
    for i in range(3))


def _read(text, prose=False):
    return [(m.name, m.value) for m in scan_metrics(text, prose)]


def test_log_alone_reads_its_means():
    assert _read(LOG) == [("throughput", 91.0), ("accept_length", 2.1), ("accept_rate", 0.5)]


def test_per_position_list_beside_a_log_is_still_cut_and_its_overall_read():
    said = "Per-position acceptance rates are 0.82, 0.61, 0.40, so the overall rate is 61%"
    # the list's first rate is position 0's, no overall rate; the overall one after it is read
    assert _read(said + "\n" + LOG, True) == [("throughput", 91.0), ("accept_length", 2.1), ("accept_rate", 0.5),
                                              ("accept_rate", 61.0)]
    assert _read(LOG + "\n" + said, True)[-1] == ("accept_rate", 61.0)


def test_per_position_list_beside_a_log_gives_no_position_rate():
    for said in ("Per-position acceptance rate: 0.812, 0.605, 0.433", "per-position acceptance rates are 81%, 61%"):
        assert _read(LOG + "\n" + said) == _read(LOG)
        assert _read(said + "\n" + LOG, True) == _read(LOG, True)


GREP_TWO = (
    "base.log:[2026-01-10 08:15:03 TP0] Decode batch, #running-req: 1, #token: 90, token usage: 0.01, cuda graph: True, "
    "gen throughput (token/s): 90.00, #queue-req: 0\n"
    "eagle.log:[2026-01-10 08:15:03 TP0] Decode batch, #running-req: 1, #token: 90, token usage: 0.01, accept len: 2.50, "
    "accept rate: 0.60, cuda graph: True, gen throughput (token/s): 140.00, #queue-req: 0\n")


def test_grep_over_two_files_named_without_a_slash_is_still_split():
    # the "/" gate before file_sections: the file names have none, the readings' "(token/s)" has
    found = scan_metrics(GREP_TWO)
    assert [(m.name, m.value, m.context.split(":")[0]) for m in found] == [
        ("baseline_throughput", 90.0, "base.log"), ("throughput", 140.0, "eagle.log"),
        ("accept_length", 2.5, "eagle.log"), ("accept_rate", 0.6, "eagle.log")]


def test_per_position_list_alone_is_still_cut_and_read():
    # the "c" gate: every per-position line has one
    assert _read("Per-position acceptance rate: 0.812, 0.605, 0.433") == []
    assert _read("per-position acceptance rates are 0.82, 0.61, 0.40, so the overall rate is 61%", True) == [
        ("accept_rate", 61.0)]


def test_listing_of_files_reads_nothing():
    listing = "\n".join(f"-rw-r--r-- 1 root root {1000 + i} Mar  1 12:00 sample_{i:05d}.pt" for i in range(20))
    assert _read(listing) == []
