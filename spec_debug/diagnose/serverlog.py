"""Read acceptance and throughput from SGLang/vLLM server logs and serving-benchmark output.

Formats (quoted in tests from public issues):
- SGLang scheduler: `Decode batch. #running-req: 1, #token: 108, ..., accept len: 2.17,
  accept rate: 0.54, cuda graph: True, gen throughput (token/s): 178.86, ...`
  (https://github.com/sgl-project/sglang/issues/11948).
- vLLM: `SpecDecoding metrics: ... Mean acceptance length: 5.44, ... Accepted: 262 tokens,
  Drafted: 295 tokens, Per-position acceptance rate: 0.983, 0.949, ...`
  (https://github.com/vllm-project/vllm/pull/24127) and `Avg generation throughput: X tokens/s`;
  the V0 engine's `Speculative metrics: ... Number of emitted tokens: N.` (lifetime totals,
  https://github.com/vllm-project/vllm/issues/9539).
- `bench_serving` / `vllm bench serve` summaries: `Output token throughput (tok/s): N`,
  `Accept length: N` / `Acceptance length: N`, vLLM's `Per-position acceptance (%):` block and
  draft counts; SGLang's bench_one_batch_server runs.
- The startup line with the settings the server runs with (`server_args=...`,
  `speculative_config=SpeculativeConfig(...)`): `ServerLogStats.served`.
Pure: text in, numbers out.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any

_NUM = r"([-+]?\d+(?:\.\d+)?)"
_SGLANG_DECODE = re.compile(r"Decode batch[.,]?\s")
_SGLANG_FIELDS = {
    "running_req": re.compile(r"#running-req:\s*" + _NUM),
    "accept_len": re.compile(r"accept len:\s*" + _NUM),
    "accept_rate": re.compile(r"accept rate:\s*" + _NUM),
    "gen_tok_s": re.compile(r"gen throughput \(token/s\):\s*" + _NUM),
}
_VLLM_SPEC = re.compile(r"SpecDecoding metrics:")
_VLLM_FIELDS = {
    "mean_al": re.compile(r"Mean acceptance length:\s*" + _NUM),
    "accepted": re.compile(r"Accepted:\s*(\d+) tokens"),
    "drafted": re.compile(r"Drafted:\s*(\d+) tokens"),
    "draft_rate_pct": re.compile(r"Draft acceptance rate:\s*" + _NUM + "%"),
}
# vLLM V0 (vllm/engine/metrics.py, <= 0.9 with VLLM_USE_V1=0) logs lifetime totals:
# `Speculative metrics: Draft acceptance rate: 0.642, System efficiency: 0.598, Number of
# speculative tokens: 3, Number of accepted tokens: 8547, Number of draft tokens: 13311, Number
# of emitted tokens: 10616.` (https://github.com/vllm-project/vllm/issues/9539). Each round
# scores K draft tokens and emits the accepted ones plus the bonus token, so the accept length
# is emitted / (draft / K) (= system efficiency x (K + 1)).
_VLLM_V0_SPEC = re.compile(r"Speculative metrics:.*?Number of speculative tokens:\s*(\d+),\s*"
                           r"Number of accepted tokens:\s*(\d+),\s*Number of draft tokens:\s*(\d+),\s*"
                           r"Number of emitted tokens:\s*(\d+)")
# vLLM 0.8.2's first V1 line (vllm/v1/spec_decode/metrics.py before PR #15902 renamed it
# `SpecDecoding metrics: Draft acceptance rate: 100.0%, Accepted: 66 tokens, Drafted: 66 tokens`,
# https://github.com/vllm-project/vllm/pull/15902): `Speculative metrics: Draft acceptance rate:
# 1.000, Number of accepted tokens: 66, Number of draft tokens: 66, `. Per interval, as V1's are;
# V0's line (above) also names the speculative and emitted tokens.
_VLLM_V1_FIRST = re.compile(r"Speculative metrics:.*?Number of accepted tokens:\s*(\d+),\s*"
                            r"Number of draft tokens:\s*(\d+)")
_VLLM_PER_POS = re.compile(r"Per-position acceptance rate:\s*([\d.,\s]+)")
_VLLM_GEN = re.compile(r"Avg generation throughput:\s*" + _NUM + r"\s*tokens/s")
# Data-parallel ranks log their own numbers. SGLang tags each scheduler's lines with
# " DP{rank}" inside the `[time DP0 TP0 EP0]` prefix (srt/managers/scheduler.py
# `get_print_prefix`, run_scheduler_process), one line per DP rank from its attn-TP rank 0;
# vLLM prefixes each engine's stats with `Engine 000:` (vllm/v1/metrics/loggers.py).
_SGLANG_DP = re.compile(r"\[[^\[\]]*\bDP(\d+)\b[^\[\]]*\]")
_VLLM_ENGINE = re.compile(r"Engine (\d+):")
_VLLM_RUNNING = re.compile(r"Running:\s*(\d+) reqs")
_BENCH_FIELDS = {
    "output_tok_s": re.compile(r"^\s*Output token throughput \(tok/s\):\s*" + _NUM, re.M),
    "total_tok_s": re.compile(r"^\s*Total token throughput \(tok/s\):\s*" + _NUM, re.M),
    "request_throughput": re.compile(r"^\s*Request throughput \(req/s\):\s*" + _NUM, re.M),
    "successful_requests": re.compile(r"^\s*Successful requests:\s*" + _NUM, re.M),
    "max_concurrency": re.compile(r"^\s*Max(?:imum)? request concurrency:\s*" + _NUM, re.M),
    "mean_tpot_ms": re.compile(r"^\s*Mean TPOT \(ms\):\s*" + _NUM, re.M),
    # also vLLM's offline benchmark examples/offline_inference/spec_decode.py (the script vLLM's
    # speculative-decoding PRs measure with, e.g. vllm-project/vllm PR #24322, #24243), which ends
    # with `mean acceptance length: 2.47` (lower case; `Mean ...` in copies of it)
    "accept_length": re.compile(r"^\s*(?:mean\s+)?accept(?:ance)?\s+length:\s*" + _NUM, re.M | re.I),
    "acceptance_rate_pct": re.compile(r"^\s*Acceptance rate \(%\):\s*" + _NUM, re.M),
}

# SGLang's per-request `Finish: obj=GenerateReqInput(...), out={'meta_info': {..., 'spec_verify_ct':
# 40, 'spec_accept_rate': 0.58, 'spec_accept_length': 2.75, ...}}` (--log-requests; PR #11441,
# https://github.com/sgl-project/sglang/pull/11441): spec_accept_length = completion_tokens /
# spec_verify_ct (srt/managers/tokenizer_manager.py `_calculate_spec_decoding_metrics`), so the
# verify passes weigh it; a request never verified logs the default 0.
_SGLANG_FINISH = re.compile(r"\bFinish: ")
_SGLANG_REQUEST_AL = re.compile(r"'spec_accept_length':\s*" + _NUM)
_SGLANG_VERIFY_CT = re.compile(r"'spec_verify_ct':\s*(\d+)")

# vllm-project/vllm examples/offline_inference/spec_decode.py after its accept length:
# `num_drafts: 43221`, `num_draft_tokens: 259326`, `num_accepted_tokens: 63669`, then
# `acceptance at token 0: 0.58` per position (accepted at that position / drafts: the joint rate
# vLLM's metric lines give; a copy in PR #24243 prints `Acceptance rate at token 0: 0.58`).
_SPEC_DECODE_COUNTS = {key: re.compile(r"^\s*" + key + r":\s*(\d+)\s*$", re.M)
                       for key in ("num_drafts", "num_draft_tokens", "num_accepted_tokens")}
_SPEC_DECODE_POSITION = re.compile(r"^\s*acceptance(?: rate)? at token (\d+):\s*" + _NUM, re.M | re.I)


def _last_counts(stats: "ServerLogStats", accepted: re.Pattern[str], drafted: re.Pattern[str], text: str) -> None:
    """The accepted and drafted token counts of a benchmark's last printout, where no metric line gave them."""
    accepted_found, drafted_found = accepted.findall(text), drafted.findall(text)
    if stats.accepted_tokens is None and accepted_found and drafted_found:
        stats.accepted_tokens, stats.drafted_tokens = int(accepted_found[-1]), int(drafted_found[-1])


