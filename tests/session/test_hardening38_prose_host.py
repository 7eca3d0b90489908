"""A reading a person or the agent states in prose next to one of the session's hosts is that
host's, as the same reading printed by a command there is.

"620 tok/s on gpu03" in the prompt and "gpu01 now does 880 tok/s" in the agent's summary had
no host: the impact table read them as one host's throughput that "went from 620 to 880", and
SD501 compared gpu03's 70 tok/s with gpu01's 90 tok/s baseline (the last said), not with
gpu03's own 60. A prose reading that names no host of the session's commands, or several,
keeps no host: nothing is invented.
"""

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer


def _analyze(tmp_path, session: str, build):
    m = _Writer(session, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt(build.prompt)
    m.bash("ssh root@gpu01 nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-1)")
    m.bash("ssh root@gpu03 nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-3)")
    for text in build.said:
        m.say(text)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


class _Story:
    def __init__(self, prompt: str, *said: str) -> None:
        self.prompt, self.said = prompt, said


def _hosts(a, name: str) -> list[tuple[float, str | None]]:
    return [(m.value, m.host) for m in a.metrics if m.name == name]


def test_prose_readings_take_the_one_host_they_name(tmp_path):
    a = _analyze(tmp_path, "8a1b0000-0000-4000-8000-0000000038c1", _Story(
        "EAGLE-3 serving is slow: 620 tok/s on gpu03. Please check.",
        "After the relaunch gpu01 now does 880 tok/s.",
        "Both boxes reach 900 tok/s on gpu01 and gpu03 together.",
        "On the H200 box (gpu02) accept length is 3.1",
        "Accept length is 2.9 overall."))
    # the prompt's gpu03, named before any command ran there, is gpu03's too
    assert _hosts(a, "throughput") == [(620.0, "gpu03"), (880.0, "gpu01"), (900.0, None)]
    # gpu02 ran no command of the session: no host is invented
    assert _hosts(a, "accept_length") == [(3.1, None), (2.9, None)]


def test_the_host_is_the_readings_clause_or_sentence_not_the_next_sentences(tmp_path):
    a = _analyze(tmp_path, "8a1b0000-0000-4000-8000-0000000038c6", _Story(
        "Please check EAGLE-3 on our two boxes.",
        "On gpu03, throughput is 640 tok/s.",
        "gpu03: 650 tok/s, gpu01: 870 tok/s",
        "Overall throughput is 700 tok/s. The server on gpu01 looks fine."))
    assert _hosts(a, "throughput") == [(640.0, "gpu03"), (650.0, "gpu03"), (870.0, "gpu01"), (700.0, None)]


def test_impact_does_not_compare_one_hosts_prose_reading_with_anothers(tmp_path):
    a = _analyze(tmp_path, "8a1b0000-0000-4000-8000-0000000038c2", _Story(
        "EAGLE-3 serving is slow: 620 tok/s on gpu03. Please check.",
        "After the relaunch gpu01 now does 880 tok/s."))
    rows = [(r["host"], r["before"], r["after"]) for r in postmortem_view(a)["impact"]["rows"]
            if r["name"] == "throughput"]
    assert rows == [("gpu03", 620.0, 620.0), ("gpu01", 880.0, 880.0)]


def test_sd501_pairs_a_prose_reading_with_its_hosts_baseline(tmp_path):
    a = _analyze(tmp_path, "8a1b0000-0000-4000-8000-0000000038c3", _Story(
        "Please check EAGLE-3 on our two boxes.",
        "Without speculation the gpu03 baseline is 60 tok/s.",
        "Without speculation the gpu01 baseline is 90 tok/s.",
        "With EAGLE-3, gpu03 now does 70 tok/s."))
    assert _hosts(a, "baseline_throughput") == [(60.0, "gpu03"), (90.0, "gpu01")]
    assert not [f for f in a.findings if f.code == "SD501"]


def test_sd501_still_fires_against_the_readings_own_hosts_baseline(tmp_path):
    a = _analyze(tmp_path, "8a1b0000-0000-4000-8000-0000000038c4", _Story(
        "Please check EAGLE-3 on our two boxes.",
        "Without speculation the gpu03 baseline is 90 tok/s.",
        "Without speculation the gpu01 baseline is 40 tok/s.",
        "With EAGLE-3, gpu03 now does 70 tok/s."))
    found = [f for f in a.findings if f.code == "SD501"]
    assert len(found) == 1 and "70 tok/s measured vs 90 tok/s baseline" in found[0].evidence[0]
    assert found[0].host == "gpu03"


def test_a_baseline_printed_on_a_host_pairs_with_that_hosts_later_reading(tmp_path):
    """The same for readings printed by commands: gpu03's benchmark is compared with gpu03's
    baseline run, not with gpu01's that was read after it."""
    m = _Writer("8a1b0000-0000-4000-8000-0000000038c5", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("Please check EAGLE-3 on our two boxes.")
    m.bash("ssh root@gpu03 python bench.py --no-spec", "baseline throughput: 60 tok/s")
    m.bash("ssh root@gpu01 python bench.py --no-spec", "baseline throughput: 90 tok/s")
    m.bash("ssh root@gpu03 python bench.py", "throughput: 70 tok/s")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert _hosts(a, "baseline_throughput") == [(60.0, "gpu03"), (90.0, "gpu01")]
    assert _hosts(a, "throughput") == [(70.0, "gpu03")]
    assert not [f for f in a.findings if f.code == "SD501"]
