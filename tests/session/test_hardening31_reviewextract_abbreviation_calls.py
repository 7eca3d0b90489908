"""Round 31 review: a reading's sentence runs the abbreviation pattern only behind an abbreviation.

9d91936e passed over the full stop of "vs.", "e.g." (baselines._ABBREVIATION), but ran the pattern
at every full stop of every reading's sentence: the 20 MB bench session's pattern calls grew by 6%
(1808 calls, all in baselines._sentence). A full stop behind none of the words is a sentence's end
without the pattern; "vs." still is not."""

from __future__ import annotations

from spec_debug.session import baselines


class _Counted:
    """The real pattern, its calls counted."""

    def __init__(self, pattern):
        self.pattern, self.calls = pattern, 0

    def search(self, *args):
        self.calls += 1
        return self.pattern.search(*args)


def test_full_stops_of_plain_sentences_run_no_pattern(monkeypatch):
    counted = _Counted(baselines._ABBREVIATION)
    monkeypatch.setattr(baselines, "_ABBREVIATION", counted)
    context = "Restarted the server. At bs=64 EAGLE-3 gives 1900 tok/s. Then bs=1 was tried. It looks fine."
    assert baselines.row_key(context, 1900.0) == "64"
    assert counted.calls == 0  # before: one call per full stop around the reading


def test_vs_still_joins_its_sentence(monkeypatch):
    counted = _Counted(baselines._ABBREVIATION)
    monkeypatch.setattr(baselines, "_ABBREVIATION", counted)
    context = "At bs=1 EAGLE-3 is slower than the baseline: 40 tok/s vs. 60 tok/s without speculation"
    assert baselines.row_key(context, 60.0) == "1"
    assert counted.calls >= 1