def _offline_spec_decode(stats: "ServerLogStats", text: str) -> None:
    """The counts and per-position rates of a spec_decode.py output, where no metric line gave them."""
    _last_counts(stats, _SPEC_DECODE_COUNTS["num_accepted_tokens"], _SPEC_DECODE_COUNTS["num_draft_tokens"], text)
    positions = _SPEC_DECODE_POSITION.findall(text)
    if stats.per_position_acceptance is None and positions:
        # the last printout: positions restart at 0 for each run in the file
        last: dict[int, float] = {}
        for index, rate in positions:
            if int(index) == 0:
                last = {}
            last[int(index)] = float(rate)
        stats.per_position_acceptance = [last[i] for i in sorted(last)]


# `vllm bench serve`'s "Speculative Decoding" section (vllm-project/vllm vllm/benchmarks/serve.py
# `benchmark`: the deltas of the server's /metrics counters over the run) prints, after
# `Acceptance length:` (read as accept_length above), `Drafts: N`, `Draft tokens: N`, `Accepted
# tokens: N` (the last two read), then `Per-position acceptance (%):` and `  Position 0: 83.42` per position (accepted
# at that position / drafts x 100: the joint rate vLLM's metric lines give, here in percent).
_BENCH_SERVE_ACCEPTED = re.compile(r"^\s*Accepted tokens:\s*(\d+)\s*$", re.M)
_BENCH_SERVE_DRAFTED = re.compile(r"^\s*Draft tokens:\s*(\d+)\s*$", re.M)
_BENCH_SERVE_POSITIONS = re.compile(r"^\s*Per-position acceptance \(%\):\s*\n((?:[ \t]*Position \d+:[ \t]*"
                                    + _NUM + r"[ \t]*(?:\n|$))+)", re.M)
