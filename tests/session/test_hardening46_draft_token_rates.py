"""vLLM's accepted and drafted token rates, as an agent words them, are no decode throughput.

vLLM's SpecDecoding line (vllm/v1/spec_decode/metrics.py) prints "Accepted throughput: 301.20
tokens/s, Drafted throughput: 501.10 tokens/s": draft tokens the target kept and proposed each
second. Quoted as the engine prints them they were no reading; in the agent's words ("accepted
throughput is 301 tok/s vs drafted 501 tok/s") they were two decode throughputs of the run."""

from spec_debug.session.metrics import extract_metrics


def _readings(text: str) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in extract_metrics(text)]


def test_the_rates_in_an_agent_s_words_are_no_throughput() -> None:
    assert _readings("The accepted throughput is 301 tok/s vs drafted 501 tok/s.") == []


def test_the_decode_throughput_beside_them_is_still_read() -> None:
    assert _readings("Decode throughput 456.7 tok/s; accepted throughput 301 tok/s.") == [("throughput", 456.7)]
