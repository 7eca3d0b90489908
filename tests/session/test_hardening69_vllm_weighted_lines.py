"""Several vLLM SpecDecoding lines give the run's acceptance, each line weighted by its counts.

vLLM logs one SpecDecoding line a logging interval (10 s), whatever ran in it (0.34.0
vllm/v1/spec_decode/metrics.py, SpecDecodingLogging.log). The interval a benchmark ends in drafts
a few dozen tokens where the others drafted thousands; a plain mean of the lines gave it the
weight of a full interval. vLLM's own reading of a run is its totals (0.34.0
vllm/benchmarks/serve.py: acceptance_rate = accepted / draft tokens * 100, acceptance_length = 1 +
accepted / drafts), and the diagnosis of the same server log weighs the lines by their drafts
(diagnose/serverlog._weigh_by_drafts): `analyze` read 47.9% and 2.44 where the run accepted 61.6%
and 2.85 tokens a step.
"""

from spec_debug.diagnose.serverlog import parse_server_log
from spec_debug.session.metrics import scan_metrics

# Three full intervals of K=3 drafts (2000 drafts, 6000 tokens, each) and the last one, in which
# the last request finished (10 drafts, 30 tokens, 2 accepted), as vLLM 0.34 writes them.
_LINE = ("(APIServer pid=7) INFO 12-06 10:{t} [metrics.py:101] SpecDecoding metrics: Mean acceptance length: {al}, "
         "Accepted throughput: {at} tokens/s, Drafted throughput: {dt} tokens/s, Accepted: {acc} tokens, "
         "Drafted: {dr} tokens, Per-position acceptance rate: {pos}, Avg Draft acceptance rate: {rate}%\n")
LOG = "".join(_LINE.format(**line) for line in (
    dict(t="00:10", al="2.80", at="360.00", dt="600.00", acc=3600, dr=6000, pos="0.800, 0.600, 0.400", rate="60.0"),
    dict(t="00:20", al="2.90", at="380.00", dt="600.00", acc=3800, dr=6000, pos="0.850, 0.650, 0.400", rate="63.3"),
    dict(t="00:30", al="2.85", at="370.00", dt="600.00", acc=3700, dr=6000, pos="0.820, 0.630, 0.400", rate="61.7"),
    dict(t="00:40", al="1.20", at="0.20", dt="3.00", acc=2, dr=30, pos="0.200, 0.000, 0.000", rate="6.7"),
))


def _readings(text):
    return {m.name: (m.value, m.unit, m.context) for m in scan_metrics(text)}


def test_a_short_last_interval_weighs_what_it_drafted():
    got = _readings(LOG)
    # 11102 accepted of 18030 drafted; 1 + 11102 / 6010 drafts
    assert got["accept_rate"] == (61.58, "%", "vLLM SpecDecoding stats, mean of 4 lines, weighted by their drafts")
    assert got["accept_length"] == (2.847, "tokens", "vLLM SpecDecoding stats, mean of 4 lines, weighted by their drafts")


def test_the_reading_is_the_diagnosis_of_the_same_log():
    stats = parse_server_log(LOG)
    assert round(stats.accept_length_mean, 3) == _readings(LOG)["accept_length"][0]
    assert round(100 * stats.accepted_tokens / stats.drafted_tokens, 2) == _readings(LOG)["accept_rate"][0]


def test_a_line_without_its_counts_leaves_the_plain_mean():
    # vLLM before 0.8.3 printed no counts: nothing to weigh by
    text = ("INFO 03-01 10:00:00 [metrics.py:60] SpecDecoding metrics: Mean acceptance length: 2.50, "
            "Avg Draft acceptance rate: 50.0%\n"
            "INFO 03-01 10:00:10 [metrics.py:60] SpecDecoding metrics: Mean acceptance length: 2.00, "
            "Avg Draft acceptance rate: 30.0%\n")
    got = _readings(text)
    assert got["accept_length"] == (2.25, "tokens", "vLLM SpecDecoding stats, mean of 2 lines")
    assert got["accept_rate"] == (40.0, "%", "vLLM SpecDecoding stats, mean of 2 lines")


def test_a_collapsed_interval_counts_its_drafts():
    # Nothing accepted in the second interval: AL 1.00 says nothing of its drafts; its 3000 drafted
    # tokens over K=3 positions are 1000 drafts (as the diagnosis counts them)
    text = LOG.splitlines(keepends=True)[0] + _LINE.format(
        t="00:50", al="1.00", at="0.00", dt="300.00", acc=0, dr=3000, pos="0.000, 0.000, 0.000", rate="0.0")
    got = _readings(text)
    assert got["accept_rate"] == (40.0, "%", "vLLM SpecDecoding stats, mean of 2 lines, weighted by their drafts")
    assert got["accept_length"] == (2.2, "tokens", "vLLM SpecDecoding stats, mean of 2 lines, weighted by their drafts")


def test_an_interval_that_drafted_nothing_leaves_the_weighing():
    # vLLM 0.34 logs 1 + 0 / 0 and 0 / 0 (numpy: nan) for an interval whose steps drafted nothing
    idle = _LINE.format(t="00:15", al="nan", at="0.00", dt="0.00", acc=0, dr=0, pos="nan, nan, nan", rate="nan")
    lines = LOG.splitlines(keepends=True)
    got = _readings("".join(lines[:1] + [idle] + lines[1:]))
    assert got["accept_rate"] == (61.58, "%", "vLLM SpecDecoding stats, mean of 4 lines, weighted by their drafts")
    assert got["accept_length"] == (2.847, "tokens", "vLLM SpecDecoding stats, mean of 4 lines, weighted by their drafts")