_BENCH_SERVE_POSITION = re.compile(r"Position (\d+):\s*" + _NUM)


def _bench_serve_spec_decode(stats: "ServerLogStats", text: str) -> None:
    """The counts and per-position rates of a `vllm bench serve` summary (its last one), where no
    metric line gave them."""
    _last_counts(stats, _BENCH_SERVE_ACCEPTED, _BENCH_SERVE_DRAFTED, text)
    blocks = _BENCH_SERVE_POSITIONS.findall(text)
    if stats.per_position_acceptance is None and blocks:
        rates = dict((int(i), float(pct) / 100) for i, pct in _BENCH_SERVE_POSITION.findall(blocks[-1][0]))
        stats.per_position_acceptance = [round(rates[i], 4) for i in sorted(rates)]


# sgl-project/sglang benchmark/mtbench/bench_sglang_eagle.py (the benchmark the SGLang EAGLE
# docs and PR #4247 quote) prints one summary line, its numbers not at the line start:
# `#questions: 80, Throughput: 378.57 token/s, Acceptance length: 5.39`.
_MTBENCH = re.compile(r"#questions:\s*\d+,\s*Throughput:\s*" + _NUM + r"\s*token/s"
                      r"(?:,\s*Acceptance length:\s*" + _NUM + ")?")


# sgl-project/sglang python/sglang/bench_one_batch_server.py (sglang/benchmark/one_batch_server.py
# from 0.5.2x), the one-batch benchmark of SGLang's speculative-decoding PRs, prints per run
# `batch size: 1`, `output throughput: 208.57 tok/s` (the decode rate of that batch) and, in
# newer releases, `acc_length: 3.45`; older ones give the accept length only in the markdown
# table that ends the run (`| batch size | ... | output throughput (tok/s) | acc length | ...`).
_ONE_BATCH = {"output_tok_s": re.compile(r"^output throughput:\s*" + _NUM + r"\s*tok/s", re.M),
              "accept_length": re.compile(r"^acc_length:\s*" + _NUM, re.M),
              "batch_size": re.compile(r"^batch size:\s*(\d+)\s*$", re.M)}


