"""Numbers with units: throughput (tok/s), accuracy (%), accept length and rate.

Sources, in the order tried:
- SGLang scheduler lines ``Decode batch, #running-req: N, ..., accept len: A, accept rate:
  R, ..., gen throughput (token/s): T`` (sgl-project/sglang
  ``python/sglang/srt/managers/scheduler_metrics_mixin.py``, ``log_decode_stats``); one
  output yields the mean over its lines, so a long server log stays one reading.
- ``bench_serving`` summaries, aligned ``Key (unit): value`` lines
  (sgl-project/sglang ``python/sglang/bench_serving.py``).
- Prose: "54.8 tok/s against a 90 tok/s baseline", "74.7% validation accuracy",
  "accuracy: 12.3%", "accept length 2.1".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DECODE = re.compile(
    r"Decode batch[^\n]*?accept len: (?P<len>[\d.]+)(?:, accept rate: (?P<rate>[\d.]+))?"
    r"[^\n]*?gen throughput \(token/s\): (?P<tput>[\d.]+)")
_BENCH_LINE = re.compile(r"^(?P<key>[A-Za-z][^:\n]{2,60}?)\s*:\s+(?P<value>-?\d+(?:\.\d+)?)\s*$", re.M)
_BENCH_KEYS = {
    "output token throughput (tok/s)": ("throughput", "tok/s"),
    "total token throughput (tok/s)": ("total_throughput", "tok/s"),
    "input token throughput (tok/s)": ("input_throughput", "tok/s"),
    "request throughput (req/s)": ("request_throughput", "req/s"),
    "accept length": ("accept_length", "tokens"),
    "mean ttft (ms)": ("ttft_mean", "ms"),
    "median ttft (ms)": ("ttft_median", "ms"),
    "mean tpot (ms)": ("tpot_mean", "ms"),
    "median tpot (ms)": ("tpot_median", "ms"),
    "mean itl (ms)": ("itl_mean", "ms"),
    "median e2e latency (ms)": ("e2e_latency_median", "ms"),
}
_TOKS = re.compile(r"(?<![\w.])(?P<value>\d+(?:\.\d+)?)\s*(?:tok/s|tokens/s|token/s|tok/sec|tokens/sec|tokens per second)\b", re.I)
_BASELINE_AFTER = re.compile(r"^\s*\)?\s*(?:\(?\s*)?(?:no-spec(?:ulation)?\s+)?baseline", re.I)
_BASELINE_BEFORE = re.compile(
    r"(?:baseline|without speculation|no[- ]spec(?:ulation)?|non-speculative)"
    r"(?:\s+(?:of|is|was|at|gives|gave|throughput|decode|speed))*\s*[:=(]?\s*(?:~|about\s+)?$", re.I)
_ACC_PCT = re.compile(r"(?<![\w.])(?P<value>\d+(?:\.\d+)?)\s*%\s*(?P<label>(?:[A-Za-z-]+\s+){0,2})acc(?:uracy)?\b", re.I)
_ACC_KV = re.compile(r"\b(?P<label>(?:[A-Za-z_-]+[ _]){0,2})acc(?:uracy)?\s*[:=]\s*(?P<value>\d+(?:\.\d+)?)\s*(?P<pct>%?)", re.I)
_ACCEPT_LEN = re.compile(r"\baccept(?:ance)?[ _](?:len|length)\b\s*(?:[:=]|of|is|was)?\s*(?:~\s*)?(?P<value>\d+(?:\.\d+)?)", re.I)
_ACCEPT_RATE = re.compile(r"\baccept(?:ance)?[ _]rate\b\s*(?:[:=]|of|is|was)?\s*(?P<value>\d+(?:\.\d+)?)\s*(?P<pct>%?)", re.I)


@dataclass(slots=True)
class Metric:
    name: str
    value: float
    unit: str
    context: str


def extract_metrics(text: str, hint: str = "") -> list[Metric]:
    """Metrics in one text; ``hint`` is the command that printed it (names a standalone
    accuracy, for example)."""
    found: list[Metric] = []
    structured = False
    if "Decode batch" in text:
        structured = _decode_batches(text, found)
    if "(tok/s)" in text or "Accept length:" in text or "TTFT (ms)" in text:
        structured = _bench_serving(text, found) or structured
    if "tok" in text or "per second" in text:
        _throughput_prose(text, found)
    if "acc" in text or "Acc" in text:
        _accuracy(text, hint, found)
        if not structured:
            _accept_prose(text, found)
    # Baselines and claims first, so a sentence that states both compares them.
    found.sort(key=lambda m: m.name not in ("baseline_throughput", "validation_accuracy"))
    return found


def _decode_batches(text: str, found: list[Metric]) -> bool:
    lens, rates, tputs = [], [], []
    for m in _DECODE.finditer(text):
        lens.append(float(m.group("len")))
        tputs.append(float(m.group("tput")))
        if m.group("rate"):
            rates.append(float(m.group("rate")))
    if not tputs:
        return False
    ctx = f"SGLang Decode batch, mean of {len(tputs)} line{'s' if len(tputs) != 1 else ''}"
    found.append(Metric("throughput", round(sum(tputs) / len(tputs), 2), "tok/s", ctx))
    found.append(Metric("accept_length", round(sum(lens) / len(lens), 3), "tokens", ctx))
    if rates:
        found.append(Metric("accept_rate", round(sum(rates) / len(rates), 3), "ratio", ctx))
    return True


def _bench_serving(text: str, found: list[Metric]) -> bool:
    hit = False
    for m in _BENCH_LINE.finditer(text):
        key = m.group("key").strip().lower()
        if key in _BENCH_KEYS:
            name, unit = _BENCH_KEYS[key]
            found.append(Metric(name, float(m.group("value")), unit, f"bench_serving: {m.group('key').strip()}"))
            hit = True
    return hit


def _throughput_prose(text: str, found: list[Metric]) -> None:
    for m in _TOKS.finditer(text):
        before = text[max(0, m.start() - 40):m.start()]
        after = text[m.end():m.end() + 25]
        # "(token/s): 54.8" is a Decode batch/bench_serving line, read above.
        if before.rstrip().endswith(":") and ("throughput (" in before or "(tok/s)" in before):
            continue
        baseline = bool(_BASELINE_AFTER.match(after) or _BASELINE_BEFORE.search(before))
        name = "baseline_throughput" if baseline else "throughput"
        found.append(Metric(name, float(m.group("value")), "tok/s", _context(text, m.start(), m.end())))


def _accuracy(text: str, hint: str, found: list[Metric]) -> None:
    seen: set[int] = set()
    for pattern in (_ACC_PCT, _ACC_KV):
        for m in pattern.finditer(text):
            if m.start() in seen:
                continue
            seen.add(m.start())
            value = float(m.group("value"))
            is_pct = pattern is _ACC_PCT or bool(m.group("pct"))
            if not is_pct and value <= 1.0:
                value = round(value * 100, 3)  # acc=0.747 -> 74.7 %
            elif not is_pct and value > 100:
                continue
            window = (text[max(0, m.start() - 60):m.end()] + " " + m.group("label")).lower()
            if "standalone" in window or "standalone" in hint.lower():
                name = "standalone_accuracy"
            elif re.search(r"\bval(?:idation)?(?:\b|_)|claimed|train", window):
                name = "validation_accuracy"
            else:
                name = "accuracy"
            found.append(Metric(name, value, "%", _context(text, m.start(), m.end())))


def _accept_prose(text: str, found: list[Metric]) -> None:
    for m in _ACCEPT_LEN.finditer(text):
        found.append(Metric("accept_length", float(m.group("value")), "tokens", _context(text, m.start(), m.end())))
    for m in _ACCEPT_RATE.finditer(text):
        value = float(m.group("value"))
        unit = "%" if m.group("pct") else "ratio"
        found.append(Metric("accept_rate", value, unit, _context(text, m.start(), m.end())))


def _context(text: str, start: int, end: int) -> str:
    a = max(text.rfind("\n", 0, start) + 1, start - 60)
    nl = text.find("\n", end)
    b = min(nl if nl >= 0 else len(text), end + 60)
    return " ".join(text[a:b].split())[:200]