def _one_batch_server(text: str) -> dict[str, float]:
    """The last run of a bench_one_batch_server output (lines first, else its table)."""
    found: dict[str, float] = {}
    for key, rx in _ONE_BATCH.items():
        values = rx.findall(text)
        if values:
            found[key] = float(values[-1])
    columns: list[str] | None = None
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else None
        if cells is None:
            columns = None
        elif "acc length" in cells and "output throughput (tok/s)" in cells:
            columns = cells
        elif columns is not None and len(cells) == len(columns) and re.fullmatch(r"\d+", cells[0] or ""):
            row = dict(zip(columns, cells))
            for key, column in (("output_tok_s", "output throughput (tok/s)"), ("accept_length", "acc length"),
                                ("batch_size", "batch size")):
                if re.fullmatch(r"\d+(\.\d+)?", row.get(column, "")):
                    found.setdefault(key, float(row[column]))
    return found


@dataclass
class ServerLogStats:
    engine: str | None = None
    decode_lines: int = 0
    """SGLang `Decode batch` lines (or vLLM throughput lines) that carried numbers."""
    accept_length_mean: float | None = None
    accept_length_min: float | None = None
    accept_length_max: float | None = None
    accept_rate_mean: float | None = None
    gen_tok_s_mean: float | None = None
    gen_tok_s_median: float | None = None
    running_req_mean: float | None = None
    data_parallel_ranks: int = 1
    """Ranks that logged their own throughput; the gen_tok_s_* and running_req_mean numbers
    are summed over them (each rank reports only its own share)."""
    spec_metric_lines: int = 0
    per_position_acceptance: list[float] | None = None
    """vLLM: P(at least i+1 drafts accepted), weighted by drafts over all metric lines."""
    accepted_tokens: int | None = None
    drafted_tokens: int | None = None
    finished_requests: int = 0
    """SGLang `Finish:` lines (--log-requests) that carried a request's spec_accept_length."""
    request_accept_length_mean: float | None = None
    """Their accept length over all their verify passes; the accept length of the log when it
    has no `Decode batch` accept len."""
    bench: dict[str, float] = field(default_factory=dict)
    served: dict[str, Any] | None = None
    """The speculative settings the server logged at startup, after its own rules (SGLang's
    auto-choose and topk-1 rewrite, vLLM's defaults): algorithm, num_steps, topk,
    num_draft_tokens, draft_model. The startup of the run the numbers are read from."""
    server_starts: int = 0
    """Startup lines in the log: more than one when it was appended to across restarts."""
    earlier_runs_skipped: int = 0
    """Runs before the one read that also logged numbers (another server's, not averaged in)."""
    negative_gen_tok_s_lines: int = 0
    """Decode/throughput lines whose gen throughput is negative: no decode rate is (a clock
    step between two log intervals, a corrupted line); left out of gen_tok_s_*."""
    negative_gen_tok_s: list[float] = field(default_factory=list)
    """The first few of those values, to quote."""

    @property
    def measured_tok_s(self) -> float | None:
        """A benchmark summary wins (it is the end-to-end number); else the median decode
        throughput of the log (the median ignores the warm-up line that logs ~0 tok/s)."""
        return self.bench.get("output_tok_s", self.gen_tok_s_median)

    @property
    def accept_length(self) -> float | None:
        return self.bench.get("accept_length", self.accept_length_mean)

    def to_facts(self) -> dict[str, Any]:
        facts = asdict(self)
        facts["measured_tok_s"] = self.measured_tok_s
        facts["accept_length"] = self.accept_length
        return facts


def _negative_rate(stats: ServerLogStats, value: float) -> None:
    """Count a negative gen throughput (left out: a median of -3.0 tok/s reached SD501 as a
    server at -0.03x of its baseline) and keep the first few to quote."""
    stats.negative_gen_tok_s_lines += 1
    if len(stats.negative_gen_tok_s) < 3:
        stats.negative_gen_tok_s.append(value)


def _weighted_mean(pairs: list[tuple[float, float]]) -> float | None:
    if not pairs:
        return None
    return round(sum(v * w for v, w in pairs) / sum(w for _, w in pairs), 4)


def _is_startup(line: str) -> bool:
    """A server's startup line (see `served_settings`): SGLang's `server_args=...`, vLLM's engine
    config with `speculative_config=...` (also `=None` for a server without speculation)."""
    return "server_args=" in line or "speculative_config=" in line


# Where a log record starts: vLLM's stats line (its `Engine NNN:` tag kept), its SpecDecoding
# line, SGLang's Decode batch line (its `[time DP TP]` tag kept).
_RECORD_START = re.compile(r"(?:Engine \d+:\s*)?Avg prompt throughput:|SpecDecoding metrics:"
                           r"|(?:\[[^\[\]\n]*\]\s*)?Decode batch[.,]?\s")
# A field of a Decode batch line (`accept len: 3.82,`, `gen throughput (token/s): ...`, `#queue-req: 0`).
_DECODE_FIELD = re.compile(r"\s*(#?[a-z][\w .()/-]*):\s*[-+\d.]")


def _log_records(text: str) -> list[str]:
    """The log's records, one per line. A log copied from a rendered page (an issue pasted
    without a code block, a dashboard) runs its records together on one line: vLLM's stats and
    SpecDecoding lines became one ("Engine 000: Avg prompt throughput: 108.0 tokens/s, ...
    Prefix cache hit rate: 0.0% SpecDecoding metrics: Mean acceptance length: 2.25, ..."), and
    the stats line was read as a SpecDecoding one only (no throughput). A Decode batch line
    wrapped for width (its `accept len:` on the next line) is joined back."""
    records: list[str] = []
    for line in text.splitlines():
        starts = [m.start() for m in _RECORD_START.finditer(line)]
        if (records and records[-1].rstrip().endswith(",") and _SGLANG_DECODE.search(records[-1])
                and not starts and _DECODE_FIELD.match(line)):
            records[-1] = records[-1].rstrip() + " " + line.strip()
            continue
        if len(starts) < 2:
            records.append(line)
            continue
        cuts = [0, *starts[1:], len(line)]
        records += [line[a:b] for a, b in zip(cuts, cuts[1:])]
    return records


def parse_server_log(text: str) -> ServerLogStats:
    """Averages and counts from an SGLang or vLLM log, plus any benchmark summary in it.

    A log appended to across restarts (`nohup ... >> server.log`, `journalctl -u vllm`, a
    container's log after `docker restart`) holds the numbers of several servers, often with
    other speculative settings (the on-call engineer restarts with another K): averaged together
    they describe no server. Only the last run that logged numbers is read: the lines after the
    last startup line that has any after it (`served` is that startup's settings)."""
    lines = _log_records(text)
    starts = [i for i, line in enumerate(lines) if _is_startup(line)]
    bounds = [0, *starts, len(lines)]
    runs = [(bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1) if bounds[i + 1] > bounds[i]]
    chosen: ServerLogStats | None = None
    skipped = 0
    for begin, end in reversed(runs):
        stats = _parse_run("\n".join(lines[begin:end]))
        if chosen is None:
            if stats.decode_lines or stats.spec_metric_lines or stats.finished_requests or stats.bench:
                chosen = stats
        elif stats.decode_lines or stats.spec_metric_lines or stats.finished_requests:
            skipped += 1
    if chosen is None:
        chosen = _parse_run("\n".join(lines))
    chosen.server_starts = len(starts)
    chosen.earlier_runs_skipped = skipped
    return chosen


def _parse_run(text: str) -> ServerLogStats:
    """`parse_server_log` of one server's run."""
    stats = ServerLogStats()
    # SGLang (value, weight): each Decode batch line averages its interval's rounds, one per
    # running request per step (scheduler_metrics_mixin.py `log_decode_stats`: accept len =
    # accepted / forward_ct, forward_ct += batch size), so a line counts for its #running-req
    sg: dict[str, list[tuple[float, float]]] = {k: [] for k in ("accept_len", "accept_rate")}
    # per data-parallel rank (None: an untagged line)
    gen_by_rank: dict[str | None, list[float]] = {}
    running_by_rank: dict[str | None, list[float]] = {}
    sglang_gen = False
    # vLLM SpecDecoding lines: (AL, accepted, drafted, per-position rates)
    vllm_lines: list[tuple[float | None, int | None, int | None, list[float] | None]] = []
    accepted_total = drafted_total = 0
    saw_counts = False
    v0_totals: tuple[int, int, int, int] | None = None  # the last line: counts are lifetime totals
    requests: list[tuple[float, float]] = []  # SGLang Finish lines: (accept length, verify passes)
    for line in text.splitlines():
        if _SGLANG_FINISH.search(line) and (request_al := _SGLANG_REQUEST_AL.search(line)) is not None:
            stats.engine = stats.engine or "sglang"
            verify = _SGLANG_VERIFY_CT.search(line)
            passes = float(verify.group(1)) if verify else 1.0
            if passes > 0 and float(request_al.group(1)) > 0:
                requests.append((float(request_al.group(1)), passes))
        elif _SGLANG_DECODE.search(line):
            stats.engine = stats.engine or "sglang"
            dp = _SGLANG_DP.search(line)
            rank = dp.group(1) if dp else None
            found = False
            running = _SGLANG_FIELDS["running_req"].search(line)
            weight = float(running.group(1)) if running and float(running.group(1)) > 0 else 1.0
            for key, rx in _SGLANG_FIELDS.items():
                m = rx.search(line)
                if not m:
                    continue
                found = True
                value = float(m.group(1))
                if key == "gen_tok_s":
                    sglang_gen = True
                    if value < 0:
                        _negative_rate(stats, value)
                        continue
                    gen_by_rank.setdefault(rank, []).append(value)
                elif key == "running_req":
                    running_by_rank.setdefault(rank, []).append(value)
                else:
                    sg[key].append((value, weight))
            stats.decode_lines += int(found)
        elif _VLLM_SPEC.search(line):
            stats.engine = stats.engine or "vllm"
            stats.spec_metric_lines += 1
            vals = {k: rx.search(line) for k, rx in _VLLM_FIELDS.items()}
            al = float(vals["mean_al"].group(1)) if vals["mean_al"] else None
            accepted = int(vals["accepted"].group(1)) if vals["accepted"] else None
            if accepted is not None and vals["drafted"]:
                accepted_total += accepted
                drafted_total += int(vals["drafted"].group(1))
                saw_counts = True
            drafted = int(vals["drafted"].group(1)) if vals["drafted"] else None
            pp = _VLLM_PER_POS.search(line)
            rates = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", pp.group(1))] if pp else None
            vllm_lines.append((al, accepted, drafted, rates))
        elif (v0 := _VLLM_V0_SPEC.search(line)) is not None:
            stats.engine = stats.engine or "vllm"
            stats.spec_metric_lines += 1
            v0_totals = tuple(int(x) for x in v0.groups())  # type: ignore[assignment]
        elif (first := _VLLM_V1_FIRST.search(line)) is not None:
            stats.engine = stats.engine or "vllm"
            stats.spec_metric_lines += 1
            accepted, drafted = int(first.group(1)), int(first.group(2))
            accepted_total += accepted
            drafted_total += drafted
            saw_counts = True
            vllm_lines.append((None, accepted, drafted, None))
        else:
            g = _VLLM_GEN.search(line)
            if g and not sglang_gen:
                stats.engine = stats.engine or "vllm"
                engine = _VLLM_ENGINE.search(line)
                rank = engine.group(1) if engine else None
                stats.decode_lines += 1
                # the idle lines log 0 tokens/s and 0 reqs: they would drag the median and the
                # running mean down (SGLang logs decode lines only while decoding), and a mean of
                # requests at once below 1.5 lets a summed rate meet a one-stream TPOT baseline
                if float(g.group(1)) < 0:
                    _negative_rate(stats, float(g.group(1)))
                elif float(g.group(1)) > 0:
                    gen_by_rank.setdefault(rank, []).append(float(g.group(1)))
                    r = _VLLM_RUNNING.search(line)
                    if r:
                        running_by_rank.setdefault(rank, []).append(float(r.group(1)))
    if sg["accept_len"]:
        stats.accept_length_mean = _weighted_mean(sg["accept_len"])
        stats.accept_length_min = min(v for v, _ in sg["accept_len"])
        stats.accept_length_max = max(v for v, _ in sg["accept_len"])
    stats.accept_rate_mean = _weighted_mean(sg["accept_rate"])
    gen_by_rank = {rank: values for rank, values in gen_by_rank.items() if values}
    if gen_by_rank:
        stats.data_parallel_ranks = len(gen_by_rank)
        stats.gen_tok_s_mean = round(sum(statistics.fmean(v) for v in gen_by_rank.values()), 4)
        stats.gen_tok_s_median = round(sum(statistics.median(v) for v in gen_by_rank.values()), 4)
    if running_by_rank:
        stats.running_req_mean = round(sum(statistics.fmean(v) for v in running_by_rank.values()), 4)
    stats.served = served_settings(text)
    spec_tokens = stats.served.get("num_steps") if stats.served and stats.served.get("engine") == "vllm" else None
    al_weighted, per_pos_weighted = _weigh_by_drafts(vllm_lines, spec_tokens)
    if al_weighted:
        total = sum(w for _, w in al_weighted)
        stats.accept_length_mean = round(sum(a * w for a, w in al_weighted) / total, 4)
        stats.accept_length_min = min(a for a, _ in al_weighted)
        stats.accept_length_max = max(a for a, _ in al_weighted)
    if per_pos_weighted:
        width = max(len(r) for r, _ in per_pos_weighted)
        rates = []
        for i in range(width):
            pairs = [(r[i], w) for r, w in per_pos_weighted if i < len(r)]
            rates.append(round(sum(v * w for v, w in pairs) / sum(w for _, w in pairs), 4))
        stats.per_position_acceptance = rates
    if saw_counts:
        stats.accepted_tokens, stats.drafted_tokens = accepted_total, drafted_total
    if requests:
        stats.finished_requests = len(requests)
        stats.request_accept_length_mean = _weighted_mean(requests)
        if stats.accept_length_mean is None:
            stats.accept_length_mean = stats.request_accept_length_mean
            stats.accept_length_min = min(v for v, _ in requests)
            stats.accept_length_max = max(v for v, _ in requests)
    if v0_totals is not None and not al_weighted:
        k, accepted, drafted, emitted = v0_totals
        if k > 0 and drafted > 0:
            stats.accept_length_mean = round(emitted / (drafted / k), 4)
            stats.accepted_tokens, stats.drafted_tokens = accepted, drafted
    for key, rx in _BENCH_FIELDS.items():
        found = rx.findall(text)
        if found:
            stats.bench[key] = float(found[-1])  # the last summary in the file is the newest
    mtbench = _MTBENCH.findall(text)
    if mtbench and "output_tok_s" not in stats.bench:
        throughput, accept_length = mtbench[-1]
        stats.bench["output_tok_s"] = float(throughput)
        if accept_length and "accept_length" not in stats.bench:
            stats.bench["accept_length"] = float(accept_length)
    for key, value in _one_batch_server(text).items():
        stats.bench.setdefault(key, value)
    _offline_spec_decode(stats, text)
    _bench_serve_spec_decode(stats, text)
    return stats


def _weigh_by_drafts(lines: list[tuple[float | None, int | None, int | None, list[float] | None]],
                     spec_tokens: int | None = None) -> tuple[list[tuple[float, float]], list[tuple[list[float], float]]]:
    """Each vLLM SpecDecoding line's AL and per-position rates, weighted by the drafts (rounds)
    it covers, the right weight for averaging them.

    vllm/v1/spec_decode/metrics.py logs AL = 1 + accepted / num_drafts, so a line that accepted
    something covered accepted / (AL - 1) drafts. A line that accepted nothing (`Mean acceptance
    length: 1.00, Accepted: 0 tokens`: the collapse being diagnosed) says nothing that way; its
    drafts are drafted / K, K being the number of per-position rates (each draft proposes K
    tokens), or the tokens per draft of the lines that did accept. Weighing it as one draft let a
    collapsed interval vanish next to a good one, and the mean AL read as if nothing collapsed.

    vLLM 0.8.x's lines give no AL (`Draft acceptance rate: 69.2%, Accepted: 187 tokens, Drafted:
    270 tokens`; PR #16665 added num_drafts later): with K (`spec_tokens`, num_spec_tokens of the
    log's startup line) their drafts are drafted / K, as vLLM itself counted them then (PR #15151,
    get_max_num_emitted_tokens: "Since the batch size can be variable, we divide by k"), and their
    AL is 1 + accepted / drafts. Without K they give none: a guessed K would make the AL up."""
    drafts: list[float | None] = []
    per_draft: list[float] = []  # drafted tokens per draft, where both are known
    for al, accepted, drafted, _rates in lines:
        count = accepted / (al - 1) if (al and accepted and al > 1) else None
        drafts.append(count)
        if count and drafted:
            per_draft.append(drafted / count)
    usual_k = round(statistics.median(per_draft)) if per_draft else None
    al_weighted: list[tuple[float, float]] = []
    per_pos_weighted: list[tuple[list[float], float]] = []
    for (al, accepted, drafted, rates), count in zip(lines, drafts):
        k = len(rates) if rates else usual_k or spec_tokens
        if al is None and accepted is not None and drafted and spec_tokens:
            count = drafted / spec_tokens
            al = round(1 + accepted / count, 4)
        if count is None:
            count = drafted / k if (drafted and k) else 1.0
        if al is not None:
            al_weighted.append((al, count))
        if rates:
            per_pos_weighted.append((rates, count))
    return al_weighted, per_pos_weighted


def accept_length_from_counts(accepted: int, drafted: int, spec_tokens: int) -> float | None:
    """The accept length of vLLM 0.8.x count-only lines (`Accepted: N tokens, Drafted: M
    tokens`) with K (num_speculative_tokens) known from elsewhere: the audited launch command,
    when the log excerpt (a `tail` of a long-running server) lacks the startup line that says K.

    Each line's drafts are drafted / K (PR #15151), and its AL is 1 + accepted / drafts; weighing
    the lines by their drafts, as :func:`_weigh_by_drafts` does, gives the same mean as the totals:
    sum(AL_i * d_i) / sum(d_i) = 1 + sum(accepted) / (sum(drafted) / K)."""
    if spec_tokens <= 0 or drafted <= 0:
        return None
    return round(1 + accepted / (drafted / spec_tokens), 4)


# The startup line that prints the settings the server runs with, after its own rules:
# - SGLang logs `server_args=ServerArgs(..., speculative_algorithm='EAGLE3', ...,
#   speculative_num_steps=3, speculative_eagle_topk=1, speculative_num_draft_tokens=4, ...)`
#   once ServerArgs.__post_init__ has auto-chosen and rewritten them (srt/entrypoints/
#   http_server.py and engine.py `logger.info(f"{server_args=}")` in the 0.4.6 .. 0.5.3 wheels),
#   and from the arg_groups releases a dict: `server_args={'speculative_num_steps': 3, ...}`
#   (engine.py `_server_args_for_logging`, 0.5.23);
# - vLLM logs `Initializing a V1 LLM engine (v0.10.1) with config: ..., speculative_config=
#   SpeculativeConfig(method='eagle3', model='...', num_spec_tokens=3), ...`
#   (vllm/config/speculative.py `SpeculativeConfig.__repr__`).
_SGLANG_SERVED = {key: re.compile(r"(?<![\w])'?" + name + r"'?(?:=|:\s*)(?:'([^']*)'|(None|-?\d+))")
                  for key, name in (("algorithm", "speculative_algorithm"),
                                    ("draft_model", "speculative_draft_model_path"),
                                    ("num_steps", "speculative_num_steps"),
                                    ("topk", "speculative_eagle_topk"),
                                    ("num_draft_tokens", "speculative_num_draft_tokens"))}
_VLLM_SERVED = re.compile(r"speculative_config=SpeculativeConfig\(method='?([\w\[\]]+)'?, model='?([^',)]*)'?, "
                          r"num_spec_tokens=(\d+)\)")


def served_settings(text: str) -> dict[str, Any] | None:
    """The last startup's speculative settings in a server log (see above), or None."""
    served: dict[str, Any] | None = None
    for line in text.splitlines():
        if "server_args=" in line and "speculative_" in line:
            found: dict[str, Any] = {"engine": "sglang"}
            for key, rx in _SGLANG_SERVED.items():
                m = rx.search(line)
                if m:
                    value = m.group(1) if m.group(1) is not None else m.group(2)
                    found[key] = (None if value == "None" else int(value)
                                  if key not in ("algorithm", "draft_model") else value)
            served = found if found.get("algorithm") else None
        elif (m := _VLLM_SERVED.search(line)) is not None:
            k = int(m.group(3))
            draft = m.group(2) if m.group(2) not in ("", "None") else None  # ngram/suffix: no model
            served = {"engine": "vllm", "algorithm": m.group(1).upper(), "draft_model": draft,
                      "num_steps": k, "topk": 1, "num_draft_tokens": k + 1}
        elif "speculative_config=None" in line:
            served = None
    return served
