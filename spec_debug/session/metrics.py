"""Numbers with units: throughput (tok/s), accuracy (%), accept length and rate.

Sources, in the order tried:
- SGLang scheduler lines ``Decode batch, #running-req: N, ..., accept len: A, accept rate:
  R, ..., gen throughput (token/s): T`` (sgl-project/sglang
  ``python/sglang/srt/managers/scheduler_metrics_mixin.py``, ``log_decode_stats``); one
  output yields the mean over its lines, so a long server log stays one reading.
- vLLM engine logs: ``Avg prompt throughput: P tokens/s, Avg generation throughput: G
  tokens/s, ...`` (vllm-project/vllm ``vllm/v1/metrics/loggers.py``, LoggingStatLogger) and
  ``SpecDecoding metrics: Mean acceptance length: L, Accepted throughput: A tokens/s, Drafted
  throughput: D tokens/s, ..., Per-position acceptance rate: r1, r2, ..., Avg Draft
  acceptance rate: R%`` (``vllm/v1/spec_decode/metrics.py``). Only G is decode throughput:
  P is prefill, A and D count draft tokens; the mean over the lines, like SGLang's.
- SGLang ``Prefill batch, ..., input throughput (token/s): P`` lines (``log_prefill_stats``):
  the mean P, named ``prefill_throughput`` (prompt tokens, never decode speed).
- SGLang ``bench_one_batch`` (``python/sglang/bench_one_batch.py``, ``latency_test_run_once``):
  ``Prefill. latency: L s, throughput: T token/s``, per-step ``Decode N. ...`` lines,
  ``Decode.  median latency: L s, median throughput: T token/s`` and ``Total. latency: L s,
  throughput: T token/s``. Only the median decode line is decode throughput; prefill and
  total count the prompt's tokens too. ``bench_one_batch_server``: ``input throughput: X
  tok/s`` is prefill, ``output throughput: X tok/s`` decode, ``acc_length: X`` the accept
  length.
- ``vllm bench throughput`` (``benchmarks/benchmark_throughput.py`` before it):
  ``Throughput: R requests/s, T total tokens/s, O output tokens/s``; and the progress bar
  of offline ``LLM.generate`` (``vllm/entrypoints/llm.py``: ``est. speed input: I toks/s,
  output: O toks/s``, redrawn many times): the last output speed is the run's, and the input
  (prefill) speed is no decode throughput.
- ``bench_serving`` summaries, aligned ``Key (unit): value`` lines
  (sgl-project/sglang ``python/sglang/bench_serving.py``).
- Markdown tables (GitHub Flavored Markdown, "Tables" extension: a header row, a delimiter
  row of ``---`` cells, then data rows), the way a session sums up its runs: a column (or
  a row) named by its unit or metric, a row (or column) label that says which run is the
  baseline.
- EAGLE's ``eagle/evaluation/speed.py`` summary (``speed``, ``speed0``, ``ratio`` lines): the
  throughput, the baseline and the speedup.
- Markdown captions that name each run ("without eagle:" over one server log, "with eagle:"
  over another, metric_tables.run_sections): each part is read on its own, the no-speculation
  part's throughputs are baselines.
- Prose: "54.8 tok/s against a 90 tok/s baseline", "Without speculation, the output
  throughput is 222.47 tok/s at bs=1" (a baseline), "74.7% validation accuracy",
  "accuracy: 12.3%", "accept length 2.1", "accepted length has reached 3.6"; training logs'
  position-0 accuracy ("'test/0_acc': 0.70", "eval/acc_0: 0.74", "position 0, Acc: 0.74"); the
  prompt's side ("prefill throughput of 6,688 tokens/s", llama.cpp's "prompt eval time" and
  "encoded" lines) as prefill_throughput, one user's share ("tok/s per user") as
  per_user_throughput, neither compared with a baseline.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from spec_debug.diagnose.launch_scan import REPR_BRACKETS, REPR_QUOTES, bracket_end
from spec_debug.session.ansi import without_colours
from spec_debug.session.grep_files import file_sections
from spec_debug.session.metric_tables import (
    _BASELINE_LABEL, NO_SPEC, aligned_frame_readings, frame_readings, run_sections, table_readings,
)


def _reading(*labels: str) -> re.Pattern:
    r"""Each of ``labels`` then a number ``\d+(?:,\d{3})*(?:\.\d+)?``, possessive where the ``re``
    module has it (Python 3.11): the number ends the pattern (or the next label, which starts with
    no digit, "," or "."), so the greedy first try is the match and no backtracking state need be
    kept (14% faster over a server log); same matches. A thousands comma is part of the number
    ("Avg generation throughput: 1,523.4 tokens/s" was read as 1.0); the ", " between two
    readings is not (no digit after it). _FLOATS reads the comma's numbers."""
    try:
        return re.compile("".join(label + r"(\d++(?:,\d{3})*+(?:\.\d++)?+)" for label in labels))
    except re.error:  # Python 3.10
        return re.compile("".join(label + r"(\d+(?:,\d{3})*(?:\.\d+)?)" for label in labels))


_GEN_TPUT_LABEL = "gen throughput (token/s): "
_GEN_TPUT = _reading(r"gen throughput \(token/s\): ")
_INPUT_TPUT = _reading(r"input throughput \(token/s\): ")
_ACCEPT_LEN_LOG = _reading(r"accept len: ")
# SGLang's ragged verify in its CAP_ACCEPT mode (SGLANG_RAGGED_VERIFY_MODE) adds "cap len: C, block
# accept len: B, " after the accept rate (sglang 0.5.23 srt/managers/scheduler_components/
# metrics_reporter.py, report_decode_stats): B counts the drafts the cap trimmed too, no tokens a
# step kept, and "accept len: " is the tail of its label. Read only in a log that has one.
_ACCEPT_LEN_NOT_BLOCK = _reading(r"(?<!block )accept len: ")
_ACCEPT_RATE_LOG = _reading(r"accept rate: ")
# The three readings of a speculating server's Decode batch line as SGLang writes them
# (log_decode_stats: "... accept len: 2.98, accept rate: 0.49, cuda graph: True, gen throughput
# (token/s): 54.08, ..."), read by one match a line: each match of the three patterns above costs
# ~0.1 us more than the characters it reads, and a log's lines are most of its cost.
_SPEC_DECODE_READINGS = _reading(r"accept len: ", r", accept rate: ",
                                 r", cuda graph: (?:True|False), gen throughput \(token/s\): ")
# The same pattern under re.ASCII, for a text that is all ASCII (str.isascii: a flag CPython
# keeps, no scan): its only class is \d, whose Unicode digits other than 0-9 no ASCII text
# holds, and it has no re.I, \s, \w or \b; so both find the same matches there, and the ASCII
# \d test is a table lookup where the Unicode one asks the character database (~12% of the
# findall over an SGLang log).
_SPEC_DECODE_READINGS_ASCII = re.compile(_SPEC_DECODE_READINGS.pattern, re.ASCII)
_VLLM_GEN_TPUT = _reading(r"Avg generation throughput: ")
_VLLM_PROMPT_TPUT = _reading(r"Avg prompt throughput: ")
_VLLM_MEAN_ACCEPT_LEN = _reading(r"Mean acceptance length: ")
# vLLM 0.8.3 to 0.10 logged the rate first, as a percentage too ("SpecDecoding metrics: Draft
# acceptance rate: 62.5%, Mean acceptance length: 2.88, Accepted: ..."; vllm-project/vllm#15902,
# #16665), before it moved to the line's end as "Avg Draft acceptance rate: R%". Two patterns,
# each opening with its literal: an alternation at the start has none for re to skip ahead
# by, and scanned a 5 MB server log 4x slower.
_VLLM_DRAFT_RATE = _reading(r"Avg Draft acceptance rate: ")
_VLLM_RATE_FIRST = _reading(r"SpecDecoding metrics: Draft acceptance rate: ")
# vLLM V0 (vllm/engine/metrics.py, _format_spec_decode_metrics_str): "Speculative metrics:
# Draft acceptance rate: %.3f, System efficiency: %.3f, ..." - a ratio, next to the V0
# "Avg generation throughput" line that makes the output a structured one.
_VLLM_V0_DRAFT_RATE = _reading(r"Speculative metrics: Draft acceptance rate: ")
# The same line's counters (cumulative): a verify step drafts k tokens and emits the accepted ones
# plus one, so the tokens a step keeps, the accept length, are emitted / (drafted / k), what its
# "System efficiency" (emitted over (k + 1) a step) says times k + 1 (vllm/spec_decode/metrics.py).
# The counters are the server's totals since it started (the rejection sampler adds each step's
# to num_accepted_tokens, num_emitted_tokens, num_draft_tokens and never resets them;
# AsyncMetricsCollector logs those totals): a line's rate is already the run's so far, and the
# last line the whole run's.
_VLLM_V0_COUNTS = re.compile(r"Draft acceptance rate: (\d+(?:\.\d+)?|nan), System efficiency: [^,\n]*, "
                             r"Number of speculative tokens: (\d+), Number of accepted tokens: (\d+), "
                             r"Number of draft tokens: (\d+), Number of emitted tokens: (\d+)")
# The vLLM readings that are not decode throughput, cut out before the prose scan reads
# every "N tokens/s"; the per-position rates are not the mean acceptance rate either. A diffusion
# model's engine (vLLM 0.34 vllm/v1/spec_decode/metrics.py, SpecDecodingLogging._log_diffusion)
# logs "DiffusionDecoding metrics: Committed token throughput: C tokens/s, ..." after the stat
# line of the same interval: the tokens it committed are the ones it generated, the
# "Avg generation throughput" read above, no second decode speed.
_VLLM_NOT_PROSE = re.compile(
    r"Avg (?:prompt|generation) throughput: [\d.,]+ tokens/s|(?:Accepted|Drafted) throughput: [\d.,]+ tokens/s"
    r"|Mean acceptance length: [\d.]+|Per-position acceptance rate: [\d., ]*|Avg Draft acceptance rate: [\d.]+%"
    r"|Draft acceptance rate: [\d.]+|Committed token throughput: [\d.,]+ tokens/s")
# A list of per-position acceptance rates anywhere, as an agent quotes vLLM's line without its
# "SpecDecoding metrics: " head ("Per-position acceptance rate: 0.812, 0.605, 0.433") or says
# it ("per-position acceptance rates are 81%, 61%"): the first of the list is position 0's, not
# the overall rate the prose scan would name it (vllm/v1/spec_decode/metrics.py, log()).
_PER_POSITION_RATES = re.compile(
    r"\b[Pp]er[- ]position acceptance(?: rates?)?(?: \(%\))?(?: (?:is|are|was|were|of))?[:=]?[ \t]*"
    r"\[?\d[\d.,%\t ]*\]?")
# The mean said after the list in the same sentence, the noun left to the list's: "Per-position
# acceptance rates are 0.82, 0.61, 0.40, so the overall rate is 61%" (was no reading: the list is
# cut, and "the overall rate" names no acceptance).
_OVERALL_AFTER_POSITIONS = re.compile(
    r"[^.;\n]{0,40}?\b(?:overall|mean|average|avg)\s+(?:rate|one)\s*(?:is|was|of|[:=])?\s*(?:~\s*)?"
    r"(?P<value>\d+(?:\.\d+)?)(?!\d|\.\d)\s*(?P<pct>%)?")


def _overall_after_positions(text: str, found: list[Metric]) -> None:
    for listed in _PER_POSITION_RATES.finditer(text):
        m = _OVERALL_AFTER_POSITIONS.match(text, listed.end())
        if m is None:
            continue
        value = float(m.group("value"))
        if m.group("pct") or value > 1:
            if value <= 100:
                found.append(Metric("accept_rate", value, "%", _context(text, listed.start(), m.end())))
        else:
            found.append(Metric("accept_rate", value, "ratio", _context(text, listed.start(), m.end())))


_ONE_BATCH = re.compile(
    r"^(?P<stage>Prefill|Decode \d+|Decode|Total)\.[^\n]*?throughput:\s+(?P<value>\d+(?:\.\d+)?) token/s[ \t]*$", re.M)
_ONE_BATCH_NAMES = {"Prefill": "prefill_throughput", "Decode": "throughput", "Total": "total_throughput"}
# SGLang bench_one_batch_server (python/sglang/bench_one_batch_server.py, run_one_case) prints
# "input throughput: X tok/s" (batch * input_len / time to first token: prefill, never decode
# speed), "output throughput: X tok/s" (the decode phase), "last generation throughput: X
# tok/s" (the server's last Decode batch reading, from get_server_info) and, while
# speculating, "acc_length: X " (avg_spec_accept_length). Newer ones (sglang 0.5.23,
# sglang/benchmark/one_batch_server.py, run_one_case) add "steady-state output throughput: X tok/s
# over a Y s full-batch window": the same run's decode speed measured another way, no second
# reading (the run's one is its output throughput, as in its summary table: metric_tables.py).
_ONE_BATCH_SERVER = re.compile(
    r"^(?P<key>input throughput|output throughput|last generation throughput|acc_length"
    r"|steady-state output throughput): "
    r"(?P<value>\d+(?:\.\d+)?)(?: tok/s)?(?:(?<=s) over a \d+(?:\.\d+)? s full-batch window)?[ \t]*$", re.M)
# not a keyword argument in code an agent read: "def f(acc_length=1.0):", "g(x, acc_length=3.0)"
# (a call's name and its parenthesis before it on the line); "(acc_length=3.12)" in prose is read
_ACC_LENGTH_KEY = re.compile(r"(?<![\w.])acc_length=(\d+(?:\.\d+)?)(?![\w.])")
_IN_CALL = re.compile(r"\w\([^()\n]*$")
_ONE_BATCH_SERVER_NAMES = {"input throughput": ("prefill_throughput", "tok/s"),
                           "output throughput": ("throughput", "tok/s"),
                           "last generation throughput": ("last_gen_throughput", "tok/s"),
                           "acc_length": ("accept_length", "tokens")}
# (before "total" was printed, vLLM's benchmarks/benchmark_throughput.py gave the same total as
# "Throughput: 24.05 requests/s, 27706.33 tokens/s": total_num_tokens = prompt_len + output_len)
_VLLM_THROUGHPUT_LINE = re.compile(
    r"Throughput: (?P<req>\d+(?:\.\d+)?) requests/s, (?P<total>\d+(?:\.\d+)?) (?:total )?tokens/s"
    r"(?:, (?P<out>\d+(?:\.\d+)?) output tokens/s)?")
# `vllm bench latency` (vllm/benchmarks/latency.py, benchmarks/benchmark_latency.py before it):
# "Avg latency: 1.2345 seconds", then "10% percentile latency: ... seconds" lines: the time one
# batch takes from its prompts to its last tokens, each request's end-to-end latency. Other
# scripts print an "Avg latency" of other things (an engine step): only with the percentiles.
_VLLM_BENCH_LATENCY = re.compile(r"^Avg latency: (?P<value>\d+(?:\.\d+)?) seconds[ \t\r]*\n"
                                 r"(?=\d+% percentile latency: )", re.M)
_EAGLE_SPEED = re.compile(r"^(speed0|speed|ratio) (\d+\.\d+)[ \t\r]*$", re.M)
_TQDM_SPEED = re.compile(r"est\. speed input: \d+(?:\.\d+)? toks/s, output: (\d+(?:\.\d+)?) toks/s")
# (a thousands comma is the number's: "Output token throughput (tok/s): 2,074.56" was no reading)
_BENCH_LINE = re.compile(r"^(?P<key>[A-Za-z][^:\n]{2,60}?)\s*:\s+(?P<value>-?\d+(?:,\d{3})*(?:\.\d+)?)\s*$", re.M)
# GenAI-Perf's throughputs, on lines (2024) or in its table's rows: the same names either way
_GENAI_PERF_THROUGHPUTS = {"output token throughput (per sec)": ("throughput", "tok/s"),
                           "output token throughput (tokens/sec)": ("throughput", "tok/s"),
                           "request throughput (per sec)": ("request_throughput", "req/s"),
                           "request throughput (requests/sec)": ("request_throughput", "req/s")}
_BENCH_KEYS = {
    "output token throughput (tok/s)": ("throughput", "tok/s"),
    "total token throughput (tok/s)": ("total_throughput", "tok/s"),
    "input token throughput (tok/s)": ("input_throughput", "tok/s"),
    "request throughput (req/s)": ("request_throughput", "req/s"),
    "accept length": ("accept_length", "tokens"),
    # `vllm bench serve` against a speculative server: its "Speculative Decoding" block
    # (vllm/benchmarks/serve.py); the per-position lines are not the mean.
    "acceptance length": ("accept_length", "tokens"),
    "acceptance rate (%)": ("accept_rate", "%"),
    "mean ttft (ms)": ("ttft_mean", "ms"),
    "median ttft (ms)": ("ttft_median", "ms"),
    "mean tpot (ms)": ("tpot_mean", "ms"),
    "median tpot (ms)": ("tpot_median", "ms"),
    "mean itl (ms)": ("itl_mean", "ms"),
    "median itl (ms)": ("itl_median", "ms"),
    # SGLang's bench_serving says "Mean E2E Latency (ms)" (python/sglang/bench_serving.py);
    # `vllm bench serve` "Mean E2EL (ms)" and "Median E2EL (ms)" under its "End-to-end Latency"
    # rule (vllm/benchmarks/serve.py, process_one_metric("e2el", "E2EL", ...)).
    "mean e2e latency (ms)": ("e2e_latency_mean", "ms"),
    "median e2e latency (ms)": ("e2e_latency_median", "ms"),
    "mean e2el (ms)": ("e2e_latency_mean", "ms"),
    "median e2el (ms)": ("e2e_latency_median", "ms"),
    # trtllm-bench's "PERFORMANCE OVERVIEW" (NVIDIA/TensorRT-LLM tensorrt_llm/bench, its docs'
    # examples): "Total Output Throughput (tokens/sec):  274.1786" is the output tokens over the
    # run, bench_serving's output throughput; the per-user lines one stream's share.
    "total output throughput (tokens/sec)": ("throughput", "tok/s"),
    "total token throughput (tokens/sec)": ("total_throughput", "tok/s"),
    "request throughput (req/sec)": ("request_throughput", "req/s"),
    "per user output throughput (tokens/sec/user)": ("per_user_throughput", "tok/s"),
    "per user output throughput [w/ ctx] (tps/user)": ("per_user_throughput", "tok/s"),
    "average time-to-first-token [ttft] (ms)": ("ttft_mean", "ms"),
    "average time-per-output-token [tpot] (ms)": ("tpot_mean", "ms"),
    # GenAI-Perf 2024 prints its throughputs on lines under the latency table ("Output token
    # throughput (per sec): 67.40", "Request throughput (per sec): 0.53"; later "(tokens/sec)" and
    # "(requests/sec)"; triton-inference-server/perf_analyzer genai-perf README and tests)
    **_GENAI_PERF_THROUGHPUTS,
}
# mlx-lm's generate prints "Prompt: 20 tokens, 150.123 tokens-per-sec" and "Generation: 256
# tokens, 31.783 tokens-per-sec" (ml-explore/mlx-lm mlx_lm/generate.py; ml-explore/mlx-examples#1155
# compares its speculative decoding so). The same "tok" prefix: no cost to the scan.
_TOK_UNIT = re.compile(r"(?:tok(?:en)?s?/s(?:ec(?:ond)?)?|tokens per second|tokens-per-sec)\b")
# "t/s" is llama.cpp's and llama-bench's spelling, and people's shorthand ("54.8 t/s"). Its own
# pattern, run only when the text has one: in _TOK_UNIT it cost the "tok" prefix that lets the
# scan skip ahead (a 440-character message: 8 -> 20 us).
_T_UNIT = re.compile(r"(?<= )t/s\b")
# "tps" too (tokens per second), in prose: "with eagle: 30 tps / without eagle: 21 tps" is how
# sgl-project/sglang issue #6949 compares them. After a space or a digit only: "https" holds it too.
_TPS_UNIT = re.compile(r"(?<=[ \d])(?:tps|TPS)\b")


def _has_tps(text: str) -> bool:
    """Whether "tps" follows a space or a digit somewhere: "103.9 tps", and written together,
    "took it from 45tps to 103.9 tps" (ggml-org/llama.cpp#10664). A find loop: "https" has it too."""
    # one pass a spelling (" tps" in text, then "tps", was two); "TPS" only after its "T" (a memchr)
    for unit in ("tps", "TPS") if "T" in text else ("tps",):
        at = text.find(unit)
        while at >= 0:  # (one at the text's start ends no search: "tps: 12 ... with eagle 30 tps")
            if at > 0 and text[at - 1] in " 0123456789":
                return True
            at = text.find(unit, at + 3)
    return False
# People write thousands with a comma ("1,234.5 tok/s" for a batch's total throughput); a
# number that follows "digit," is the tail of one, never a reading of its own. A range
# ("50-55 tok/s", "50–55") reads as its middle (_RANGE_START is the number before the dash).
# Markdown around the number alone ("**54.8** tok/s", "`26184.05`tok/s": vllm-project/vllm#26179)
# is read through.
# "2.9k tok/s", "~1.2K tokens/s": a thousand said with its letter (was no reading).
_NUMBER_BEFORE = re.compile(r"(?<![\w.])(?<!\d,)(?P<value>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<k>[kK])?"
                            r"(?:\*{1,2}|`)?\s*$")
# "I get between 18 and 20 t/s" (theroyallab/tabbyAPI#166): a range in words, read as its middle too.
_BEFORE_SPREAD = re.compile(r"(?<![\w.,])(?P<value>\d+(?:\.\d+)?)\s*$")
_BETWEEN = re.compile(r"\bbetween\s+(?P<value>\d+(?:\.\d+)?)\s+and\s+$")
# "87~90 tok/s" too, the tilde as a range's dash (as Chinese and Japanese keyboards write one), only
# between two numbers: "~90" alone says "about".
_RANGE_START = re.compile(r"(?<![\w.,])(?P<value>\d+(?:\.\d+)?)(?:\s*[-\u2013]\s*|~)$")
# "1.2k-1.5k tok/s", "1.2-1.5k tok/s": a range of thousands is no reading. Its middle (1350) is a
# number nobody measured, and with the letter the ends are 300 tok/s apart, not a run's jitter.
# A spaced dash only after a thousand said the same way: "bs 64 - 2.9k tok/s" is one reading.
_K_RANGE_START = re.compile(r"(?<![\w.,])\d+(?:\.\d+)?(?:[kK]\s*[-\u2013]\s*|[kK]?[-\u2013~])$")
# The run without speculation in prose: "baseline", the NO_SPEC phrases, and the names the
# field gives it: "vanilla" (vllm-project/vllm#16035, #24343), "autoregressive", "normal
# decoding" (sgl-project/sglang#2150: "Normal decoding speed (SGLang): 156 token/s"), and "AR"
# (autoregressive) in capitals, a word of its own: "AR: 95.3 tok/s; MTP: 180.2 tok/s".
_BASELINE_WORDS = r"baseline|vanilla|autoregressive|(?-i:\bAR\b)(?![-/])|" + NO_SPEC
# "90 tok/s (baseline)" names 90; "91.2 tok/s (baseline 90 tok/s)" compares 91.2 with a
# baseline that has its own number.
# A bare "without" that ends the clause ("30 tok/s with EAGLE, 21 tok/s without.") is the run
# without what the sentence just named; so is "without it" ("95 tok/s vs 140 tok/s without it").
# "140 tok/s for vanilla", "140 tok/s for the baseline run", "on vanilla": the run it was read on.
_BASELINE_AFTER = re.compile(r"^\s*\)?\s*(?:\(?\s*)?(?:(?:for|on|in|from)\s+(?:the\s+)?)?(?:no-spec(?:ulation)?\s+)?(?:"
                             + _BASELINE_WORDS
                             + r"|without(?:\s+(?:it|them))?(?=\s*(?:[.,;:)!?\n]|$)))"
                             r"(?!\s*(?:[:=]|of\b|is\b|was\b|at\b)?\s*[~\u2248]?\s*\d)"
                             # "95 tok/s (no-spec baseline 140 tok/s)": the words name the number
                             # after them, not 95 (was: "(no-spec" read as 95's label)
                             r"(?!\s+(?:baseline|run|server|throughput|speed)\b\s*(?:[:=]|of\b|is\b|was\b|at\b)?"
                             r"\s*[~\u2248]?\s*\d)", re.I)
# "from 54.8 to 91.2 tok/s", "131.5 vs 90.1 tok/s": the first number shares the unit written
# once, after the second. A number that ends a name or a setting is no reading: "EAGLE-3 ->
# 54.8 tok/s" (the method), "tp=8 -> 120 tok/s", "at bs=64 vs 890 tok/s".
# The run without speculation named at the head of the reading's clause, the number further on:
# "Without speculation, the output throughput is 222.47 tok/s at bs=1", "without draft model the
# peak throughput reached 2700 tokens/s". Nothing between may name speculation, another reading
# or a contrast ("Without EAGLE: 21 tps, with EAGLE: 30 tps": the 30 is EAGLE's), and nothing
# before it a comparison ("Compared with running without speculation, we get 150 tok/s") or a
# reading.
# A verb that turns speculation off says the same: "When I disable speculative decoding,
# throughput is 140 tok/s", "with spec decoding turned off we get 140 tok/s", "disabling EAGLE
# gives 140 tok/s". Not when what it turns off is a part of the run ("I disabled the draft
# model's CUDA graph", "disable spec decoding overlap"), as NO_SPEC's "disabled" is not.
_OFF_PART = r"(?!['\u2019]s\b|\s+(?:[\w-]+\s+){0,2}?(?:cache|caching|schedul\w*|cuda|graphs?|prefill|compile|overlap)\b)"
_SPEC_OBJECT = r"(?>spec\w*(?:\s+decod\w*)?|eagle[\w-]*|draft(?:\s+model)?)"
_NO_SPEC_LEAD = re.compile(  # searched in lower case
    NO_SPEC + r"|\b(?:disabl(?:e|es|ed|ing)|(?:turn|switch)(?:s|ed|ing)?\s+off)\s+(?:the\s+)?" + _SPEC_OBJECT + _OFF_PART
    + r"|\b" + _SPEC_OBJECT + r"\s+(?:turned|switched)\s+off\b")
_LEAD_BREAK = re.compile(r"\b(?:with|but|while|whereas|however|vs|versus|than|then|eagle\w*|spec\w*|draft\w*|mtp"
                         r"|medusa|n-?gram)\b|/s\b|\btps\b|->|\u2192|\d\s*(?:x|%)")
# A reading before the phrase is the one it names ("90 tok/s without speculation, 54.8 tok/s with
# EAGLE-3").
_LEAD_COMPARED = re.compile(r"\b(?:compared|relative|against|over|than|vs|versus|from)\b|/s\b|\btps\b")
# A list of baselines by row, after one NO_SPEC phrase: each earlier item is a reading with its
# row words after it ("120 tok/s at bs=1", "120 tok/s (bs=1)") or before it ("bs=1: 120 tok/s").
_ROW_WORD = r"(?:bs|batch[ _-]?size|concurrency)\s*[=:]?\s*\d+"
_ROW_UNIT = r"(?:tok(?:en)?s?/s(?:ec(?:ond)?)?|tokens per second|t/s|tps)"
_LISTED_ROW_READING = re.compile(
    r"(?:" + _ROW_WORD + r"\s*[:,]?\s*)?\d[\d,.]*\s*" + _ROW_UNIT + r"\s*\(?\s*(?:(?:at|for|with|@)\s*)?" + _ROW_WORD
    + r"\s*\)?|" + _ROW_WORD + r"\s*[:,]?\s*\d[\d,.]*\s*" + _ROW_UNIT)
# The row words of the reading itself, after its unit or just before its number.
_ROW_OF_READING = re.compile(r"\d[\d,.]*\s*" + _ROW_UNIT + r"\s*\(?\s*(?:(?:at|for|with|@)\s*)?" + _ROW_WORD, re.I)
_ROW_BEFORE_READING = re.compile(_ROW_WORD + r"\s*[:,]?\s*(?:~|about\s+)?$", re.I)
# A reading of one user's (stream's) speed, said right after its unit: "tok/s/user", "tok/s per
# user" (the tables' "/user" columns, metric_tables._NOT_DECODE). "per request" stays a
# throughput: at bs=1 it is the run's own (tests/session/test_hardening6_extractors.py).
_PER_USER = re.compile(r"\s*(?:/|per\s+|each\s+)(?:user|stream)s?\b", re.I)
# The same said just before the number: "per user 30 tok/s", "per-user: 30 tok/s", "each stream
# gets 30 tok/s". Tried only when "user" or "stream" is among the characters before it.
_PER_USER_BEFORE = re.compile(r"\b(?:per[\s-]+|each\s+)(?:user|stream)s?\b\s*(?:[:=]|is|was|gets?|got|at|of|reaches)?"
                              r"\s*(?:~|about\s+)?$", re.I)
# Words that make a prose reading one of the prompt's tokens (or of all tokens) rather than
# decode speed: right before it ("prefill throughput is", "input token throughput:", "prompt
# processing", "total throughput of") or right after its unit ("12,000 tok/s prefill").
_PROMPT_WORDS_BEFORE = re.compile(
    r"\b(prefill(?:ing)?|input|prompt|total)(?:[\s_-]+(?:tokens?|tok|eval))?[\s_-]+(?:throughput|speed|processing|rate|tps)"
    r"\b[^\d]{0,20}$")
# "prompt eval rate:     191.76 tokens/s" is Ollama's (`ollama run --verbose`, api/types.go Metrics.Summary),
# beside its "eval rate: 35.76 tokens/s", the decode speed.
# (on the reading's own line: "decode 45 tok/s" over "prompt processing is slow" is decode)
_PROMPT_WORDS_AFTER = re.compile(r"[ \t]*\(?[ \t]*(prefill|input|prompt|total)\b")
# Both sides' tokens over the time, a total: SGLang's bench_one_batch_server printed "(input +
# output) throughput: 31631.55 token/s" under its "output throughput: 1421.33 token/s"
# (python/sglang/bench_one_batch_server.py @ 00b08c49, run_one_case: overall_throughput).
_BOTH_SIDES = re.compile(r"\b(?:input|prompt)\s*\+\s*(?:output|completion|generat\w*)\b")
# The stage named alone, right before the number: "prefill 5000 tok/s, decode 30 tok/s"; "prompt"
# and "input" only as the clause's label ("prompt: 5000 tok/s, generation: 30 tok/s"): "on this
# prompt 30 tok/s" is decode speed. "chunked prefill" names a setting, no stage.
_PROMPT_WORD_JUST_BEFORE = re.compile(r"(?:(?<!chunked )\b(prefill(?:ing)?)|^\W*(?:the\s+)?(prompt|input))"
                                      r"\s*[:=]?\s*(?:~|about\s+)?$")
# llama.cpp's lines of the prompt's speed (the decode line beside them says "decoded" or "eval time").
_LLAMA_CPP_PROMPT = re.compile(r"(?:^|[\s:|])(?:prompt eval time\s*=|encoded\s+\d+\s+tokens\s+in\b)")
# mlx-lm's line of the prompt's speed, up to its number: "Prompt: 20 tokens, " (the decode line
# beside it says "Generation: 256 tokens, ").
_MLX_PROMPT = re.compile(r"(?:^|\s)prompt:\s+\d+\s+tokens,\s*$")
_BARE_WITHOUT = re.compile(r"(?:^|,)\W*(?:and\s+|but\s+)?(?:without|w/o)\s*[,:]\s*(?:~|about\s+)?$")
# The first may be a range, read as its middle as a range before its own unit is: "87-90 vs
# 115-134 tok/s" is two runs (the first was lost, and with it the comparison).
# Either may be "about" ("~350 vs ~180 tok/s") or have thousands commas ("1,350 vs 1,180 tok/s").
_PAIR_FIRST = re.compile(r"(?<![\w.,=~-])[~\u2248]?(?:(?P<low>\d+(?:\.\d+)?)(?:\s*[-\u2013]\s*|~))?"
                         r"(?P<value>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<k>[kK])?(?:\*{1,2}|`)?\s*"
                         r"(?:to|vs\.?|versus|->|\u2192)\s*(?:(?:the\s+)?(?:" + _BASELINE_WORDS + r")\s*[:=]?\s*)?"
                         r"(?:\*{1,2}|`|[~\u2248])?$", re.I)
# A heading that sets the run against the baseline, then a colon: "EAGLE-3 vs baseline:", "slower
# than the no-spec baseline:", "compared to baseline:". The pair after it is in the heading's order.
# The baseline may be named as speculation switched off: "EAGLE-3 vs no-spec:", "slower than
# without speculative decoding:" (was the other way round: the 95 the baseline, EAGLE-3's 140).
_COMPARED_HEADING = (r"\b(?:vs\.?|versus|than|over|against|compared\s+(?:to|with))\s+(?:the\s+)?"
                     r"(?:(?:no[- ]?spec\w*\s+|vanilla\s+)?baseline|no[- ]?spec(?:ulation|ulative(?:\s+decoding)?)?"
                     r"|without\s+(?:spec\w*(?:\s+decod\w*)?|eagle[\w-]*|(?:the\s+)?draft(?:\s+model)?))\s*:\s*\**")
_COMPARED_HEAD = re.compile(_COMPARED_HEADING + "$", re.I)
# Such a heading worded "compared to/with" or "than": one reading after it is no baseline's.
_COMPARED_OR_THAN = re.compile(r"(?:than|compared)\b", re.I)
# The same heading, then the run's reading and "vs": the number after is the baseline's.
_COMPARED_HEAD_FIRST = re.compile(_COMPARED_HEADING + r"\d[\d.,]*\**\s*(?:tok(?:en)?s?/s(?:ec)?|tps|t/s)\**\s*"
                                  r"(?:vs\.?|versus)\s*\**$", re.I)
# What follows the unit of the run's reading in such a pair: "vs" and the baseline's number.
_VS_NEXT = re.compile(r"\**\s*(?:vs\.?|versus)\s*\**\d", re.I)
# A legend after a pair's unit that names its two sides in order: "140 vs 95 tok/s (baseline vs
# EAGLE-3)", "95 vs 140 tok/s (EAGLE-3 vs no-spec)".
# ("**140 tok/s** vs **95 tok/s** (baseline vs EAGLE-3)": the bold's closing stars before it)
_PAIR_LEGEND = re.compile(r"(?:\*\*|__)?[ \t]*\([ \t]*([^()\n,;:]{1,40}?)\s+(?:vs\.?|versus)\s+([^()\n,;:]{1,40}?)[ \t]*\)", re.I)
_LEGEND_BASELINE = re.compile(r"\W*(?:the\s+)?(?:" + _BASELINE_WORDS + r"|plain\b|base\s+model\b)", re.I)
_PAIR_NAMES = ("throughput", "baseline_throughput")
# The first of a pair each with its own unit, then "vs", before the second: "140 tok/s vs ".
_OWN_UNIT_PAIR = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\**\s*(?:tok(?:en)?s?/s(?:ec)?|t/s|tps)\**\s*"
                            r"(?:vs\.?|versus)\s*\**[~\u2248]?$", re.I)


def _legend_names(legend: re.Match, first: str, second: str) -> tuple[str, str]:
    """The names of a pair's two readings as its legend ("(baseline vs EAGLE-3)") says: one side a
    baseline, that one; both ("(baseline vs baseline rerun)": two runs without speculation,
    no run of ours to set against them), both; neither, as they were read."""
    first_base = _LEGEND_BASELINE.match(legend.group(1)) is not None
    second_base = _LEGEND_BASELINE.match(legend.group(2)) is not None
    if first_base and second_base:
        return "baseline_throughput", "baseline_throughput"
    if first_base != second_base:
        return ("baseline_throughput", "throughput") if first_base else ("throughput", "baseline_throughput")
    return first, second
# A speedup factor right before a pair in parentheses: "1.51x (61.0 vs 40.3 tok/s)", "a 1.5x
# speedup (...)". Not "1.5x slower (...)": a slowdown's factor divides the other way.
_FACTOR_BEFORE_PAIR = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*[x\u00d7]\s*(?:speedup\s*)?\(\s*[~\u2248]?$", re.I)
# The pair's joiner says a change ("156 -> 297", "156 to 297"), from the first to the second; "vs"
# sets two runs side by side.
_PAIR_GOES_ON = re.compile(r"(?:\bto|->|\u2192)\s*(?:(?:the\s+)?\w+\s*[:=]?\s*)?(?:\*{1,2}|`|[~\u2248])?$", re.I)
# A setting's name just before the first number of a pair: "context 4096 vs 120 tok/s" is a
# run at that context length, "batch 32 vs 120 tok/s" at that batch; the number is the setting's
# (a speed has no "context"), the unit only the second's. Searched in lower case.
_SETTING_BEFORE = re.compile(
    r"\b(?:context|ctx|(?:max[\s_-]*)?(?:model|seq(?:uence)?|prompt|input|output|context)[\s_-]*len(?:gth)?|len(?:gth)?"
    r"|window|isl|osl|batch(?:[\s_-]*size)?|bs|concurrency|max[\s_-]*(?:num[\s_-]*)?(?:seqs|tokens|batch\w*)|tp|pp"
    r"|k|steps?|depth|top[\s_-]*k|num[\s_-]*\w*tokens|draft[\s_-]*tokens|spec(?:ulative)?[\s_-]*tokens"
    r"|port|pid|(?P<device>gpus?|rank|device|node|cuda))"
    r"\s*(?P<sep>of|at|=|:)?\s*$"
    # an identifier: an issue's or a PR's number ("#4247"), a host's port ("10.0.0.5:30000")
    r"|#$|(?:\d+\.\d+\.\d+\.\d+|localhost|[\w-]+\.[a-z]{2,}):$")
# A count or a size before the setting's word makes it a label of the reading after it: "8 GPUs:
# 4096 vs 2048 tok/s" (a fleet's), "per GPU: 900 vs 700 tok/s", "At 32k context: 150 vs 100 tok/s".
_COUNT_BEFORE = re.compile(r"(?:\d\s?|\dk\s|\bper\s)$")


def _setting_before(before: str) -> bool:
    """Whether ``before`` (lower case) ends in a setting's name, so that the number after it is
    the setting's: "context 4096 vs 120 tok/s", "batch 32 vs", "GPU 1 to 120 tok/s". A device's
    index follows its word at once; "GPU: 900 vs 700" labels a GPU's speed."""
    m = _SETTING_BEFORE.search(before)
    if m is None:
        return False
    if m.group("device") and (m.group("sep") not in (None, "=") or m.group("device") == "gpus"):
        return False
    return _COUNT_BEFORE.search(before, 0, m.start()) is None


# A speed's name right before the first number makes it a speed whatever its size ("throughput
# 4096 vs 480 tok/s": a run that lost 8x), where _a_size would take it for a context length; so
# does "from": "went from 2048 to 256 tok/s" is one quantity changing, a speed both times.
# So do a fleet's words: "aggregate across 8 GPUs 2048 vs 256 tok/s" sets the fleet's speed
# against one GPU's, and 8 GPUs make 8 times the tokens.
_SPEED_BEFORE = re.compile(r"(?:throughput|speed|tok(?:en)?s?/s\w*|tps|\bfrom"
                           r"|\baggregate|\b\d+\s*(?:x\s*)?(?:gpus|devices|cards|nodes|ranks))\W*$")
# The same for a number right before its unit: "port 30000 tok/s", "pid 12345 tokens/s", "PR
# #12345 tok/s" name a server, a process or a change, no speed. Searched in lower case.
_IDENTIFIER_BEFORE = re.compile(r"(?:\b(?:port|pid)\s*[:=]?\s*|#)$")
# "Qwen3-8B with Eagle3 achieves a performance boost from 186 tokens/second to 365 tokens/second"
# (SafeAILab/EAGLE#228): when the clause's subject is the speculative method, "from" names the
# run without it. Not when the clause names a change to a run ("after fixing the draft config,
# EAGLE3 went from 54 to 91 tok/s": both speculate). Searched in lower case.
_FROM_AT = re.compile(r"\bfrom\s*$")
# "with" or "using" the method makes it the subject only where the clause says it gained
# ("Qwen3-8B with Eagle3 achieves a boost from ..."): "with speculative decoding, throughput
# dropped from 60 to 50 tok/s as batch grew" and "With EAGLE3 enabled, raising
# num_speculative_tokens from 3 to 5 moved throughput from 80 to 95" are two runs that both speculate.
_SPEC_SUBJECT = re.compile(
    r"\b(?:enabling|enabled|turning\s+on)\s+(?:the\s+)?(?:eagle[\w-]*|spec\w*(?:\s+decod\w*)?|mtp|medusa"
    r"|n-?gram|draft(?:\s+model)?)(?![\w-])"
    r"|\b(?:with|using)\s+(?:the\s+)?(?:eagle[\w-]*|spec\w*(?:\s+decod\w*)?|mtp|medusa|n-?gram|draft(?:\s+model)?)"
    r"(?![\w-]).*\b(?:achiev\w*|boost\w*|improv\w*|speeds?\s+up|sped\s+up|gain\w*|jump\w*|increas\w*"
    r"|doubl\w*|tripl\w*|accelerat\w*)"
    r"|\b(?:eagle[\w-]*|spec\w*\s+decod\w*|mtp|medusa)\s+(?:achieve[sd]?|gives|gave|brings|brought|yield(?:s|ed)?"
    r"|improve[sd]?|boost(?:s|ed)?|speeds|sped)\b")
_CHANGE_WORDS = re.compile(r"\b(?:after|before|fix\w*|tun(?:e|ed|es|ing)|chang\w*|switch\w*|updat\w*|upgrad\w*"
                           r"|setting|bump\w*|when|once|vs|versus|than|without|w/o|no)\b")
# A change to the run named after "with EAGLE3" ("... with EAGLE3 after fixing the vocab mapping");
# "when"/"once" alone may only say where it ran ("with EAGLE3 when batch is 1").
_CHANGE_AFTER = re.compile(r"\b(?:after|before|fix\w*|tun(?:e|ed|es|ing)|chang\w*|switch\w*|updat\w*|upgrad\w*"
                           r"|bump\w*|rais\w*|lower\w*|increas\w*|decreas\w*)\b")
# Speculation turned on as the change the numbers span: "After enabling EAGLE3, throughput dropped
# from 90 to 54.8 tok/s"; "went down from 90 to 54.8 tok/s after enabling EAGLE3" (after them).
_SPEC_ON = (r"(?:after|when|once|by)\s+(?:enabling|turning\s+on|adding|switching\s+(?:on|to)|using)\s+(?:the\s+)?"
            r"(?:eagle|spec|mtp|medusa|draft|n-?gram)")
_SPEC_ENABLED = re.compile(r"\b" + _SPEC_ON)
_SPEC_ENABLED_AFTER = re.compile(r"[\s,]*(?:" + _SPEC_ON + r"|with\s+(?:the\s+)?(?:eagle|spec\w*\s+decod|mtp\b|medusa))")
_SECOND_READING = re.compile(r"\s*(?:to|->|\u2192)\s*(?:\*{1,2}|`)?~?\d[\d,.]*(?:\*{1,2}|`)?\s*(?:tok(?:en)?s?/s(?:ec(?:ond)?)?|tokens per second|t/s|tps)?")
_CLAUSE_CUT = re.compile(r".*(?:[.;!?]\s|\n|,\s*(?:while|but|whereas|and)\b|\bwhile\b|\bwhereas\b)", re.S)
# A parenthesis between the words and the number says which run or engine: "Baseline (no spec)
# 90 tok/s", "Normal decoding speed (SGLang): 156 token/s".
# ("vanilla run 140 tok/s", "The baseline run gives 140 tok/s", "the vanilla server gets 140 tok/s":
# the run, its server, what it gets, name the number after them as "baseline throughput" does)
_BEFORE_WORDS = (r"(?:\s+(?:of|is|was|at|gives|gave|throughput|decode|decoding|speed|runs?|server|gets|got|does|did"
                 r"|hits|hit|reaches|reached)|\s*\([^()\n]{1,30}\)")
_BASELINE_BEFORE = re.compile(
    r"(?:" + _BASELINE_WORDS + r"|(?:normal|plain|regular)\s+decoding)" + _BEFORE_WORDS + r")*"
    r"\s*[:=(]?\s*(?:~|about\s+)?$", re.I)
# A batch size among them says which row: "Baseline at bs=1: 222.47 tok/s; baseline at bs=4:
# 566.21 tok/s". Its own pattern, tried only when the words have one: the longer loop cost every
# baseline test 0.5 us.
_BASELINE_BEFORE_ROW = re.compile(
    r"(?:" + _BASELINE_WORDS + r"|(?:normal|plain|regular)\s+decoding)" + _BEFORE_WORDS
    + r"|\s*,?\s*(?:at|for|with|@)?\s*(?:bs|batch[ _-]?size|concurrency)\s*[=:]?\s*\d+)*"
    r"\s*[:=(]?\s*(?:~|about\s+)?$", re.I)
# Literal-first patterns, run directly: each is its own gate (a literal prefix scan).
_ACC_WORDS = (re.compile(r"acc(?:uracy)?(?![a-z])"), re.compile(r"Acc(?:uracy)?(?![a-z])"),
              re.compile(r"ACC(?:URACY)?(?![A-Z])"))
# A compiled literal finds "per second" a little faster than ``in`` over a 10 KB SGLang server
# log (2.7 vs 3.1 us, CPython 3.11), the one text that gate reads whole; the other literal
# gates are plain ``in`` tests, faster over the outputs and prose they read (the prose's
# "/s", "per second" and "-per-sec": 83 -> 44, 274 -> 174, 178 -> 160 ns a text).
_HAS_PER_SECOND = re.compile("per second").search
# "a 0.61x speedup", "speedup of 1.44x", "1.3x slower", "2x faster": speculation against the
# run without it, as a factor (below 1: slower than without speculation).
# Each word is found with str.find and the factor read in a window around it: an alternation
# searched over a whole output cost 9 ns a character.
# "speed up" in two words too: "achieved **1.76x** speed up" (sgl-project/sglang#3582).
_SPEED_WORDS = ("peedup", "peed-up", "peed up", "slower", "faster")
# A factor in Markdown bold ("a speedup of **3.01x**", SafeAILab/EAGLE#5) reads as the bare one.
_FACTOR_BEFORE = re.compile(r"(?<![\w.])(?P<value>\d+(?:\.\d+)?)\s?[x×]\*{0,2}\s+(?:the\s+)?(?:a\s+)?$")
# "k=4 is 28% faster than vanilla" (vllm-project/vllm#16035), "eagle-2 is 61% faster then
# vanilla" (#24343): a percentage is a speedup only against the run without speculation;
# "fr-spec is 17.79% faster than eagle-2" compares two drafters.
_PCT_BEFORE_WORD = re.compile(r"(?<![\w.])(?P<value>\d+(?:\.\d+)?)\s?%\s+$")
# What it is a speedup of may stand between: "~5% e2e decode speedup" (raullenchai/Rapid-MLX#2175).
_PCT_SPEEDUP = re.compile(r"(?<![\w.+-])[+~\u2248]?(?P<value>\d+(?:\.\d+)?)\s?%\*{0,2}\s+"
                          r"(?:(?:end-to-end|e2e|decode|decoding|generation|throughput)\s+){0,2}$")
# "than without it" too: "speculative decoding is 15% slower than without it".
_THAN_BASELINE = re.compile(r"\s+th[ae]n\s+(?:the\s+)?(?:" + _BASELINE_WORDS + r"|without(?:\s+it\b|\s*(?:[.,;!?)]|$)))", re.I)
# "Nx faster/slower than" something else than the run without speculation: an expectation, a time
# or another engine, GPU or version ("3x slower than expected", "2x faster than before the fix",
# "than vLLM", "than last week", "than the H100", "than 0.10.2"). Named by what they are, not by
# what the baseline is not: the run without a drafter has too many names to list ("than the
# target model", "than the base model", "than auto-regressive decoding", "than sequential
# decoding", "than running without speculation"), and each was a speedup before. An engine or a
# GPU with the baseline named after it ("than vLLM without speculation", "than the H100 alone")
# is the baseline.
_ENGINE = r"vllm|sglang|tgi|text-generation-inference|tensorrt(?:-llm)?|trt-?llm|llama\.cpp|ollama|lmdeploy|exllama\w*|mlc(?:-llm)?"
_THAN_OTHER = re.compile(
    r"\s+th[ae]n\s+(?:(?:the|a|an|our|my|their|what)\s+)?(?:"
    r"(?:expect|anticipat|predict|advertis|claim|promis|hop|estimat|report|publish|document)\w*\b|paper\b|usual\b"
    r"|before\b|after\b|previous\w*|prior\b|earlier\b|last\b|yesterday\b|today\b|(?:it|this|that)\s+(?:was|is|used|should)\b"
    r"|(?:old|older|other|first|second|previous|last|earlier|original|same)\s+(?:run|version|release|build|commit|image|setup|config\w*|driver|node|machine|box|server|gpu|card)s?\b"
    r"|v?\d+\.\d+\.\d+|v\d+(?:\.\d+)*\b"
    r"|(?:(?:nvidia\s+)?(?:[abhlv]\d{2,3}|gb?\d{3}|rtx\s*\w+|mi\d{3}\w*|tpu\w*)|" + _ENGINE + r")\b(?![^.,;\n]{0,40}?\b(?:without|w/o|baseline|no[-\s]?spec\w*|non-?spec\w*|vanilla|autoregressive|alone|only)\b))",
    re.I)
# A factor against another speculative method ("EAGLE 3 ... speedup wrt EAGLE 1: 1.09x",
# vllm-project/vllm#16937; "E3 over E1", #20780; "fr-spec is 17.79% faster than eagle-2", #24343)
# says nothing about the run without speculation. Whose method it is may stand between: "2.3x faster
# than fork's MTP", "than SGLang's EAGLE-2", "than the upstream MTP" (still a drafter, no baseline).
_OTHER_METHOD = re.compile(r"[\s*]*(?:over|than|vs\.?|versus|compared\s+(?:to|with)|relative\s+to|w\.?r\.?t\.?|against)"
                           r"\s+(?:the\s+)?(?:[\w.-]+['\u2019]s\s+)?"
                           r"(?:(?:our|their|its|my|upstream|fork|forked|old|older|previous|original|stock|default|native"
                           r"|built-in|official|existing|current)\s+)?(?:eagle[-\s]?\d|e\d\b|mtp\b|medusa|n-?gram|fr-spec|dflash|hydra|lookahead)", re.I)
# A word that hedges or dates the factor between the verb and it: "the speedup is only 1.1x", "speedup
# was merely 1.05x", "speedup is now 1.3x" (read as "speedup is 1.1x" was; the factor went unread).
_FACTOR_HEDGE = r"(?:only|just|merely|barely|now|still|currently|about|around|roughly|approximately|nearly|almost)"
# A separator and a number with its decimals is a factor too, its "x" unsaid, in a text that names
# drafting: "EAGLE-3 speedup = 2.05", "MTP speedup: 1.37" (not "speedup: 25%", nor "speedup: 2 ms",
# a model's size "speedup: 0.5B draft", or a count, "speedup = 3").
_FACTOR_AFTER = re.compile(r"\s*(?:[:=]|of|is|was)?\s*(?:" + _FACTOR_HEDGE + r"\s+)?\*{0,2}(?:~\s*)?(?P<value>\d+(?:\.\d+)?)\s?[x×](?!\w|\.\d)"
                           r"|\s*[:=]\s*\*{0,2}(?P<bare>\d{1,2}\.\d+)\*{0,2}(?![\d.]|\s*(?:%|/|(?:[mu\u00b5]?s|sec\w*|min\w*"
                           r"|tok\w*|t/s|tps|[kmg]i?b|[bkm]|times|points?|pp)\b))", re.I)
# The run it is against named between the word and the factor: "tps/user speedup over regular
# decoding: **1.26x**" (NVIDIA/TensorRT-LLM#5146).
_FACTOR_OVER_BASELINE = re.compile(
    r"\s+(?:over|vs\.?|versus|against|compared\s+(?:to|with)|relative\s+to)\s+(?:the\s+)?"
    r"(?:regular|normal|vanilla|baseline|autoregressive|plain|non-spec\w*|no-spec\w*)(?:\s+decod\w*)?"
    r"\s*(?:[:=]|of|is|was)?\s*\*{0,2}(?:~\s*)?(?P<value>\d+(?:\.\d+)?)\s?[x×](?!\w|\.\d)", re.I)
# SGLang's GET /get_server_info (http_server.py): the server args plus "internal_states", one
# per data-parallel rank, each with "last_gen_throughput" (the last Decode batch reading) and,
# while speculating, "avg_spec_accept_length" (scheduler.py, get_internal_state).
_SERVER_GEN_TPUT = re.compile(r'"last_gen_throughput"\s*:\s*(\d+(?:\.\d+)?)')
_SERVER_ACCEPT_LEN = re.compile(r'"avg_spec_accept_length"\s*:\s*(\d+(?:\.\d+)?)')
# vLLM's Prometheus counters at GET /metrics (vllm/v1/spec_decode/metrics.py, SpecDecodingProm:
# vllm:spec_decode_num_drafts, _num_draft_tokens, _num_accepted_tokens, exported with "_total"),
# one line per engine label set. The mean acceptance length is 1 + accepted / drafts, the
# acceptance rate accepted / draft tokens (the same sums SpecDecodingLogging logs).
_HAS_SPEC_COUNTERS = re.compile("vllm:spec_decode_num_").search
_SPEC_COUNTER = re.compile(r"^vllm:spec_decode_num_(drafts|draft_tokens|accepted_tokens)_total(?:\{[^}\n]*\})?"
                           r"\s+(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*$", re.M)
_HAS_ACC_NOT_ACCEPT = re.compile("acc(?!ept)").search
# "74.7% validation accuracy", "12.3% top-1 acc"; "accuracy: 12.3%", "val_acc=0.747", and
# without a separator only with its percent sign ("top-1 acc 74.7%").
_PCT_BEFORE = re.compile(r"(?<![\w.])(?P<value>\d+(?:\.\d+)?)\s*%\s*(?:[A-Za-z][\w-]*\s+){0,2}$")
_VALUE_AFTER = re.compile(r"['\"]?\s*(?P<sep>[:=\uff1a])?\s*(?:(?:of|is|was)\s+)?(?P<value>\d+(?:\.\d+)?)\s*(?P<pct>%?)")
_CLAIMED = re.compile(r"\bval(?:idation)?(?:\b|_)|claimed|train|\b(?:test|eval)/")
# The draft's accuracy at each position of its training-time test (TTT) unroll, as training
# logs it: SpecForge's tracker keys "train/acc_0".."eval/acc_6" (scripts/train_eagle3.py,
# record_metrcs), EAGLE's wandb keys "train/0_acc", "test/0_acc" (eagle/traineagle3/main.py).
# Position 0 is the next token's top-1 accuracy, the one a draft's card claims; the later
# positions predict from the draft's own guesses and are no such claim.
_ACC_POSITION_AFTER = re.compile(r"_(\d+)(?![\w.])")
_ACC_POSITION_BEFORE = re.compile(r"(?:^|[\s/'\"{,])(\d+)_$")
# A setting whose name ends in "acc" is a bound, no accuracy: SGLang's server_args line, printed
# at every launch, holds "speculative_accept_threshold_acc=1.0" (python/sglang/srt/server_args.py),
# read as a 100 % accuracy; "min_acc", "max_acc", "target_acc" likewise.
_ACC_SETTING_BEFORE = re.compile(r"(?:threshold|thresh|min|max|target)_$")
# The console lines of the same numbers: "Train Epoch [3/10], position 0, Acc: 0.7412"
# (SpecForge scripts/train_eagle3.py; SafeAILab/EAGLE eagle/traineagle3/main.py), "Eval - Step
# 12000, position 2, Acc: 0.27" (SpecForge's record_metrics).
_ACC_POSITION_WORD = re.compile(r"\b[Pp]osition[ _]?(\d+)[,:;]?\s*$")
# "accept length: 2.1", and title-cased ("Accept Length").
# "accepted length has reached 3.6": the past participle, and the verb a run's progress takes.
# A factor ("accepted length reached 1.39x ~ 2.19x" that of MTP, "is roughly 2 times the
# baseline"), a difference ("2.5 points lower") or a limit on a field's size
# ("Maximum accepted length is 20 chars", API docs) is no accept length.
# "accepted token length" too ("an average accepted token length of 1.94", sgl-project/SpecForge#128),
# and the paper's symbol after the words ("acceptance length (τ) of 3.5").
# The separator may be the full-width colon, as Chinese keyboards type it ("accept length：1.70",
# SafeAILab/EAGLE#143).
_ACCEPT_LEN_WORD = re.compile(r"ccept(?:ance|ed)?[ _](?:tokens?[ _])?[Ll]en(?:gth)?\b")
# The verb may have a word of degree after it, as people say the number that is the fault: "the
# accept length is only 1.0", "acceptance rate stays at 0%", "is stuck at 1.02", "is just
# 1.1"; the name an abbreviation in parentheses ("mean acceptance length (MAL) of 3.1").
_IS_ONLY = (r"(?:is|was|are|were|stays?|stayed|remains?|remained|sits?|sat|hovers?|hovered|stuck)"
            r"(?:\s+(?:only|just|still|now|around|about|roughly|approximately|basically|exactly|stuck|at)\b)*")
# "of" with a word of degree: "an acceptance length of only ~1.1 tokens"; "≈" as a separator:
# "acceptance length ≈ 1.02".
_OF_ONLY = r"of(?:\s+(?:only|just|about|around|roughly|approximately|nearly|almost))?"
# A change said with its new value only: "the accept length went to 3.2" (after an upgrade),
# "dropped to 1.05", "acceptance rate climbed to 71%", "went up to 62%", as "AL dropped to 1.05"
# (_AL_AFTER) is read.
_MOVED = (r"(?:went|goes|dropped|drops|fell|falls|rose|rises|jumped|climbed|increased|decreased|improved|grew"
          r"|recovered|degraded|collapsed|regressed|moved|changed)(?:\s+(?:back|up|down))*")
_MOVED_TO = _MOVED + r"\s+to"
# The same verb with both values and an arrow, no "from": "accept length went 1.0 -> 2.9", "acceptance
# rate dropped 70% → 30%" (_ARROW_NEXT reads the second; the verb had left both unread).
_MOVED_ARROW = _MOVED + r"(?=\s*\**(?:~\s*)?\d+(?:\.\d+)?\s*%?\s*(?:->|\u2192))"
_ACCEPT_LEN = re.compile(r"ccept(?:ance|ed)?[ _](?:tokens?[ _])?[Ll]en(?:gth)?\b(?:\s*\((?:tau|\u03c4|[A-Z]{1,4})\))?"
                         r"\s*(?:[:=\uff1a\u2248]|" + _OF_ONLY + r"|" + _IS_ONLY + r"|" + _MOVED_TO + r"|" + _MOVED_ARROW
                         + r"|(?:(?:has|had|have)\s+)?reach(?:ed|es)"
                         r"|(?:[a-z]+\s+)?(?P<from>from))?\s*\**(?:~\s*)?(?P<value>\d+(?:\.\d+)?)"
                         r"(?!\d|\.\d|\s*(?:[x\u00d7]|times\b|points?\b|chars?\b|characters|bytes))")
# The number first: "(**~1.9** avg accept length for draft 2 tokens" (sgl-project/sglang#3582),
# "could achieve 2.751 Accept Length (AL)" (sgl-project/SpecForge#113); never the end of a
# range ("**2.5~3** avg accept length"); with its decimals, as a measured mean has them (a
# whole number before the words counts runs or steps).
# The tokens a step keeps, said as a count per step: "accepts ~1.1 tokens per step", "only 1.1
# accepted tokens per verify step", "accepting 2.4 tokens per round" (the accept length: SGLang's
# "accept len" is the tokens each verify step emits, EAGLE's paper the "average acceptance length").
_TOKENS_PER_STEP = re.compile(
    r"\b[Aa]ccept(?:s|ing|ed)?\s+(?:~|about |around |roughly |only |just |on average )?"
    r"(?P<value>\d+(?:\.\d+)?)\s+(?:accepted\s+)?tokens?\s+(?:per|each|every|a)\s+(?:(?:verify|verification|decode|decoding|draft|"
    r"forward|target)\s+)?(?:step|round|iteration|pass|forward)\b"
    r"|(?<![\w.])(?P<count>\d+(?:\.\d+)?)\s+accepted\s+tokens?\s+(?:per|each|every|a)\s+(?:(?:verify|verification|decode|"
    r"decoding|draft|forward|target)\s+)?(?:step|round|iteration|pass|forward)\b")
_LEN_VALUE_BEFORE = re.compile(r"(?<![\w.~-])~?(?P<value>\d+\.\d+)\*{0,2}\s+(?:(?:avg|average|mean)\s+)?$")
# "accept length went from 1.6 to 3.2": the second number after a "from" one.
# "acceptance rate: 70% -> 30%": an arrow after a reading gives the next one, as "from A to B" does.
_ARROW_NEXT = re.compile(r"\s*%?\s*(?:->|\u2192)")
_THEN_TO = re.compile(r"\s*%?\s*(?:to|->|\u2192)\s*(?:~\s*)?(?P<value>\d+(?:\.\d+)?)\s*(?P<pct>%?)")
# "acceptance rate was 0.72 before the upgrade, now 0.35": the value now is a reading too (was
# only the old one: a drafter that stopped being accepted read as a good one).
_BEFORE_NOW = re.compile(r"\s*%?\s*before\b[^.;\n\d]{0,40}?,?\s*(?:but\s+|and\s+)?now(?:\s+(?:it'?s|is|at|only))*"
                         r"\s*(?:~\s*)?(?P<value>\d+(?:\.\d+)?)\s*(?P<pct>%?)"
                         # the value ends the clause or its tokens do: "now 8 GPUs are used", "now at
                         # 64 concurrency", "now 2 of 3 runs fail" count other things
                         r"(?=\s*(?:[.,;:!?)\]\n]|$|(?:tokens?|and|but|with|after|on|in|for|when|since|while)\b))")


def _next_value(text: str, m: re.Match) -> re.Match | None:
    """The value a reading changed to, said after it: "from 1.6 to 3.2", "70% -> 30%",
    "0.72 before the upgrade, now 0.35"."""
    if m.group("from") or _ARROW_NEXT.match(text, m.end()):
        return _THEN_TO.match(text, m.end())
    if "now" in text[m.end():m.end() + 60]:
        return _BEFORE_NOW.match(text, m.end())
    return None
# "accept rate: 0.55", "acceptance rate of ~62%", and with the percentage first: "a 62%
# acceptance rate".
_ACCEPT_RATE_WORD = re.compile(r"ccept(?:ance)?[ _]rate\b")
# The number is no rate when a factor, a difference or a count follows it, past a bold's "**":
# "acceptance rate is now 5x higher", "is 3 points lower", "is roughly 10 times lower", "is only 1
# in 10", "**3** of 4 drafts", "is around 2.5 tokens per step" (a length called a rate), "1.8 per
# hour" (a queue's or a reviewer's rate, no drafter's); not "0.7 in 10 runs". "percent" spelled out
# is a percentage.
_RATE_AFTER = re.compile(r"\s*(?:[:=\uff1a\u2248]|" + _OF_ONLY + r"|" + _IS_ONLY + r"|" + _MOVED_TO + r"|" + _MOVED_ARROW
                         + r"|(?:[a-z]+\s+)?(?P<from>from))?\s*\**(?:~\s*)?(?P<value>\d+(?:\.\d+)?)"
                         r"(?!\d|\.\d|\**\s*(?:[x\u00d7](?![a-z])|times\b|points?\b|pts?\b|pp\b|(?:out\s+)?of\s+\d|out\s+of\b|/\s*\d"
                         r"|in\s+\d+\b(?!\s*(?:runs?|trials?|tests?|iterations?|requests?|prompts?|samples?|cases?)\b)"
                         r"|tokens?\b|steps?\b|requests?\b|req/|(?:per|a|an|/)\s*(?:hour|hr|day|week|month|year|min(?:ute)?|sec(?:ond)?)s?\b))"
                         r"\s*(?P<pct>%|percent\b)?")
# A "rate" in tokens per step is the accept length under TensorRT-LLM's name for it
# ("avg_acceptance_rate(tokens/decoding steps)"): "acceptance rate is around 2.5 tokens per step".
_RATE_AS_LENGTH = re.compile(r"\s*(?:[:=\uff1a]|of|" + _IS_ONLY + r")?\s*(?:~\s*)?(?P<value>\d+\.\d+)\s*(?:accepted\s+)?"
                             r"tokens?\s*(?:/|per|each)\s*(?:decod\w*\s+|verif\w*\s+)?(?:steps?|iterations?|rounds?|forward)\b")
# "AL" is the mean acceptance length in vLLM's spec-decode threads: "Previous AL=3.53"
# (vllm-project/vllm#26191), "Using 3 draft token SGL gets 2.4 AL" (#16035). Upper case and a
# word of its own only ("TOTAL", "ALL" are none); prose only, where people write it.
_AL_AFTER = re.compile(r"(?<![\w-])AL\s*(?:[:=\u2248]|of|is|was|(?:dropped|fell|went|rose|jumped|climbed|increased|decreased)"
                       r"(?:\s+(?:down|up))?\s+to)?\s*~?\s*(?P<value>\d+(?:\.\d+)?)(?![\w.%])")
_AL_BEFORE = re.compile(r"(?<![\w.])(?P<value>\d+(?:\.\d+)?)\s?AL(?![\w-])")
_SPEC_WORDS = ("draft", "spec", "eagle", "accept", "mtp", "medusa", "ngram", "n-gram")
"""Words a text about speculative decoding has, one at least (see _accept_al)."""
_MAX_ACCEPT_LENGTH = 20.0
"""An accept length is 1 + the draft tokens one step accepts, and drafts are a few to a dozen
tokens deep (sgl-project/sglang#4247 tries --speculative-num-steps 8: 5.39); a larger "AL" number
is some other quantity."""
_PCT_JUST_BEFORE = re.compile(r"(?<![\w.])(?P<value>\d+(?:\.\d+)?)\s*%\s*(?:draft\s+)?$")


@dataclass(slots=True)
class Metric:
    name: str
    value: float
    unit: str
    context: str
    hintable: bool = False
    """An accuracy whose name a ``standalone`` in the printing command turns into
    ``standalone_accuracy`` (see :func:`name_by_hint`)."""


def extract_metrics(text: str, hint: str = "", prose: bool = True) -> list[Metric]:
    """Metrics in one text; ``hint`` is the command that printed it (names a standalone
    accuracy, for example)."""
    return name_by_hint(scan_metrics(text, prose), hint)


def scan_metrics(text: str, prose: bool = False, captions: bool = True) -> list[Metric]:
    """The metrics of one text before the printing command is known (a worker process
    scans outputs whose command another worker read); :func:`name_by_hint` finishes them.
    ``prose``: the text is what a person or the agent wrote, where speedups are stated ("a
    0.61x speedup"); tools print none, and their long outputs are spared the scan.
    ``captions``: the text may be cut at its caption lines (False: it is one such part)."""
    # Colours forced on (FORCE_COLOR, a TTY's `docker logs`) split a label from its number:
    # "accept len: \x1b[33m1.67\x1b[0m" and a green bench_serving line were no reading.
    text = without_colours(text)
    # grep over several files at once: each file's lines are a run of their own (grep_files).
    # file_sections first: one anchored match at the output's start refuses most outputs, where
    # the "/s" search is a pass over all of it; a "/" (a memchr, implied by "/s") before both
    # spares an output without one (a listing of files) the anchored match too
    if captions and "/" in text and (files := file_sections(text)) is not None and "/s" in text:
        return _read_files(files, prose)
    # A Markdown text (an issue body, a report) may name each run in a caption above its output
    # ("without eagle:" over one server log, "with eagle:" over another): each part is read on
    # its own, and the no-speculation one's throughputs are baselines. Only a text with a
    # throughput's unit ("/s" and "tok", or " t/s") has a part to name; a backtick is a memchr a
    # server log is spared at, and an agent's prose is tried at its colons.
    # GuideLLM capitalises its unit ("Out Tok/sec", sgl-project/SpecForge#164).
    if captions and (("`" in text and "```" in text) or (prose and ":" in text)) and "/s" in text \
            and ("tok" in text or " t/s" in text or "Tok/s" in text):
        parts = run_sections(text)
        if parts is not None:
            return _read_parts(parts, prose)
    # bench_speculative.py's runs, each from its "Start i=" line: the steps=0 one's is the baseline's
    # (_sweep_runs), whether or not any run got to its "Finish i=" line (a sweep that crashed in
    # its steps=0 run printed that run's bench_serving blocks and a traceback). ("S" a memchr)
    if captions and "S" in text and "Start i=" in text and (runs := _sweep_runs(text)) is not None:
        return _read_parts(runs, prose)
    found: list[Metric] = []
    structured = False
    source = text
    # One-character tests first (a memchr): most outputs lack the capital letters. Each is a
    # letter of the literal that SGLang's Decode batch lines lack ("f", "m": "P" is in "TP0"),
    # so a server log is spared the literal scan (~3 us per 10 KB each).
    decode_lines = log_accepts = 0
    only_readings = only_accepts = False
    if "D" in text and "Decode batch" in text:
        decode_lines, log_accepts, only_accepts = _decode_batches(text, found)
        structured = decode_lines > 0
        # Every "/" of the log is the one of a reading's "gen throughput (token/s): ", each
        # preceded by "token": then no unit with "/s" other than "(token/s)" is in it ("total
        # tokens/s", "(tok/s)", "toks/s", any prose "tok/s"), and the "/s" count below is
        # decode_lines. One count of a character (3 us on a 10 KB server log) spares three
        # literal scans and a count of "/s" (19 us). Valid while ``text`` is ``source``.
        # (_decode_batches counted it when it says every "acc" is a reading's)
        only_readings = decode_lines > 0 and (only_accepts or text.count("/") == decode_lines)
    elif "(" in text and "(token/s): " in text and (text.startswith(_GEN_TPUT_LABEL) or "\n" + _GEN_TPUT_LABEL in text):
        # `grep -oE "accept len: [0-9.]+|gen throughput \(token/s\): [0-9.]+" server.log`: the
        # Decode batch lines' readings without the lines, each at a line's start (was: the
        # accept lengths read one by one and the throughputs not at all)
        decode_lines, log_accepts, only_accepts = _decode_batches(text, found)
        structured = decode_lines > 0
    if not decode_lines and ":" in text and "c" in text and "accept len: " in text and (text.startswith("accept len: ") or "\naccept len: " in text
                                                        or ":accept len: " in text):
        # `grep -o "accept len: [0-9.]*" server.log`: the accept lengths of the Decode batch lines
        # alone, one a line; their mean is the reading, as of the whole lines (was one a line)
        if (cut := _accept_len_lines(text, found)) is not None:
            text, structured = cut, True
    # A character of the literal first (a memchr) wherever a text often lacks one: here "P" (prose
    # seldom has it) and ":" (most prose none) before the literal scans (~1 us per 500 characters each).
    # ("Prefill batch [1839], #new-seq: ..." with SGLANG_LOG_FORWARD_ITERS: see _FORWARD_ITER)
    if "f" in text and "P" in text and "Prefill batch" in text and _prefill_batches(text, found):
        structured = True
    vllm_lines = False
    if ("A" in text and ("Avg generation throughput: " in text or "SpecDecoding metrics: " in text)) or \
            ("S" in text and "Speculative metrics: " in text):
        vllm_lines = _vllm_stats(text, found)
        structured = structured or vllm_lines
        # Cut even when no line gave a reading: an idle engine logs "Avg prompt throughput:
        # 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s" (vllm-project/vllm#2734),
        # which the prose scan would read as two decode throughputs of 0.
        text = _VLLM_NOT_PROSE.sub("", text)
    # A Decode batch log whose every "acc" starts one of its readings' "accept len: " or "accept
    # rate: " (only_accepts, counted on ``source``) holds no "osition acceptance": its "acc" goes
    # on "eptance", no reading's. The scan cost a 7.7 KB log 16k instructions (2 us), for nothing.
    # ("c" first, a memchr: a listing of files seldom has one)
    if not (only_accepts and text is source) and "c" in text and "osition acceptance" in text:
        if prose:
            _overall_after_positions(text, found)
        text = _PER_POSITION_RATES.sub("", text)
    # "g" (a memchr) before each literal with "throughput: ": a listing of files (`ls -l`) has
    # ":" on every line (its times) and often an "m", but seldom a "g"
    if "." in text and (("f" in text and "P" in text and "Prefill. latency: " in text)
                        or ("m" in text and ":" in text and "g" in text and "median throughput: " in text)):
        if _one_batch(text, found):
            structured = True
            text = _ONE_BATCH.sub("", text)
    if ":" in text and "g" in text and "put throughput: " in text and _one_batch_server(text, found):
        structured = True
        text = _ONE_BATCH_SERVER.sub("", text)
    if "_" in text and "=" in text and "acc_length=" in text:
        # SGLang's send_one.py printed f"{acc_length=:.2f}" then f"{speed=:.2f} token/s" before its
        # table (python/sglang/test/send_one.py; sgl-project/sglang#4716 posts "acc_length=2.42"),
        # its tests print f"{acc_length=:.2f} {speed=:.2f}" (test/srt): was no reading
        for m in _ACC_LENGTH_KEY.finditer(text):
            if text[m.end():m.end() + 1] in (")", ",") and _IN_CALL.search(text, max(0, m.start() - 200), m.start()):
                continue  # a keyword argument: "def send(acc_length=1.0):"
            found.append(Metric("accept_length", float(m.group(1)), "tokens", f"sglang: {m.group(0)}"))
    # "G" first (a memchr: SGLang's and vLLM's stat lines seldom have one), then the literal (8 us
    # over a 10 KB server log)
    if "G" in text and "T/s)" in text and _koboldcpp(text, found):
        structured = True
    # EAGLE's eagle/evaluation/speed.py: a few short lines (a length test spares a server log);
    # its "ratio" line starts a line, so a text of one line (no "\n", a memchr) starts with it; an
    # "i" first (a memchr: a listing of files seldom has one, and ends in a space, a poor needle)
    if len(text) < 4096 and "i" in text and ("\n" in text or text.startswith("ratio ")) and "ratio " in text \
            and _eagle_speed(text, found):
        structured = True
    # the "T" of the line's "Throughput: " and a "/" (memchrs) before the literal
    if not (only_readings and text is source) and "T" in text and "/" in text and "requests/s, " in text and \
            (m := _VLLM_THROUGHPUT_LINE.search(text)):
        structured = True
        ctx = f"vllm bench throughput: {_context(text, m.start(), m.end())}"
        if m.group("out"):
            found.append(Metric("throughput", float(m.group("out")), "tok/s", ctx))
        found.append(Metric("total_throughput", float(m.group("total")), "tok/s", ctx))
        found.append(Metric("request_throughput", float(m.group("req")), "req/s", ctx))
        text = _VLLM_THROUGHPUT_LINE.sub("", text)
    if "A" in text and "Avg latency: " in text and (m := _VLLM_BENCH_LATENCY.search(text)):
        structured = True
        found.append(Metric("e2e_latency_mean", float(m.group("value")) * 1000, "ms",
                            f"vllm bench latency: {_context(text, m.start(), m.end('value'))}"))
    speed_bench = "_" in text and "/" in text and _HAS_PRED_TS(text) and _speed_bench(text, found)
    if speed_bench:
        structured = True
    # (a memchr first: "F" and "{" are seldom in a server log's lines, "_" is)
    if (("F" in text and "Finish i=" in text) or ("{" in text and '"acc_length": ' in text)) \
            and (swept := _bench_speculative(text, found)) is not None:
        structured = True
        text = swept
    if "[" in text and "K" in text and "BENCHMARK" in text and _trtllm_bench(text, found):  # (a log's "[" on every line)
        structured = True
    # A JSON document and labelled Prometheus counters both have a "{" (a memchr); a server
    # log seldom does, and is spared both literal scans.
    if "{" in text:
        if "internal_states" in text and _server_info(text, found):
            structured = True
        if _HAS_SPEC_COUNTERS(text) and _spec_counters(text, found):
            structured = True
        if "sglang:" in text and _sglang_gauges(text, found):
            structured = True
        if ("spec_accept_" in text or "spec_verify_ct" in text) and "meta_info" in text and _request_meta(text, found):
            structured = True
        if "output_throughput" in text and _bench_result_json(text, found):
            structured = True
        elif "output_throughput" in text and '"run_name": ' in text and _one_batch_records(text, found):
            structured = True
    # (a bar's every reading has its "toks/s": no "/", a memchr, and nothing to read or cut)
    if not (only_readings and text is source) and "/" in text and "e" in text and ":" in text \
            and "est. speed input: " in text:
        # A bar redrawn (\r) hundreds of times: its last output speed is the run's estimate.
        speeds = _TQDM_SPEED.findall(text)
        runs = _labelled_bars(text) if prose and len(speeds) > 1 and "\n" in text else None
        if runs:
            found.extend(runs)
            structured = True
        elif speeds and not structured:
            found.append(Metric("throughput", float(speeds[-1]), "tok/s",
                                f"vLLM progress bar, last of {len(speeds)} estimates"))
            structured = True
        text = _TQDM_SPEED.sub("", text)
    bench_from = len(found)
    if ("(" in text and not (only_readings and text is source)
            and ("(tok/s)" in text or "(per sec)" in text or "s/sec" in text)) or \
            ("A" in text and ("Accept length:" in text or "Acceptance length:" in text)) or ("F" in text and "TTFT (ms)" in text) \
            or ("\u2502" in text and "(ns) \u2502" in text):  # GenAI-Perf 24.06's latency rows, its throughput lines left out
        structured = _bench_serving(text, found) or structured
    # the second: a table copied from a rendered page; the rest a delimiter row of one or two
    # hyphens a cell ("|-|-|", "|--|--|", "| - | - |", "|:-:|"), as GFM allows
    if "|" in text and ("---" in text or "-- |" in text or "-|" in text or "- |" in text or ":-" in text) \
            or "\u256a" in text or "\u253c" in text or "\u254b" in text or "\u2547" in text \
            or "--  --" in text and not speed_bench:  # tabulate's box grids' crossings (metric_tables._as_ascii_grid), its "simple" rule
        readings, spans = table_readings(text)
        if bench_keys := {(m.name, m.value) for m in found[bench_from:]}:
            # the keys of a bench_serving-style report in a "| Key | Value |" table (EvalScope's
            # "Benchmarking summary" grid) were read by _bench_serving above: one reading each
            readings = [r for r in readings if (r[0], r[1]) not in bench_keys]
        found.extend(Metric(*reading) for reading in readings)
        for start, end in reversed(spans):  # the prose scans below must not read a cell again
            text = text[:start] + text[end:]
    if "\n0  " in text:  # a pandas frame's row 0 (metric_tables.frame_readings)
        readings, spans = frame_readings(text)
        found.extend(Metric(*reading) for reading in readings)
        for start, end in reversed(spans):
            text = text[:start] + text[end:]
    if "   " in text and "\n" in text and ("tok" in text or "ccept" in text or "hroughput" in text or "acc" in text
                                         or "tps" in text or "TPS" in text):
        # a pandas frame with no row numbers (metric_tables.aligned_frame_readings)
        readings, spans = aligned_frame_readings(text)
        found.extend(Metric(*reading) for reading in readings)
        for start, end in reversed(spans):
            text = text[:start] + text[end:]
    # "tps" is people's shorthand, never a tool's: only prose pays for the two scans (5 us per
    # 10 KB each; a server log has " t" everywhere).
    tps = prose and ("p" in text or "P" in text) and _has_tps(text)
    if ("k" in text and "tok" in text) or ("/" in text and " t/s" in text) or tps:  # "/" first: a memchr
        # Decode batch lines name the unit as "(token/s)"; drop those before the prose scan.
        # A server log whose every "/s" is in one of its decode readings' "(token/s): " has
        # none left after that (each is followed by ":", so no "/s" or "per second" forms
        # across the cut), and copying the whole log to learn so costs more than counting.
        if decode_lines and ((only_readings and text is source) or text.count("/s") == decode_lines) \
                and not _HAS_PER_SECOND(text):
            pass
        else:
            lists = prose and ":" in text
            # what _throughput_prose would ask again: the same test on the same string (only a
            # prose text's tps was computed; a cut "(token/s)" may join a new "tps")
            tps_said = tps if prose is True else None
            prose = text.replace("(token/s)", "") if "(" in text and "(token/s)" in text else text
            if tps or "/s" in prose or "per second" in prose or "-per-sec" in prose:
                # every other spelling has one of them
                _throughput_prose(prose, found, lists, tps_said if prose is text else None)
    # The factor's sign is "x" or "×" ("Speedup: 1.62×", vllm-project/vllm#24243); "faster"
    # takes a percentage too ("28% faster than vanilla").
    if prose:
        # each sign looked for once, a memchr each, before the words' longer scans
        pct, factor = "%" in text, "x" in text or "×" in text
        if ((factor or pct) and ("peed" in text or "slower" in text)) or "faster" in text \
                or (("=" in text or ":" in text) and "peedup" in text):  # "speedup = 2.05": its "x" unsaid
            _speedups(text, found)
        if pct and ("hroughput" in text or "/s" in text):
            _percent_throughput(text, found)
        if (pct or factor) and ("aseline" in text or "anilla" in text or "egressive" in text or "AR " in text):
            _baseline_share(text, found)
        if factor and ("lower" in text or "higher" in text):
            _latency_ratios(text, found)
        if factor and "hroughput" in text:
            _throughput_factors(text, found)
        if factor and _names_drafting_or_baseline(text):
            _bare_factors(text, found)
        if not structured and "atency" in text and ("2e" in text or "2E" in text or "nd-to-end" in text
                                                    or "nd to end" in text):
            _e2e_latency_prose(text, found)
    _accuracy(text, found, log_accepts if text is source else 0, only_accepts and text is source)
    # A structured reading of a run's speed leaves its acceptance to the words: vLLM's offline
    # spec_decode.py example prints its progress bar, then "mean acceptance length: 2.95"
    # (vllm-project/vllm examples/offline_inference/spec_decode.py); only a reader that found
    # the acceptance itself (a server log's per-line readings) makes the words a repeat.
    if not (structured and any(m.name in _ACCEPT_NAMES for m in found)) and \
            (("c" in text and "ccept" in text) or ("#" in text and "#mean acc len" in text)):
        _accept_prose(text, found)  # (llama.cpp's totals say "acc": _LLAMA_SPEC_STATS)
    if prose and not structured and "A" in text and "AL" in text:
        _accept_al(text, found)
    return found


_ACCEPT_NAMES = frozenset({"accept_length", "accept_rate"})

_DRAFTED_ONLY = frozenset({"accept_length", "accept_rate", "speedup"})
"""What a run without speculation has none of: its "Acceptance length: 1.00" (sgl-project/sglang#4716's
w/o spec run) is no drafter's."""


def _read_parts(parts: list[tuple[bool, str]], prose: bool) -> list[Metric]:
    found: list[Metric] = []
    for baseline, part in parts:
        for m in scan_metrics(part, prose, False):
            if baseline and m.name in _DRAFTED_ONLY:
                continue
            if baseline and m.name == "throughput":
                m.name = "baseline_throughput"
            found.append(m)
    return found


def _read_files(files: list[tuple[str, bool, str]], prose: bool) -> list[Metric]:
    """Each file's readings, its name before their context; a file named as the run without
    speculation gives baselines, as a caption does (_read_parts)."""
    found: list[Metric] = []
    for file, baseline, part in files:
        for m in _read_parts([(baseline, part)], prose):
            m.context = f"{file}: {m.context}"
            found.append(m)
    return found


def name_by_hint(found: list[Metric], hint: str) -> list[Metric]:
    """Name the accuracies of a command with ``standalone`` in it, then order the metrics:
    baselines and claims first, so a sentence that states both compares them."""
    if hint and "standalone" in hint.lower():
        for m in found:
            if m.hintable:
                m.name = "standalone_accuracy"
    # With several baselines (a table of models, each with its own), each is already read just
    # before the readings it is the baseline of; moving them all first would compare every
    # reading with the last model's baseline.
    first = ("baseline_throughput", "validation_accuracy")
    if sum(m.name == "baseline_throughput" for m in found) > 1:
        first = ("validation_accuracy",)
    found.sort(key=lambda m: m.name not in first)
    return found


def pairing_order(found: list[Metric]) -> list[Metric]:
    """The metrics of one text (as :func:`name_by_hint` orders them) in the order the session
    compares them. A text that states each reading before its baseline ("tp = 1 / with eagle:
    30 tps / without eagle: 21 tps / tp = 4 / with eagle: 59 tps / without eagle: 61 tps",
    sgl-project/sglang#6949) pairs each baseline with the readings just before it: the 59 is
    compared with the 61 (a slowdown), not with the tp=1 run's 21. A text that states the
    baseline first (a table of models, each baseline row above its runs), or one baseline only
    (already first), is left as it is."""
    if len(found) < 3:
        return found
    kinds = [m.name for m in found]
    if kinds.count("baseline_throughput") < 2 or "throughput" not in kinds or \
            kinds.index("throughput") > kinds.index("baseline_throughput"):
        return found
    ordered: list[Metric] = []
    run: list[Metric] = []
    for m in found:
        if m.name == "throughput":
            run.append(m)
        elif m.name == "baseline_throughput":
            ordered.append(m)
            ordered.extend(run)
            run = []
        else:
            ordered.append(m)
    return ordered + run


_IDLE_FRACTION = 20
"""A Decode batch line whose throughput per running request is under 1/20 of the log's
highest measured an interval that was mostly idle."""
# The running requests of each Decode batch line: the first field after the line's name in
# every SGLang version read (python/sglang/srt/managers/scheduler_metrics_mixin.py), behind the
# forward counter a server run with SGLANG_LOG_FORWARD_ITERS puts after the name ("Decode batch
# [1840], #running-req: 8", sglang@01bb3c80 log_decode_stats: iter_msg).
_FORWARD_ITER = r"(?: \[\d+\])?"
_DECODE_RUNNING = re.compile(r"Decode batch" + _FORWARD_ITER + r"[.,] #running-req: (\d+)")


def _busy_intervals(text: str, values: list[float]) -> list[float] | None:
    """``values`` without the lines of a mostly idle interval; None when the lines' request
    counts cannot be paired with their readings."""
    running = _DECODE_RUNNING.findall(text)
    if len(running) != len(values):
        return None
    per_request = [v / max(int(n), 1) for v, n in zip(values, running)]
    floor = max(per_request) / _IDLE_FRACTION
    kept = [v for v, r in zip(values, per_request) if r >= floor]
    return kept or None


# With data-parallel attention (--dp-size N --enable-dp-attention) each DP rank's scheduler logs
# its own Decode batch lines, "[2026-08-23 09:06:21 DP1 TP1 EP1] Decode batch, ...", its own
# requests' tokens over the interval (sglang python/sglang/srt/managers/scheduler.py names the
# logger's prefix " DP{dp_rank}"): the server's throughput is the ranks' sum, as for the /metrics
# gauges (_sglang_gauges). The mean over every line read an 8-rank server at an eighth.
# Without a TP size over 1 the prefix is " DP1" alone: "[2026-08-23 09:06:21 DP1] Decode batch".
_DP_DECODE = re.compile(r" DP(\d+)\b[^\]\n]*\] Decode batch" + _FORWARD_ITER + r"(?:[.,] #running-req: (\d+))?[^\n]*?"
                        r"gen throughput \(token/s\): (\d+(?:\.\d+)?)")


def _dp_rank_sum(text: str, lines: int) -> tuple[float, str] | None:
    """The sum over DP ranks of each rank's mean throughput (its idle intervals left out, as
    _decode_batches does), and its context; None unless every Decode batch line names its rank
    and two ranks or more logged."""
    per_rank: dict[str, list[tuple[float, int]]] = {}
    for m in _DP_DECODE.finditer(text):
        per_rank.setdefault(m.group(1), []).append((float(m.group(3)), int(m.group(2) or 1)))
    if len(per_rank) < 2 or sum(map(len, per_rank.values())) != lines:
        return None
    total = 0.0
    for lines_of_rank in per_rank.values():
        busy = _rank_busy(lines_of_rank)
        total += sum(busy) / len(busy)
    return round(total, 2), f"SGLang Decode batch, sum over {len(per_rank)} DP ranks of each rank's mean ({lines} lines)"


def _first_line_has_rank(text: str) -> bool:
    """Whether the line of the first Decode batch reading has " DP" before it. _dp_rank_sum reads
    ranks only when every reading is one of a _DP_DECODE match, each on its own line after its
    " DP<rank>": a log whose first reading has none has no ranks to sum, and is spared the scan
    of the whole log for " DP1" (6 us over 10 KB, " D" on every line)."""
    first = _GEN_TPUT.search(text)
    return first is not None and text.find(" DP", text.rfind("\n", 0, first.start()) + 1, first.start()) >= 0


def _rank_busy(lines: list[tuple[float, int]]) -> list[float]:
    """A rank's readings without its mostly idle intervals, judged per running request as
    _busy_intervals does: a rank's batch shrinking from 64 requests to 1 is no idle spell."""
    floor = max(v / max(n, 1) for v, n in lines) / _IDLE_FRACTION
    return [v for v, n in lines if v / max(n, 1) >= floor] or [v for v, _ in lines]


def _spec_decode_readings(text: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None:
    """What _GEN_TPUT, _ACCEPT_LEN_LOG and _ACCEPT_RATE_LOG find in ``text``, when every one of
    their readings is in one of SGLang's speculating Decode batch lines (_SPEC_DECODE_READINGS)
    and ``text`` has neither a "/" nor an "acc" elsewhere; None otherwise.
    Exact: each line's match holds one "/" (its "(token/s)") and two "acc" (neither can overlap
    another, nor start across a match's edge: a match starts with "acc" and ends with a digit),
    so the counts say no other "gen throughput (token/s): " (it has a "/"), "accept len: " or
    "accept rate: " is outside them; each number read is the possessive one all four patterns
    read after the same label. Tried only where the first Decode batch line has an "accept len: "
    (a server without speculation logs none: its log is spared the scan)."""
    first = text.find("Decode batch")
    if first < 0:
        return None
    line_end = text.find("\n", first)
    if text.find("accept len: ", first, line_end if line_end >= 0 else len(text)) < 0:
        return None
    lines = (_SPEC_DECODE_READINGS_ASCII if text.isascii() else _SPEC_DECODE_READINGS).findall(text)
    if not lines or text.count("/") != len(lines) or text.count("acc") != 2 * len(lines):
        return None
    lens, rates, tputs = zip(*lines)
    return tputs, lens, rates


def _one_batch_size(text: str) -> str:
    """", batch size N" when every Decode batch line ran N requests: the row the readings are of
    (baselines.row_key), so a drafter measured at one request and then under production traffic
    at twelve does not "go from" 96 to 1410 tok/s, nor is the twelve compared with a baseline
    benchmarked at concurrency 1; "" where the lines' counts differ or are not written."""
    if "#running-req: " not in text or (first := _DECODE_RUNNING.search(text)) is None:
        return ""
    # The first two lines' counts, then the rest's: a batch that grows and shrinks mostly differs
    # by its second line already, and its log is spared the scan of the others (15% of a 40-line
    # log's readings). The rest is what findall from the first line on would find after the two
    # (a match is never empty, so findall goes on from its end).
    running = first.group(1)
    second = _DECODE_RUNNING.search(text, first.end())
    if second is not None and (second.group(1) != running
                               or any(n != running for n in _DECODE_RUNNING.findall(text, second.end()))):
        return ""
    return f", batch size {running}"


# A Decode batch line's accept readings as `grep -o` prints them ("-n" puts the line number first),
# its accept rate with them where the pattern took both ("accept len: 3.21, accept rate: 0.55")
_ACCEPT_LEN_ONLY = re.compile(r"^(?:\d+:)?accept len: (\d+(?:\.\d+)?)(?:, accept rate: (\d+(?:\.\d+)?))?,?[ \t\r]*$", re.M)


def _accept_len_lines(text: str, found: list[Metric]) -> str | None:
    """The mean of the lines that hold an "accept len: N" and nothing else, where two or more
    do; ``text`` without them, or None where fewer do."""
    lines = _ACCEPT_LEN_ONLY.findall(text)
    if len(lines) < 2:
        return None
    ctx = f"SGLang accept len, mean of {len(lines)} lines"
    found.append(Metric("accept_length", round(sum(float(a) for a, _ in lines) / len(lines), 3), "tokens", ctx))
    if all(rate for _, rate in lines):
        found.append(Metric("accept_rate", round(sum(float(r) for _, r in lines) / len(lines), 3), "ratio", ctx))
    return _ACCEPT_LEN_ONLY.sub("", text)


def _decode_batches(text: str, found: list[Metric]) -> tuple[int, int, bool]:
    """The mean readings of the Decode batch lines; returns how many throughput readings
    there were (0: none, and nothing is added), how many accept len and accept rate
    readings (each an "acc" of ``text``, see _accuracy), and whether every "/" and every "acc"
    of ``text`` is one of those readings' (False: not known)."""
    # Literal-anchored scans (fast) instead of one regex per whole line; a speculating server's
    # lines each by one match.
    if (readings := _spec_decode_readings(text)) is not None:
        tputs, lens, rates = readings
    else:
        tputs = _GEN_TPUT.findall(text)
        if not tputs:
            return 0, 0, False
        lens = _ACCEPT_LEN_LOG.findall(text)
        if lens and "block accept len: " in text:
            lens = _ACCEPT_LEN_NOT_BLOCK.findall(text)
        rates = _ACCEPT_RATE_LOG.findall(text)
    ctx = f"SGLang Decode batch, mean of {len(tputs)} line{'s' if len(tputs) != 1 else ''}" + _one_batch_size(text)
    if len(_FLOATS) > 200_000:
        _FLOATS.clear()
    number = _FLOATS.__getitem__
    values = list(map(number, tputs))
    # SGLang divides the tokens of a log interval by the time since the previous Decode batch
    # line (scheduler_metrics_mixin.py, log_decode_stats: num_generated_tokens / gap_latency),
    # so the first line after an idle spell counts the idle time too: "gen throughput
    # (token/s): 0.39" before 165-189 for the same single request (sgl-project/sglang#11948).
    # Such a line is no reading of decode speed. min and max first (a log without a suspect
    # is not scanned again); then per running request, since a batch shrinking from 64
    # requests to 1 lowers the total as much without any idle time.
    tput_ctx = ctx
    if len(values) > 1 and min(values) < max(values) / _IDLE_FRACTION:
        kept = _busy_intervals(text, values)
        if kept is not None and len(kept) < len(values):
            tput_ctx = f"SGLang Decode batch, mean of {len(kept)} of {len(values)} lines" \
                       f" ({len(values) - len(kept)} after an idle spell left out)"
            values = kept
    if _first_line_has_rank(text) and " DP1" in text and (ranks := _dp_rank_sum(text, len(tputs))) is not None:
        tput, tput_ctx = ranks
        found.append(Metric("throughput", tput, "tok/s", tput_ctx))
    else:
        found.append(Metric("throughput", round(sum(values) / len(values), 2), "tok/s", tput_ctx))
    if lens:
        found.append(Metric("accept_length", round(sum(map(number, lens)) / len(lens), 3), "tokens", ctx))
    if rates:
        found.append(Metric("accept_rate", round(sum(map(number, rates)) / len(rates), 3), "ratio", ctx))
    return len(tputs), len(lens) + len(rates), readings is not None


def _prefill_batches(text: str, found: list[Metric]) -> bool:
    """The mean input (prefill) throughput of SGLang's ``Prefill batch, ..., input throughput
    (token/s): X`` lines (``log_prefill_stats``): prompt tokens, no decode speed. A warm-up or
    health probe of one token logs ~0.0 and is no reading."""
    values = [v for v in map(_FLOATS.__getitem__, _INPUT_TPUT.findall(text)) if v > 0.5]
    if not values:
        return False
    found.append(Metric("prefill_throughput", round(sum(values) / len(values), 2), "tok/s",
                        f"SGLang Prefill batch, mean of {len(values)} line{'s' if len(values) != 1 else ''}"))
    return True


def _one_batch(text: str, found: list[Metric]) -> bool:
    """bench_one_batch's stage lines; the per-step ``Decode N.`` lines are dropped (the
    median line sums them up)."""
    hit = False
    for m in _ONE_BATCH.finditer(text):
        name = _ONE_BATCH_NAMES.get(m.group("stage"))
        if name is not None:
            found.append(Metric(name, float(m.group("value")), "tok/s",
                                f"bench_one_batch: {_context(text, m.start(), m.end())}{_one_batch_run_size(text, m)}"))
            hit = True
    return hit


# Only the per-step lines of a bench_one_batch run say its batch size (sglang 0.5.23
# sglang/benchmark/one_batch.py, latency_test_run_once: "Prefill. latency: ...", then "Decode {i}.
# Batch size: {batch_size}, latency: ..." for the first 5 steps, then "Decode.  median latency:
# ..." and "Total. latency: ..."), one run a value of --batch-size: its stage lines are of that row.
_ONE_BATCH_SIZE = re.compile(r"Decode \d+\. Batch size: (\d+),")


def _one_batch_run_size(text: str, m: re.Match) -> str:
    """`` (batch size N)`` of the run whose stage line ``m`` is (the step lines after its
    Prefill line, before its median and Total lines), after the line: its "Prefill." ends a
    sentence (baselines.row_key reads the row words of the reading's); "" where they are not in
    ``text``."""
    if m.group("stage") == "Prefill":
        after = text.find("Prefill. ", m.end())  # the next run's first line
        if (step := _ONE_BATCH_SIZE.search(text, m.end(), len(text) if after < 0 else after)) is None:
            return ""
    else:
        at = text.rfind("Prefill. ", 0, m.start())  # the run's first line
        if at < 0 or (step := _ONE_BATCH_SIZE.search(text, at, m.start())) is None:
            return ""
    return f" (batch size {step.group(1)})"


# KoboldCpp's line after each generation (LostRuins/koboldcpp gpttype_adapter.cpp, end of
# gpttype_generate): "[17:23:56] CtxLimit:612/4096, Amt:100/100, Init:0.01s, Process:0.28s
# (551.47T/s), Generate:2.48s (40.24T/s), Total:2.76s", with --debugmode "Process:0.28s (1.8ms/T =
# 551.47T/s), Generate:2.48s (24.8ms/T = 40.24T/s), Total:2.76s (36.23T/s)" (LostRuins/koboldcpp#972
# posts one). Process is the prompt's speed, Generate the decode speed, Total's both at once.
_KOBOLD_LINE = re.compile(r"Process:\s?\d+(?:\.\d+)?s \((?:\d+(?:\.\d+)?ms/T = )?(?P<prompt>\d+(?:\.\d+)?)T/s\), "
                          r"Generate:\s?(?P<secs>\d+(?:\.\d+)?)s \((?:\d+(?:\.\d+)?ms/T = )?(?P<gen>\d+(?:\.\d+)?)T/s\)")


def _koboldcpp(text: str, found: list[Metric]) -> bool:
    """The mean speeds of KoboldCpp's generation lines. A generation of one token or none
    ("Generate:0.00s (3.0ms/T = 333.33T/s)", an EOS at once) timed nothing: no reading."""
    lines = [m for m in _KOBOLD_LINE.finditer(text)]
    if not lines:
        return False
    gens = [float(m.group("gen")) for m in lines if float(m.group("secs")) > 0]
    prompts = [float(m.group("prompt")) for m in lines]
    if gens:
        found.append(Metric("throughput", round(sum(gens) / len(gens), 2), "tok/s",
                            f"KoboldCpp Generate, mean of {len(gens)} line{'s' if len(gens) != 1 else ''}"))
    found.append(Metric("prefill_throughput", round(sum(prompts) / len(prompts), 2), "tok/s",
                        f"KoboldCpp Process, mean of {len(prompts)} line{'s' if len(prompts) != 1 else ''}"))
    return True


def _eagle_speed(text: str, found: list[Metric]) -> bool:
    """EAGLE's evaluation summary (SafeAILab/EAGLE eagle/evaluation/speed.py): ``ratio R``, the
    mean tokens/s of the EAGLE answers over the baseline's (the speedup), and with its two
    commented-out prints restored, ``speed S`` and ``speed0 S0`` (as posted in SafeAILab/EAGLE#65:
    "speed 102.61022168131326 / speed0 39.460857776166044 / ratio 2.600303882478927"). The
    ratio is numpy's full-precision float, or comes with the speed0 line: a "ratio 2" elsewhere
    is another tool's."""
    speeds = dict(_EAGLE_SPEED.findall(text))
    ratio = speeds.get("ratio")
    if ratio is None or not ("speed0" in speeds or len(ratio.partition(".")[2]) >= 6):
        return False
    ctx = "EAGLE evaluation/speed.py"
    if "speed" in speeds:
        found.append(Metric("throughput", round(float(speeds["speed"]), 2), "tok/s", ctx))
    if "speed0" in speeds:
        found.append(Metric("baseline_throughput", round(float(speeds["speed0"]), 2), "tok/s", ctx))
    found.append(Metric("speedup", round(float(ratio), 3), "x", f"{ctx}: ratio {ratio}"))
    return True


# SGLang's EAGLE tuning sweep (scripts/playground/bench_speculative.py) launches a server for each
# (batch size, steps, topk, draft tokens), prints "Finish i=0: batch_size=1, steps=0, topk=0,
# num_draft_tokens=0, speed=95.10 token/s, step_time=10.52 ms" and appends {"batch_size": 1,
# "steps": 0, "topk": 0, "num_draft_tokens": 0, "acc_length": 1.0, "step_time": 0.01052, "speed":
# 95.1, ...} to its --output file. Steps 0 (topk and draft tokens 0) is its run without speculation
# ("a special case for non-speculative decoding", the script says): the baseline, which was read
# as one more drafting throughput. Its speed is acc_length / step_time, the decode step's time at
# that batch size: one request's tokens a second, the throughput at batch size 1 only.
_SWEEP_LINE = re.compile(r"^Finish i=\d+: (?P<row>batch_size=(?P<bs>\d+), steps=(?P<steps>\d+), topk=\d+, "
                         r"num_draft_tokens=\d+), speed=(?P<speed>\d+(?:\.\d+)?) token/s[^\n]*", re.M)
_SWEEP_RECORD = re.compile(r'^\{"batch_size": (?P<bs>\d+), "steps": (?P<steps>\d+), "topk": (?P<topk>\d+), '
                           r'"num_draft_tokens": (?P<draft>\d+), "acc_length": (?P<acc>\d+(?:\.\d+)?), '
                           r'"step_time": [^,\n]+, "speed": (?P<speed>\d+(?:\.\d+)?)[,}][^\n]*', re.M)


# Each run of the sweep begins with "Start i=0: batch_size=1, steps=0, topk=0, num_draft_tokens=0"
# (node0_print), then its server's log, sglang.bench_serving's benchmark() twice (a warmup, then the
# measure: a "Serving Benchmark Result" block each, at max_concurrency=batch_size), its Finish line.
# The steps=0 run is served without speculation: its blocks' readings are the baseline's.
_SWEEP_START = re.compile(r"^Start i=\d+: batch_size=\d+, steps=(?P<steps>\d+), topk=\d+, num_draft_tokens=\d+[ \t\r]*$",
                          re.M)


def _sweep_runs(text: str) -> list[tuple[bool, str]] | None:
    """``text`` cut at bench_speculative.py's Start lines, each run with whether it is the one
    without speculation (steps 0); None when no run is (the text is read whole)."""
    starts = [*_SWEEP_START.finditer(text)]
    if not any(m.group("steps") == "0" for m in starts):
        return None
    runs = [(False, text[:starts[0].start()])] if starts[0].start() else []
    for m, after in zip(starts, starts[1:] + [None]):
        runs.append((m.group("steps") == "0", text[m.start():len(text) if after is None else after.start()]))
    return runs


def _sweep_reading(found: list[Metric], bs: str, steps: str, speed: str, ctx: str) -> None:
    if bs != "1":
        name = "per_user_throughput"
    else:
        name = "baseline_throughput" if steps == "0" else "throughput"
    found.append(Metric(name, float(speed), "tok/s", ctx))


def _bench_speculative(text: str, found: list[Metric]) -> str | None:
    """The readings of bench_speculative.py's Finish lines and records (see _SWEEP_LINE); ``text``
    without them, for the scans after; None when it has none."""
    lines = [*_SWEEP_LINE.finditer(text)] if "Finish i=" in text else []
    records = [*_SWEEP_RECORD.finditer(text)] if '"acc_length": ' in text else []  # (its "{" was found)
    if not lines and not records:
        return None
    for m in lines:
        _sweep_reading(found, m.group("bs"), m.group("steps"), m.group("speed"), f"bench_speculative: {m.group('row')}")
    for m in records:
        ctx = (f"bench_speculative: batch_size={m.group('bs')}, steps={m.group('steps')}, topk={m.group('topk')}, "
               f"num_draft_tokens={m.group('draft')}")
        _sweep_reading(found, m.group("bs"), m.group("steps"), m.group("speed"), ctx)
        if m.group("steps") != "0":
            found.append(Metric("accept_length", float(m.group("acc")), "tokens", ctx))
    if lines:
        text = _SWEEP_LINE.sub("", text)
    return _SWEEP_RECORD.sub("", text) if records else text


# Each run's block opens with its batch size (sglang 0.5.23 sglang/benchmark/one_batch_server.py,
# run_one_case: print(f"batch size: {batch_size}") before "input throughput: ..."), one block a
# value of --batch-size: the row its readings are of (baselines.row_key reads "batch size N").
_ONE_BATCH_SERVER_SIZE = re.compile(r"batch size: (\d+)[ \t]*$", re.M)


def _one_batch_server(text: str, found: list[Metric]) -> bool:
    hit = False
    sized = -1  # where the last block's "batch size: " line was looked for from
    row = ""
    for m in _ONE_BATCH_SERVER.finditer(text):
        if m.group("key") not in _ONE_BATCH_SERVER_NAMES:  # (the steady-state one: removed, not read)
            continue
        if (at := text.rfind("batch size: ", 0, m.start())) != sized:
            sized = at
            size = _ONE_BATCH_SERVER_SIZE.match(text, at) if at >= 0 and (at == 0 or text[at - 1] == "\n") else None
            row = f" (batch size {size.group(1)})" if size else ""
        name, unit = _ONE_BATCH_SERVER_NAMES[m.group("key")]
        found.append(Metric(name, float(m.group("value")), unit, f"bench_one_batch_server{row}: {m.group(0).strip()}"))
        hit = True
    return hit


def _vllm_stats(text: str, found: list[Metric]) -> bool:
    """Mean readings of vLLM's periodic stat lines. An idle interval logs ``Avg generation
    throughput: 0.0 tokens/s`` (nothing decoded), which is no reading of decode speed."""
    number = _FLOATS.__getitem__
    gens = [v for v in map(number, _VLLM_GEN_TPUT.findall(text)) if v > 0]
    prompts = [v for v in map(number, _VLLM_PROMPT_TPUT.findall(text)) if v > 0]
    lens = [number(v) for v in _VLLM_MEAN_ACCEPT_LEN.findall(text)]
    rates = [number(v) for v in _VLLM_DRAFT_RATE.findall(text)]
    if "metrics: Draft" in text:
        rates += [number(v) for v in _VLLM_RATE_FIRST.findall(text)]
    v0_rates = [number(v) for v in _VLLM_V0_DRAFT_RATE.findall(text)] if "Speculative metrics: " in text else []
    v0 = _vllm_v0_totals(text) if v0_rates else None
    engines = _vllm_engine_sums(text) if gens and "Engine 001: " in text else None
    if engines is not None:
        found.append(Metric("throughput", engines[0], "tok/s", engines[2]))
    batch = _vllm_batch_size(text, len(gens)) if gens and engines is None else ""
    if engines is None and gens:
        found.append(Metric("throughput", round(sum(gens) / len(gens), 2), "tok/s",
                            _vllm_ctx("generation", gens) + batch))
    if engines is not None and engines[1]:
        found.append(Metric("prompt_throughput", engines[1], "tok/s", engines[2].replace("generation", "prompt")))
    elif prompts:
        found.append(Metric("prompt_throughput", round(sum(prompts) / len(prompts), 2), "tok/s",
                            _vllm_ctx("prompt", prompts)))
    # Several lines: their counts weigh them, as vLLM's own totals do (the rare path: a line a
    # logging interval, one every 10 s of serving)
    weighted = _vllm_by_drafts(text, len(lens), len(rates)) if len(lens) > 1 or len(rates) > 1 else (None, None)
    if weighted[0] is not None:
        found.append(Metric("accept_length", weighted[0], "tokens",
                            _vllm_ctx("SpecDecoding", lens) + _BY_DRAFTS + batch))
    elif lens:
        found.append(Metric("accept_length", round(sum(lens) / len(lens), 3), "tokens",
                            _vllm_ctx("SpecDecoding", lens) + batch))
    elif v0 is not None:
        found.append(Metric("accept_length", v0[0], "tokens", v0[2]))
    if weighted[1] is not None:
        found.append(Metric("accept_rate", weighted[1], "%", _vllm_ctx("SpecDecoding", rates) + _BY_DRAFTS + batch))
    elif rates:
        found.append(Metric("accept_rate", round(sum(rates) / len(rates), 2), "%",
                            _vllm_ctx("SpecDecoding", rates) + batch))
    elif v0_rates:
        if v0 is not None:
            found.append(Metric("accept_rate", v0[1], "ratio", v0[2]))
        else:
            found.append(Metric("accept_rate", round(sum(v0_rates) / len(v0_rates), 3), "ratio",
                                _vllm_ctx("Speculative metrics", v0_rates)))
    return bool(gens or prompts or lens or rates or v0_rates)


def _vllm_v0_totals(text: str) -> tuple[float, float, str] | None:
    """The accept length and rate of vLLM V0's "Speculative metrics" lines, from their counters:
    each line holds the server's totals so far, so a run's reading is its last line (a mean of the
    lines weighed the first minutes, warm-up included, as much as the hours after them). Totals
    that fall start another server's run: each run's last line counts, by its drafts."""
    rows = [(float(rate), int(k), int(drafted), int(emitted))
            for rate, k, _, drafted, emitted in _VLLM_V0_COUNTS.findall(text) if rate != "nan"]
    rows = [row for row in rows if row[1] and row[2]]
    if not rows:
        return None
    runs = [row for row, after in zip(rows, rows[1:]) if after[2] < row[2]] + [rows[-1]]
    steps = sum(drafted / k for _, k, drafted, _ in runs)
    length = round(sum(emitted for *_, emitted in runs) / steps, 3)
    # the rate as vLLM printed it (accepted / drafted of the totals), each run's by its drafts
    rate = round(sum(rate * drafted for rate, _, drafted, _ in runs) / sum(drafted for _, _, drafted, _ in runs), 3)
    ctx = "vLLM Speculative metrics stats, running totals of 1 line" if len(rows) == 1 else \
        f"vLLM Speculative metrics stats, running totals of the last of {len(rows)} lines"
    if len(runs) > 1:
        ctx = f"vLLM Speculative metrics stats, running totals of the last line of each of {len(runs)} runs " \
              f"({len(rows)} lines)"
    return length, rate, ctx


def _server_info(text: str, found: list[Metric]) -> bool:
    """The mean over the ranks of SGLang's get_server_info internal states. A server that has
    decoded nothing yet reports 0.0, which is no reading."""
    number = _FLOATS.__getitem__
    tputs = [v for v in map(number, _SERVER_GEN_TPUT.findall(text)) if v > 0]
    lens = [number(v) for v in _SERVER_ACCEPT_LEN.findall(text)]
    ctx = "SGLang get_server_info internal_states"
    if tputs:
        found.append(Metric("throughput", round(sum(tputs) / len(tputs), 2), "tok/s", ctx))
    if lens:
        found.append(Metric("accept_length", round(sum(lens) / len(lens), 3), "tokens", ctx))
    return bool(tputs or lens)


# The result a serving benchmark saves, printed with `cat` or `jq`: `vllm bench serve
# --save-result` writes one JSON object (vllm/benchmarks/serve.py: "output_throughput",
# "total_token_throughput", "mean_ttft_ms", "mean_e2el_ms", and against a speculative server
# "spec_decode_acceptance_length" and "spec_decode_acceptance_rate" in %), SGLang's
# bench_serving one JSON line per run to --output-file (python/sglang/bench_serving.py:
# "total_throughput", "mean_e2e_latency_ms", "accept_length"; its "result within benchmark.py:"
# line the same dict's repr). The keys name the lines both print (_BENCH_KEYS). A key seen again
# starts the next run's object. Percentiles, std and the request counts are not read.
_BENCH_JSON_KEYS = {
    "output_throughput": ("throughput", "tok/s"), "total_token_throughput": ("total_throughput", "tok/s"),
    "total_throughput": ("total_throughput", "tok/s"), "input_throughput": ("input_throughput", "tok/s"),
    "request_throughput": ("request_throughput", "req/s"),
    "mean_ttft_ms": ("ttft_mean", "ms"), "median_ttft_ms": ("ttft_median", "ms"),
    "mean_tpot_ms": ("tpot_mean", "ms"), "median_tpot_ms": ("tpot_median", "ms"),
    "mean_itl_ms": ("itl_mean", "ms"), "median_itl_ms": ("itl_median", "ms"),
    "mean_e2el_ms": ("e2e_latency_mean", "ms"), "median_e2el_ms": ("e2e_latency_median", "ms"),
    "mean_e2e_latency_ms": ("e2e_latency_mean", "ms"), "median_e2e_latency_ms": ("e2e_latency_median", "ms"),
    "accept_length": ("accept_length", "tokens"), "spec_decode_acceptance_length": ("accept_length", "tokens"),
    "spec_decode_acceptance_rate": ("accept_rate", "%"),
}
# Both results count the requests that "completed"; a config or an SLO file that names the same
# keys ({"output_throughput": 2000, "mean_ttft_ms": 500}) gives goals, no run's readings.
_BENCH_JSON_PAIR = re.compile(r"""(?<![\w])['"](%s|completed)['"]\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w.])"""
                              % "|".join(_BENCH_JSON_KEYS))


def _bench_result_json(text: str, found: list[Metric]) -> bool:
    """The readings of the saved benchmark results in ``text`` (see _BENCH_JSON_KEYS); only an
    object with an output throughput and some requests completed is a run's result."""
    runs: list[dict[str, re.Match]] = [{}]
    for m in _BENCH_JSON_PAIR.finditer(text):
        if m.group(1) in runs[-1]:
            runs.append({})
        runs[-1][m.group(1)] = m
    read = False
    for run in runs:
        completed = run.pop("completed", None)
        if completed is None or float(completed.group(2)) <= 0 or "output_throughput" not in run:
            continue  # a config's goals, or a run whose every request failed (its 0.0 tok/s no speed)
        for key, m in run.items():
            name, unit = _BENCH_JSON_KEYS[key]
            found.append(Metric(name, float(m.group(2)), unit, f"saved benchmark result: {m.group(0)}"))
        read = True
    return read


# bench_one_batch_server's --result-filename gets one JSON line a run (sglang 0.5.23
# sglang/benchmark/one_batch_server.py, BenchmarkResult.dump_to_jsonl): {"run_name": "default",
# "batch_size": 16, ..., "input_throughput": ..., "output_throughput": ..., "overall_throughput": ...,
# "last_ttft": ..., "last_gen_throughput": ..., "acc_length": ..., ...}, the numbers its stdout
# prints (_ONE_BATCH_SERVER); it counts no "completed" requests, so _bench_result_json read none.
# "acc_length" is 0 without speculation (printed only when > 0).
_ONE_BATCH_RECORD = re.compile(r'^\{"run_name": [^\n]*"output_throughput": [^\n]*$', re.M)
_ONE_BATCH_RECORD_KEY = re.compile(r'"(input_throughput|output_throughput|overall_throughput|last_gen_throughput'
                                   r'|acc_length)": (\d+(?:\.\d+)?)(?=[,}])')
_ONE_BATCH_RECORD_NAMES = {"input_throughput": ("prefill_throughput", "tok/s"), "output_throughput": ("throughput", "tok/s"),
                           "overall_throughput": ("total_throughput", "tok/s"),
                           "last_gen_throughput": ("last_gen_throughput", "tok/s"),
                           "acc_length": ("accept_length", "tokens")}


_ONE_BATCH_RECORD_SIZE = re.compile(r'"batch_size": (\d+)[,}]')


def _one_batch_records(text: str, found: list[Metric]) -> bool:
    hit = False
    for record in _ONE_BATCH_RECORD.finditer(text):
        # its "batch_size" is the run's row, as the stdout's "batch size: N" line is
        size = _ONE_BATCH_RECORD_SIZE.search(record.group(0))
        row = f" (batch size {size.group(1)})" if size else ""
        for m in _ONE_BATCH_RECORD_KEY.finditer(record.group(0)):
            value = float(m.group(2))
            if value > 0:
                name, unit = _ONE_BATCH_RECORD_NAMES[m.group(1)]
                found.append(Metric(name, value, unit, f"bench_one_batch_server result{row}: {m.group(0)}"))
                hit = True
    return hit


# SGLang's per-request "meta_info" while speculating (sgl-project/sglang#11441:
# "spec_accept_rate", accepted / drafted tokens, and "spec_accept_length", tokens a verify pass
# keeps), in a /generate response's JSON or the server's "Finish: ... out={'meta_info': {...}}" log
# line (a Python dict's repr, single quotes). One request each: the mean over those printed.
_REQUEST_SPEC_META = re.compile(r"""['"]spec_accept_(length|rate)['"]\s*:\s*(\d+(?:\.\d+)?(?:[eE]-?\d+)?)""")


# SGLang releases before #11441 give only the verify passes a request took: its accept length is
# its completion tokens over them, as SGLang's own test computes it (test/srt/test_eagle_infer.py:
# acc_length = meta_info["completion_tokens"] / meta_info["spec_verify_ct"]).
_META_INFO = re.compile(r"""['"]meta_info['"]\s*:\s*\{""")
_VERIFY_CT = re.compile(r"""['"]spec_verify_ct['"]\s*:\s*(\d+)(?![\d.])""")
_COMPLETION_TOKENS = re.compile(r"""['"]completion_tokens['"]\s*:\s*(\d+)(?![\d.])""")


def _verified_lengths(text: str) -> list[float]:
    """The accept length of each request whose meta_info has its verify passes and no
    ``spec_accept_length`` of its own (read by _REQUEST_SPEC_META)."""
    out = []
    for m in _META_INFO.finditer(text):
        end = bracket_end(text, m.end() - 1, REPR_QUOTES, REPR_BRACKETS)
        meta = text[m.end() - 1:end if end is not None else m.end() + 2000]
        if "spec_accept_length" in meta:
            continue
        verify, completion = _VERIFY_CT.search(meta), _COMPLETION_TOKENS.search(meta)
        if verify and completion and int(verify.group(1)) > 0:
            out.append(round(int(completion.group(1)) / int(verify.group(1)), 3))
    return out


def _request_meta(text: str, found: list[Metric]) -> bool:
    lengths, rates = [], []
    for key, value in _REQUEST_SPEC_META.findall(text):
        (lengths if key == "length" else rates).append(float(value))
    if "spec_verify_ct" in text:
        lengths.extend(_verified_lengths(text))
    ctx = "SGLang meta_info, mean of {} request{}"
    if lengths:
        found.append(Metric("accept_length", round(sum(lengths) / len(lengths), 3), "tokens",
                            ctx.format(len(lengths), "s" if len(lengths) != 1 else "")))
    if rates:
        found.append(Metric("accept_rate", round(sum(rates) / len(rates), 4), "ratio",
                            ctx.format(len(rates), "s" if len(rates) != 1 else "")))
    return bool(lengths or rates)


def _spec_counters(text: str, found: list[Metric]) -> bool:
    sums = {"drafts": 0.0, "draft_tokens": 0.0, "accepted_tokens": 0.0}
    for name, value in _SPEC_COUNTER.findall(text):
        sums[name] += float(value)
    if not sums["drafts"]:
        return False  # nothing drafted yet: no reading
    ctx = "vLLM /metrics spec_decode counters (since the server started)"
    found.append(Metric("accept_length", round(1 + sums["accepted_tokens"] / sums["drafts"], 3), "tokens", ctx))
    if sums["draft_tokens"]:
        found.append(Metric("accept_rate", round(100 * sums["accepted_tokens"] / sums["draft_tokens"], 2), "%", ctx))
    return True


# SGLang's /metrics gauges (python/sglang/srt/metrics/collector.py): "sglang:spec_accept_length"
# (accepted drafts + the bonus token a forward), "sglang:spec_accept_rate" (accepted over proposed
# drafts) and "sglang:gen_throughput" (token/s), each the last logged batch's, one line a data-parallel
# rank or label set. A curl of the endpoint is how an agent reads a running server; 0 is an idle
# server's, no reading.
_SGLANG_GAUGE = re.compile(r"^sglang:(spec_accept_length|spec_accept_rate|gen_throughput)(\{[^}\n]*\})?"
                           r"[ \t]+(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)[ \t\r]*$", re.M)
_SGLANG_GAUGE_NAMES = {"spec_accept_length": ("accept_length", "tokens"), "spec_accept_rate": ("accept_rate", "ratio"),
                       "gen_throughput": ("throughput", "tok/s")}


def _sglang_gauges(text: str, found: list[Metric]) -> bool:
    # a series is a label set; an agent polling the endpoint ("for i in 1 2 3; do curl .../metrics |
    # grep gen_throughput; done") prints one series again and again: its readings are averaged
    series: dict[str, dict[str, list[float]]] = {}
    for key, labels, value in _SGLANG_GAUGE.findall(text):
        if float(value) > 0:
            series.setdefault(key, {}).setdefault(labels, []).append(float(value))
    for key, by_labels in series.items():
        name, unit = _SGLANG_GAUGE_NAMES[key]
        got = [sum(polled) / len(polled) for polled in by_labels.values()]
        # the ranks' speeds add up to the server's; their acceptance is one drafter's, averaged
        value = sum(got) if name == "throughput" else sum(got) / len(got)
        found.append(Metric(name, round(value, 4), unit, f"SGLang /metrics sglang:{key} ({len(got)} series)"))
    return bool(series)


# A data-parallel vLLM server (--data-parallel-size N) logs one stats line per engine each
# interval, "Engine 000: Avg prompt throughput: ..., Avg generation throughput: 400.0 tokens/s" and
# "Engine 001: ..." (vllm/v1/metrics/loggers.py: a LoggingStatLogger per engine index, each
# counting its own engine's tokens): the server's throughput is the engines' sum, as for SGLang's
# DP ranks (_dp_rank_sum). The mean over every line read a 2-engine server at half.
_VLLM_ENGINE_STATS = re.compile(r"Engine (\d+): Avg prompt throughput: (\d+(?:,\d{3})*(?:\.\d+)?) tokens/s, "
                                r"Avg generation throughput: (\d+(?:,\d{3})*(?:\.\d+)?) tokens/s")


def _vllm_engine_sums(text: str) -> tuple[float, float, str] | None:
    """The sums over engines of each engine's mean generation and prompt throughput (an engine's
    idle lines, 0.0, left out as _vllm_stats does), and their context; None unless every stats
    line names its engine and two engines or more logged."""
    number = _FLOATS.__getitem__
    per_engine: dict[str, tuple[list[float], list[float]]] = {}
    lines = 0
    for m in _VLLM_ENGINE_STATS.finditer(text):
        prompts, gens = per_engine.setdefault(m.group(1), ([], []))
        prompts.append(number(m.group(2)))
        gens.append(number(m.group(3)))
        lines += 1
    if len(per_engine) < 2 or lines != len(_VLLM_GEN_TPUT.findall(text)):
        return None

    def engine_sum(which: int) -> float:
        busy = [[v for v in values[which] if v > 0] for values in per_engine.values()]
        return round(sum(sum(values) / len(values) for values in busy if values), 2)

    return engine_sum(1), engine_sum(0), \
        f"vLLM generation stats, sum over {len(per_engine)} engines of each engine's mean ({lines} lines)"


# One vLLM SpecDecoding line and its counts (vLLM 0.8.3 on; 0.34.0 vllm/v1/spec_decode/metrics.py,
# SpecDecodingLogging.log: "SpecDecoding metrics: Mean acceptance length: %.2f, ..., Accepted: %d
# tokens, Drafted: %d tokens, Per-position acceptance rate: %s, Avg Draft acceptance rate: %.1f%%").
_VLLM_SPEC_LINE = re.compile(r"SpecDecoding metrics: [^\n]*")
_VLLM_SPEC_COUNTS = re.compile(r"Accepted: (\d+) tokens, Drafted: (\d+) tokens")
_VLLM_SPEC_POSITIONS = re.compile(r"Per-position acceptance rate: (\d[\d., ]*)")
_BY_DRAFTS = ", weighted by their drafts"


def _vllm_by_drafts(text: str, lens: int, rates: int) -> tuple[float | None, float | None]:
    """The accept length and rate (%) of ``text``'s vLLM SpecDecoding lines, each line weighted by
    what it counted; (None, None) where a line lacks its counts, and None for a reading some line
    gave that no line's counts account for (``lens``, ``rates``: how many of each the text gave).

    Each line is one logging interval (10 s), whatever ran in it: the interval a benchmark ended
    in drafts a few dozen tokens where the others drafted thousands, and a plain mean of the lines
    gave it the weight of a full one. vLLM's own reading of a run is its totals (0.34.0
    vllm/benchmarks/serve.py: acceptance_rate = accepted / draft tokens * 100, acceptance_length =
    1 + accepted / drafts); the rate here is the counts' ratio, the length the lines' weighted by
    their drafts as the diagnosis of a server log weighs them
    (:func:`spec_debug.diagnose.serverlog._weigh_by_drafts`), which is 1 + accepted / drafts."""
    from spec_debug.diagnose.serverlog import _weigh_by_drafts  # (this rare path only)

    lines: list[tuple[float | None, int | None, int | None, list[float] | None]] = []
    for line in _VLLM_SPEC_LINE.findall(text):
        counts = _VLLM_SPEC_COUNTS.search(line)
        if counts is None:
            return None, None
        length = _VLLM_MEAN_ACCEPT_LEN.search(line)
        positions = _VLLM_SPEC_POSITIONS.search(line)
        lines.append((_FLOATS[length.group(1)] if length else None, int(counts.group(1)), int(counts.group(2)),
                      [float(r) for r in positions.group(1).replace(" ", "").split(",") if r] if positions else None))
    weighed = _weigh_by_drafts(lines)[0]
    drafts = sum(n for _, n in weighed)
    length = round(sum(al * n for al, n in weighed) / drafts, 3) if len(weighed) == lens and drafts > 0 else None
    drafted = sum(d for _, _, d, _ in lines)
    # (a line of an interval that drafted nothing, all its requests in prefill, has no rate:
    # "Drafted: 0 tokens, ..., Avg Draft acceptance rate: nan%", numpy's 0 / 0)
    rate = round(100 * sum(a for _, a, _, _ in lines) / drafted, 2) \
        if drafted and sum(1 for _, _, d, _ in lines if d) == rates else None
    return length, rate


# A stats line's busy count (vllm/v1/metrics/loggers.py LoggingStatLogger.log: "Avg generation
# throughput: %.1f tokens/s, Running: %d reqs, Waiting: %d reqs, ..."; V0's metrics.py: "...,
# Running: %d reqs, Swapped: %d reqs, Pending: %d reqs")
_VLLM_RUNNING = re.compile(r"Avg generation throughput: (\d+(?:,\d{3})*(?:\.\d+)?) tokens/s, Running: (\d+) reqs")


def _vllm_batch_size(text: str, busy: int) -> str:
    """", batch size N" when every busy stats line (of the ``busy`` the readings are the mean of)
    ran N requests, as SGLang's Decode batch lines say it (_one_batch_size): a log read at one
    request, then a `vllm bench serve --max-concurrency 32`, "went from" 85.3 to 1100.5 tok/s in
    the postmortem. "" where the counts differ or a line does not say its count."""
    if "Running: " not in text:
        return ""
    counts = [running for gen, running in _VLLM_RUNNING.findall(text) if _FLOATS[gen] > 0]
    if len(counts) != busy or len(set(counts)) != 1:
        return ""
    return f", batch size {counts[0]}"


def _vllm_ctx(what: str, values: list[float]) -> str:
    return f"vLLM {what} stats, mean of {len(values)} line{'s' if len(values) != 1 else ''}"


class _FloatCache(dict):
    """``float(s)`` by its text. A server log repeats the same few hundred values (accept len
    2.31, accept rate 0.55) on every line, and a dict hit costs a quarter of a ``float()``."""

    def __missing__(self, text: str) -> float:
        value = self[text] = float(text.replace(",", "") if "," in text else text)  # "1,523.4"
        return value


_FLOATS = _FloatCache()


def _labelled_bars(text: str) -> list[Metric] | None:
    """The final bars of several runs, one a line, each under its own label, as people post them
    side by side: "* vanilla, [02:08<00:00, ... output: 128.64 toks/s]", "* k=2: [01:34<00:00,
    ... output: 175.49 toks/s]" (vllm-project/vllm#16035). Each line is a run (a label that
    names the run without speculation makes it the baseline); None when the bars are one run's
    redraws or carry no label of their own ("Processed prompts: 100%|...", the same on each)."""
    last: dict[int, tuple[int, float]] = {}
    for m in _TQDM_SPEED.finditer(text):
        last[text.rfind("\n", 0, m.start()) + 1] = (m.start(), float(m.group(1)))
    if len(last) < 2:
        return None
    runs, labels = [], set()
    for line_start, (at, value) in last.items():
        bracket = text.find("[", line_start, at)
        label = text[line_start:bracket].strip(" \t*-,:|") if bracket >= 0 else ""
        if not label or "%|" in label or "\r" in label or label in labels or len(label) > 60:
            return None
        labels.add(label)
        name = "baseline_throughput" if _BASELINE_LABEL.search(label) else "throughput"
        runs.append(Metric(name, value, "tok/s", f"vLLM progress bar of {label}: output {value} toks/s"))
    return runs


# llama.cpp's SPEED-Bench comparison (tools/server/bench/speed-bench/speed_bench_compare.py,
# print_comparison; ggml-org/llama.cpp#23869): one row per category, whitespace-aligned under a
# rule of dashes: "category  base_avg_pred_t/s  spec_avg_pred_t/s  decode_speedup  ...  accept_rate",
# the run without speculation's decode speed, the speculative run's, their ratio ("1.64x") and
# the acceptance rate.
_HAS_PRED_TS = re.compile("_pred_t/s").search
_SPEED_BENCH_HEAD = re.compile(r"^[ \t]*category[ \t]+base_avg_pred_t/s[ \t]+spec_avg_pred_t/s[ \t][^\n]*$", re.M)
_SPEED_BENCH_COLUMNS = {"base_avg_pred_t/s": ("baseline_throughput", "tok/s"), "spec_avg_pred_t/s": ("throughput", "tok/s"),
                        "decode_speedup": ("speedup", "x"), "accept_rate": ("accept_rate", "ratio")}
_PLAIN_NUMBER = re.compile(r"(\d+(?:\.\d+)?)x?")


# TensorRT-LLM's C++ gptManagerBenchmark (benchmarks/cpp/gptManagerBenchmark.cpp, report()):
# "[BENCHMARK] token_throughput(token/sec) 340.25" (output tokens over the run's time, as
# bench_serving's output throughput), "[BENCHMARK] user_tokens_per_second(tokens/sec/user) X" when
# streaming, and "[BENCHMARK] avg_acceptance_rate(tokens/decoding steps) 2.71": tokens per
# decoding step, the mean acceptance length whatever its name says (1.00 with no speculation, so
# 1.00 is no reading: it cannot tell a run without a draft from one that accepts nothing). Its
# Python benchmark.py puts all on one line: "... tokens_per_sec 43.09 ... generation_tokens_per_second
# 50.379", the first over the whole request, the second the decode phase's (NVIDIA/TensorRT-LLM#1410).
# Copied into Markdown the brackets may be escaped ("\[BENCHMARK\]"), a timestamp before them.
_TRTLLM_BENCH = re.compile(r"\\?\[BENCHMARK\\?\] (?:[^\n]*? )?(?P<key>token_throughput\(token/sec\)"
                           r"|user_tokens_per_second\(tokens/sec/user\)|avg_acceptance_rate\(tokens/decoding steps\)"
                           r"|generation_tokens_per_second) (?P<value>\d+(?:\.\d+)?)")
_TRTLLM_KEYS = {"token_throughput(token/sec)": ("throughput", "tok/s"),
                "user_tokens_per_second(tokens/sec/user)": ("per_user_throughput", "tok/s"),
                "avg_acceptance_rate(tokens/decoding steps)": ("accept_length", "tokens"),
                "generation_tokens_per_second": ("throughput", "tok/s")}


def _trtllm_bench(text: str, found: list[Metric]) -> bool:
    read = False
    for m in _TRTLLM_BENCH.finditer(text):
        name, unit = _TRTLLM_KEYS[m.group("key")]
        value = float(m.group("value"))
        if name == "accept_length" and value <= 1.0:
            continue
        found.append(Metric(name, value, unit, f"TensorRT-LLM benchmark: {m.group('key')} {m.group('value')}"))
        read = True
    return read


def _speed_bench(text: str, found: list[Metric]) -> bool:
    head = _SPEED_BENCH_HEAD.search(text)
    if head is None:
        return False
    columns = head.group(0).split()
    pos, read = head.end() + 1, False
    while pos < len(text):
        nl = text.find("\n", pos)
        end = len(text) if nl < 0 else nl
        row = text[pos:end].split()
        pos = end + 1
        if not row or row[0].startswith("```"):
            break
        if len(row) != len(columns) or set(row[0]) == {"-"}:
            continue  # the rule under the header
        for column, cell in zip(columns, row):
            if column in _SPEED_BENCH_COLUMNS and (m := _PLAIN_NUMBER.fullmatch(cell)):
                name, unit = _SPEED_BENCH_COLUMNS[column]
                found.append(Metric(name, float(m.group(1)), unit, f"speed_bench_compare {row[0]}: {column} {cell}"))
                read = True
    return read


# EvalScope's "Benchmarking summary" (modelscope/evalscope, `evalscope perf`): the same keys in a
# grid table, one "| Output token throughput (tok/s)   |  893.269  |" row each between "+---+"
# rules (modelscope/evalscope#1101; sgl-project/sglang#5274 compares EAGLE-3 with it).
_BENCH_ROW = re.compile(r"^\|[ \t]*(?P<key>[A-Za-z][^|\n]{2,60}?)[ \t]*\|[ \t]*(?P<value>-?\d+(?:,\d{3})*(?:\.\d+)?)[ \t]*\|[ \t\r]*$", re.M)
# NVIDIA GenAI-Perf's console table (triton-inference-server/perf_analyzer genai-perf, rich's box
# characters): "│ Output Token Throughput (per sec) │   256.94 │    N/A │ ..." under "┃ Statistic ┃ avg ┃
# min ┃ ...": the first number is the average (triton-inference-server/tutorials#150, an EAGLE run).
# rich prints its numbers with thousands commas ("│ Output Token Throughput (per sec) │ 1,082.84 │"):
# every run at 1000 tok/s or more was lost. A table quoted in Markdown has "> " before each row.
# Later GenAI-Perf and its successor AIPerf (ai-dynamo/aiperf) name the units "tokens/sec",
# "tokens/sec/user" and "requests/sec".
_GENAI_PERF_ROW = re.compile(r"^[ \t>]*\u2502[ \t]*(?P<key>[A-Za-z][^\u2502\n]{2,60}?)[ \t]*\u2502[ \t]*"
                             r"(?P<value>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)[ \t]*\u2502", re.M)
_GENAI_PERF_KEYS = {**_GENAI_PERF_THROUGHPUTS,
                    "output token throughput per user (tokens/sec/user)": ("per_user_throughput", "tok/s"),
                    "total token throughput (tokens/sec)": ("total_throughput", "tok/s"),
                    # The latency rows, in ms: GenAI-Perf writes "Time To First Token", AIPerf "Time
                    # to First Token" (ai-dynamo/aiperf metrics/types/ttft_metric.py). Both compute
                    # "Inter Token Latency" per request as (request latency - TTFT) / (output tokens
                    # - 1) (aiperf inter_token_latency_metric.py): what vLLM's bench calls TPOT, not
                    # its ITL (the gaps between chunks). "Request Latency" is first byte sent to last
                    # token received: vLLM's E2EL.
                    "time to first token (ms)": ("ttft_mean", "ms"),
                    "inter token latency (ms)": ("tpot_mean", "ms"),
                    "request latency (ms)": ("e2e_latency_mean", "ms")}


# GenAI-Perf's CSV export (profile_export_genai_perf.csv, genai_perf/export_data/csv_exporter.py),
# printed with `cat`: under "Metric,avg,min,max,p99,..." each request metric's row, its first
# value the average; under "Metric,Value" the throughputs. Names as in its console table, numbers
# formatted "{:,.2f}", so csv quotes those of 1000 and more ("Request Latency (ms),"1,657.72",...).
_GENAI_PERF_CSV_ROW = re.compile(r'^(?P<key>[A-Z][^,"\n]{2,60}),(?P<q>"?)'
                                 r'(?P<value>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P=q)(?:,|[ \t\r]*$)', re.M)


# The concurrency a serving benchmark ran at, on a line of its result block: "Max request
# concurrency: 8" (sglang 0.5.23 python/sglang/benchmark/serving.py, "not set" without
# --max-concurrency), "Maximum request concurrency: 8" (vllm 0.34.0 vllm/benchmarks/serve.py, only
# when set). It is the row its readings were taken at (baselines.row_key), as the command's
# --max-concurrency is; a script or a loop that runs the benchmark ("bash bench.sh", "for c in 1
# 16; do ... --max-concurrency $c") shows no such flag, and a reading at concurrency 1 was compared
# with a baseline said at 16.
_BENCH_CONCURRENCY = re.compile(r"^Max(?:imum)? request concurrency:[ \t]+(\d+)[ \t\r]*$", re.M)
_BENCH_BANNER = " Serving Benchmark Result "


def _block_concurrency(text: str) -> tuple[list[int], list[str]] | None:
    """Where each concurrency line of ``text`` starts, and its concurrency; None when it has none."""
    lines = list(_BENCH_CONCURRENCY.finditer(text))
    return ([m.start() for m in lines], [m.group(1) for m in lines]) if lines else None


def _row_of(text: str, at: int, rows: tuple[list[int], list[str]]) -> str:
    """", concurrency N" of the reading at ``at``: the last concurrency line before it, within its
    result block (no banner of another block between them); "" where there is none."""
    starts, values = rows
    i = bisect_right(starts, at) - 1
    if i < 0 or text.rfind(_BENCH_BANNER, starts[i], at) >= 0:
        return ""
    return f", concurrency {values[i]}"


def _bench_serving(text: str, found: list[Metric]) -> bool:
    hit = False
    rows = _block_concurrency(text) if "request concurrency:" in text else None
    for pattern, tool, keys in ((_BENCH_LINE, "bench_serving", _BENCH_KEYS), (_BENCH_ROW, "evalscope perf", _BENCH_KEYS),
                                (_GENAI_PERF_ROW, "genai-perf", _GENAI_PERF_KEYS),
                                (_GENAI_PERF_CSV_ROW, "genai-perf csv", _GENAI_PERF_KEYS)):
        if (pattern is _BENCH_ROW and "|" not in text) or (pattern is _GENAI_PERF_ROW and "\u2502" not in text) \
                or (pattern is _GENAI_PERF_CSV_ROW and "Metric,avg," not in text and "Metric,Value" not in text):
            continue
        for m in pattern.finditer(text):
            label = key = m.group("key").strip()
            value = float(m.group("value").replace(",", ""))
            if key.lower() not in keys and pattern is _GENAI_PERF_ROW:
                label = key = _wrapped_statistic(text, m.end(), key)
                if key.endswith(" (ns)") and key.lower()[:-5] + " (ms)" in keys:
                    # GenAI-Perf before its ms (the 24.06 SDK image): "│ Request latency (ns) │
                    # 4,110,623,430 │" (triton-inference-server/perf_analyzer#437); was no reading
                    key, value = key[:-5] + " (ms)", round(value / 1e6, 3)
            if key.lower() in keys:
                hit = True
                if value == 0:
                    # a run whose every request failed ("Successful requests: 0"; vLLM's bench warns
                    # "All requests failed") prints 0.00 for each: no measurement of the server
                    continue
                name, unit = keys[key.lower()]
                row = _row_of(text, m.start(), rows) if rows is not None and pattern is _BENCH_LINE else ""
                found.append(Metric(name, value, unit, f"{tool}: {label}{row}"))
    return hit


# rich wraps a statistic's name that is wider than its column onto the rows below, their other
# cells blank: "│             Output Token Throughput │      2.90 │       N/A │ ..." then "│
# (tokens/sec) │           │ ..." (triton-inference-server/perf_analyzer#433, a narrow terminal).
# The first row's name alone is no key, and the run's output throughput was lost.
_STATISTIC_GOES_ON = re.compile(r"[^\n]*\n[ \t>]*\u2502[ \t]*(?P<more>[^\u2502\s][^\u2502\n]{0,60}?)[ \t]*(?:\u2502[ \t]*)+\r?$",
                                re.M)


def _wrapped_statistic(text: str, end: int, key: str) -> str:
    """The statistic's whole name when rich wrapped it onto the rows after the one ending at
    ``end`` (see _STATISTIC_GOES_ON); ``key`` as it is when it was not."""
    for _ in range(2):
        more = _STATISTIC_GOES_ON.match(text, end)
        if more is None:
            break
        key, end = f"{key} {more.group('more')}", more.end()
    return key


def _tok_units(text: str) -> list[re.Match]:
    """_TOK_UNIT's matches in ``text``: each starts with "tok", found by str.find (a skip search,
    ~0.8 ns a character), where the regex's scan for its prefix stops at every "t" (~2 ns a
    character; a bench message of 580 characters and one reading: 1.09 -> 0.84 us). A text with
    many a "tok" (a server log's "#token: ") leaves the rest to the regex's scan, one call."""
    units = []
    at = text.find("tok")
    for _ in range(4):
        if at < 0:
            return units
        if (unit := _TOK_UNIT.match(text, at)) is not None:
            units.append(unit)
            at = unit.end()
        else:
            at += 3  # "tok" cannot overlap itself
        at = text.find("tok", at)
    if at >= 0:
        units += _TOK_UNIT.finditer(text, at)
    return units


def _throughput_prose(text: str, found: list[Metric], lists: bool = False, tps: bool | None = None) -> None:
    """``lists``: a unit with no number before it may head a list of bare readings (see
    :func:`_listed_under`); people write those, tools do not. ``tps``: whether ``text`` has a
    "tps" unit (:func:`_has_tps`), when the caller has asked already; None: not asked."""
    # Find the unit (a literal scan), then read the number just before it.
    units = _tok_units(text)
    extra = [*_T_UNIT.finditer(text)] if "/" in text and " t/s" in text else []
    if tps is None:
        tps = ("p" in text or "P" in text) and _has_tps(text)
    if tps:
        extra += _TPS_UNIT.finditer(text)
    if extra:
        units = sorted([*units, *extra], key=lambda m: m.start())
    headers = []  # units with no number before them: "tokens/s: 50.58", or a list's header
    signs = "+" in text or "\u00b1" in text
    for unit in units:
        at, end = unit.span()
        if text[end:end + 1] == "=" and (key := _UNIT_KEY.match(text, end)) is not None \
                and (at == 0 or text[at - 1] in " \t,"):
            _unit_key(text, at, key, found)
            continue
        if at == 0 or not (text[at - 1].isdigit() or text[at - 1] in " *`"):
            headers.append(unit)
            continue  # "(token/s): 54.8" and the like: no number before the unit
        m = _NUMBER_BEFORE.search(text, _number_from(text, at), at)
        if m is None or (text[m.start() - 1:m.start()] == ":" and _minutes_of_a_time(text, m)):
            headers.append(unit)  # (a clock's minutes follow its colon; the match starts at its value)
            continue
        start = m.start("value")
        if text[start - 1:start] in ("-", "\u2212") and (start < 2 or text[start - 2] in " \t\n|(:=") \
                and not _glued_range(text, start, m.group("value")):
            continue  # "gain of -5 tok/s", "| -5 tok/s |": a change, no run's speed (as "+5 tok/s"; was 5,
            # and "60 -5 tok/s" the range 60 to -5)
        value = float(m.group("value").replace(",", ""))
        if m.group("k"):
            value = round(value * 1000, 3)
            if _K_RANGE_START.search(text, max(0, start - 24), start):
                continue  # "1.2k-1.5k tok/s": see _K_RANGE_START
        elif text[start - 1:start] in ("-", "\u2013", "~") and (r := _RANGE_START.search(text, max(0, start - 24), start)):
            start, value = r.start("value"), round((float(r.group("value")) + value) / 2, 3)
        elif text[start - 3:start] in (" - ", " \u2013 ") and (r := _spaced_range(text, start, value)):
            start, value = r.start("value"), round((float(r.group("value")) + value) / 2, 3)
        elif text[start - 4:start] == "and " and (r := _BETWEEN.search(text, max(0, start - 40), start)):
            start, value = r.start("value"), round((float(r.group("value")) + value) / 2, 3)
        if text[at - 1].isdigit() and text[at:at + 3] in ("tps", "TPS") and _glued_in_a_name(text, start, end):
            continue
        # A number after a word and a space ("was 97.1 tok/s") is no path's segment and follows no
        # comparison or sign: the checks for those look at the characters just before it.
        after_word = text[start - 1:start] == " " and text[start - 2:start - 1].isalpha()
        if not after_word and (_in_path(text, start, end) or _after_comparison_sign(text, start)):
            continue
        if signs and not after_word:  # (neither sign in the text: the character at ``sign`` is none of them)
            sign = len(text[max(0, start - 4):start].rstrip(" ")) + max(0, start - 4) - 1  # the sign's offset
            if text[sign:sign + 1] == "\u00b1" and (mean := _BEFORE_SPREAD.search(text, max(0, sign - 24), sign)):
                # "54.8±0.3 tok/s", "54.8 ± 0.3 tok/s": the mean is the reading, its spread none
                start, value = mean.start("value"), float(mean.group("value"))
            elif text[sign:sign + 1] in ("+", "\u00b1"):
                # a change or a spread, no run's speed: "| ~+2-6 t/s |" in a column of what each
                # change gained (ggml-org/llama.cpp#27173), "(spread ±0.2 tok/s)"
                continue
        if _not_measured(text, start, end):
            continue
        before = text[start - 24 if start > 24 else 0:start]  # (a conditional: max() is a call, 5x its cost)
        if ("#" in before[-2:] or "id" in before or "ort" in before) and \
                _IDENTIFIER_BEFORE.search(before[-10:].lower()):
            continue  # "port 30000 tok/s", "PR #12345 tok/s"
        if _PER_USER.match(text, end) is not None or \
                (("ser" in before or "tream" in before)
                 and _PER_USER_BEFORE.search(before) is not None):
            # one request's share of a batch ("279.27 tok/s per user, for a total throughput of
            # 1,727.62 tok/s"): compared with a batch's baseline it reads as a slowdown
            found.append(Metric("per_user_throughput", value, "tok/s", _context(text, start, end)))
            continue
        if ("ccepted" in before or "rafted" in before) and _DRAFT_COUNT_BEFORE.search(before):
            continue  # vLLM's draft-token rates, quoted without their "SpecDecoding metrics:" line
        if "tg_3s" in before:
            # llama-server's progress line "n_decoded = 111, tg = 36.66 t/s, tg_3s = 36.66 t/s"
            # (ggml-org/llama.cpp#24541): the last 3 seconds' speed repeats the line's "tg"
            continue
        name = _throughput_name(text, start, end)
        if name == "throughput" and "from" in text[start - 8 if start > 8 else 0:start] and \
                (second := _SECOND_READING.match(text, end)) is not None and _from_speculation(text, start, second.end()):
            name = "baseline_throughput"  # "from 20 tok/s to 50 tok/s with EAGLE3"
        kind = _not_decode(text, start, end)
        if kind == "draft":
            continue
        if kind is not None and not (kind == "total_throughput" and name == "baseline_throughput"):
            # A total stated as the run without speculation stays its baseline: the readings it
            # is set against are the same kind ("Total throughput 1800 tok/s without speculation,
            # 1500 tok/s with EAGLE3": the slowdown is SD501's), as before "total" was read.
            name = kind
        window = before  # (the same slice: ``start`` is unchanged since)
        if ("to" in window or "vs" in window or "->" in window or "ersus" in window or "\u2192" in window) and \
                (pair := _PAIR_FIRST.search(text, max(0, start - 24), start)) is not None:
            first = pair.start("low" if pair.group("low") else "value")
            first_value = size = float(pair.group("value").replace(",", ""))
            if pair.group("k"):  # "from 1.2k to 1.5k tok/s", as the second is read (was: the second only)
                first_value, size = round(first_value * 1000, 3), first_value * 1024  # a "32k" context is 32768
            elif pair.group("low"):
                first_value = round((float(pair.group("low")) + first_value) / 2, 3)
            before_first = text[max(0, first - 30):first].lower()
            if _setting_before(before_first) or \
                    (_a_size(size, value) and not _SPEED_BEFORE.search(before_first)):
                found.append(Metric(name, value, "tok/s", _context(text, start, end)))
                continue  # "context 4096 vs 120 tok/s": 4096 is the context's, no speed
            # its unit is the next number's; so is its kind ("Total token throughput dropped from
            # 3000 to 2500 tok/s": both totals)
            first_kind = _not_decode(text, first, end)
            if first_kind == "draft":
                first_kind = None
            first_name = first_kind or _throughput_name(text, first, None)
            if first_name == "throughput" and name == "throughput" and _from_speculation(text, first, end):
                first_name = "baseline_throughput"
            if first_kind and name == "throughput":
                name = first_kind
            if first_name == "baseline_throughput" and text[:first].rstrip().endswith("("):
                if _PAIR_GOES_ON.search(pair.group()):
                    # "EAGLE-3 is ~1.9x vs baseline (156 -> 297 tok/s)": from the baseline to ours,
                    # as "from 156 to 297" says (was the baseline 297, ours 156: a slowdown)
                    name = "throughput"
                else:
                    # "1.46x over the no-spec baseline (131.5 vs 90.1 tok/s)": ours, then the
                    # baseline the words before the parenthesis named.
                    first_name, name = "throughput", "baseline_throughput"
            elif first_name == "baseline_throughput" and name == "throughput" and not _PAIR_GOES_ON.search(pair.group()) \
                    and _COMPARED_HEAD.search(text, max(0, first - 60), first):
                # "EAGLE-3 vs baseline: 40 vs 60 tok/s": ours, then the baseline, as the heading
                # names them (_throughput_name reads the pair with both units)
                first_name, name = "throughput", "baseline_throughput"
            if first_name == name == "throughput" and text[max(0, first - 8):first].rstrip().endswith("(") \
                    and (factor := _FACTOR_BEFORE_PAIR.search(text, max(0, first - 40), first)) is not None:
                # "The speedup is 1.51x (61.0 vs 40.3 tok/s)": a speedup is ours over the baseline, so
                # the side the factor divides is the baseline (was two throughputs: the postmortem
                # went "from 61 to 40.3")
                f = float(factor.group(1))
                if abs(f - 1) > 0.05 and value > 0 and first_value > 0:
                    if abs(first_value / value - f) <= 0.02 * f + 0.006:
                        name = "baseline_throughput"
                    elif abs(value / first_value - f) <= 0.02 * f + 0.006:
                        first_name = "baseline_throughput"
            if "(" in text[end:end + 5] and first_name in _PAIR_NAMES and name in _PAIR_NAMES \
                    and (legend := _PAIR_LEGEND.match(text, end)) is not None:
                # "140 vs 95 tok/s (baseline vs EAGLE-3)": the legend names each side (was 95 the
                # baseline, "(baseline" read as the second number's word)
                first_name, name = _legend_names(legend, first_name, name)
            found.append(Metric(first_name, first_value, "tok/s", _context(text, first, end)))
        elif "(" in text[end:end + 5] and name in _PAIR_NAMES and found and found[-1].name in _PAIR_NAMES \
                and (legend := _PAIR_LEGEND.match(text, end)) is not None \
                and (own := _OWN_UNIT_PAIR.search(text, max(0, start - 40), start)) is not None \
                and float(own.group(1).replace(",", "")) == found[-1].value:
            # "140 tok/s vs 95 tok/s (baseline vs EAGLE-3)": each its own unit, the legend names
            # each side as for a shared unit (was 95 the baseline, and "(EAGLE-3 vs baseline)" none)
            found[-1].name, name = _legend_names(legend, found[-1].name, name)
        elif name == "throughput" and found and found[-1].name == name and "from" in text[max(0, start - 8):start] \
                and _TO_THEN_FROM.search(text, max(0, start - 80), start) is not None:
            # "dropped to 54.8 tok/s from 90 tok/s", "54.8 tok/s, down from 90": the reading after
            # "from" came first (read in the text's order, the session "went from" 54.8 to 90)
            found.insert(len(found) - 1, Metric(name, value, "tok/s", _context(text, start, end)))
            continue
        if name == "throughput" and _baseline_cue(text[start - 80 if start > 80 else 0:start]) \
                and (bare := _BARE_BASELINE_BEFORE.search(text, max(0, start - 80), start)) is not None \
                and 0.1 * value <= (base := float(bare.group("value"))) <= 10 * value \
                and not any(m.name == "baseline_throughput" and m.value == base for m in found):
            # "vanilla 140; EAGLE-3 95 tok/s": the baseline's bare number before ours, its unit
            # left out as ours gives it (the order _BARE_BASELINE_NEXT reads the other way round)
            found.append(Metric("baseline_throughput", base, "tok/s", _context(text, bare.start("value"), start)))
        found.append(Metric(name, value, "tok/s", _context(text, start, end)))
        if name == "throughput" and (bare := _BARE_BASELINE_NEXT.match(text, end)) is not None:
            # "EAGLE-3 95 tok/s; vanilla 140.", "95 tok/s with EAGLE-3, 140 without.": the baseline's
            # number after ours, its unit left out as ours gave it (was: no baseline, the slowdown
            # unseen). A number far from ours is no speed of the same run (a batch size, a version).
            at = bare.start("value") if bare.group("value") else bare.start("after")
            base = float(bare.group("value") or bare.group("after"))
            if 0.1 * value <= base <= 10 * value:
                found.append(Metric("baseline_throughput", base, "tok/s", _context(text, at, bare.end())))
    for unit in headers[:20]:
        if (m := _VALUE_AFTER_UNIT.match(text, unit.end())) is not None:
            _unit_labelled(text, unit, m, found)
        elif lists:
            _listed_under(text, unit, found)


# After ours, the baseline's bare number, its unit left out: "95 tok/s; vanilla 140.", "95 tok/s vs
# the baseline: 140.", "95 tok/s with EAGLE-3, 140 without." (the number ends its clause: "vanilla
# 140 ms", "vanilla 3.1.2" are no speed).
_BARE_BASELINE_NEXT = re.compile(
    r"\**(?:\s+(?:with|w/|using|on)\s+[\w.-]+(?:\s+[\w.-]+)?)?\s*(?:[;,]|\s(?:vs\.?|versus))\s*(?:and\s+|but\s+|while\s+|whereas\s+)?"
    r"(?:(?:the\s+)?(?:(?:baseline|vanilla|plain|normal|regular|no[- ]?spec\w*)(?:\s+(?:decoding|run|baseline))?"
    r"|without(?:\s+(?:it|spec\w*(?:\s+decod\w*)?|eagle[\w-]*|(?:the\s+)?draft))?|w/o)"
    r"\s*(?:[:=]|is|was|gets?|got|gives?|at|does|did)?\s*(?:[~\u2248]|about\s+)?\**(?P<value>\d+(?:\.\d+)?)"
    r"|(?P<after>\d+(?:\.\d+)?)\s+(?:without(?:\s+it)?|w/o|for\s+(?:the\s+)?(?:baseline|vanilla)|on\s+vanilla))"
    r"\**(?=\s*(?:[.;!)](?!\d)|,(?!\s*\d)|$))", re.I)

# Before ours, the baseline's bare number, its unit left out: "vanilla 140; EAGLE-3 95 tok/s",
# "without speculation 140, with EAGLE-3 95 tok/s", "no-spec 140 / eagle3 95 tok/s" (the number
# ends its clause; a label of two words at most names ours).


def _baseline_cue(before: str) -> bool:
    """A literal of each branch of _BARE_BASELINE_BEFORE in ``before`` (either case of its first
    letter): a cheap gate, as most readings have none before them."""
    return ("aseline" in before or "anilla" in before or "pec" in before or "PEC" in before or "ithout" in before
            or "w/o" in before or "lain" in before or "ormal" in before or "egular" in before)


_BARE_BASELINE_BEFORE = re.compile(
    r"(?:\b(?:the\s+)?(?:baseline|vanilla|plain|normal|regular|no[- ]?spec\w*)(?:\s+(?:decoding|run|baseline))?"
    r"|\bwithout(?:\s+(?:spec\w*(?:\s+decod\w*)?|eagle[\w-]*|(?:the\s+)?draft))?|\bw/o)"
    r"\s*(?:[:=]|is|was|gets?|got|gives?|at|does|did)?\s*(?:[~\u2248]|about\s+)?\**(?<![\w.])(?P<value>\d+(?:\.\d+)?)\**"
    r"\s*(?:[;,/]|\s(?:vs\.?|versus))\s*(?:and\s+|but\s+|while\s+|whereas\s+)?(?:with\s+)?"
    r"(?:[\w.-]+(?:\s+[\w.-]+)?\s*[:=]?\s*)?(?:[~\u2248]|about\s+)?\**$", re.I)

# A reading, then "from" and the reading it changed from: "dropped to 54.8 tok/s from 90 tok/s",
# "is now 54.8 tok/s, down from 90 tok/s" (the second number's own unit follows the match).
_TO_THEN_FROM = re.compile(r"(?:\b(?:to|at|is|now|of)\s+[~\u2248]?\d[\d.,]*\s*(?:tok(?:en)?s?/s(?:ec)?|t/s|tps)\b,?\s+"
                           r"(?:(?:down|up|dropping|falling|rising|going)\s+)?"
                           r"|\d\s*(?:tok(?:en)?s?/s(?:ec)?|t/s|tps)\b,?\s+(?:down|up|dropping|falling|rising|going)\s+)"
                           r"from\s+[~\u2248]?$", re.IGNORECASE)

# The unit as the label of its number, at the start of a line: "tokens/s: 50.583147408917135", as a
# script printed it (vllm-project/vllm#5313); a word of decode before it at most ("output tok/s:
# 123"). Not after a key of its own ("Throughput (tok/s): ..." is bench_serving's, read by key).
# Not a date or a pair after it ("tokens/s: 45 -> 80 with EAGLE3": which run 45 is, the arrow
# says, not the label).
_VALUE_AFTER_UNIT = re.compile(r"[ \t]*[:=][ \t]*\**(\d+(?:\.\d+)?)\**(?![\d.]|[ \t]*(?:ms|s|%)\b|[-/]\d"
                               r"|[ \t]*(?:->|\u2192|=>|to\b|vs\b))")
# The unit as a key of a record of key=value fields, as a script's f-string prints them:
# "mtp_k4  mean_accept_len=2.987 accept_rate=0.641 tok/s=160.9 tokens=10240". The number before
# the key is the field before's ("accept_rate=0.612"), the speed the one after the "=".
_UNIT_KEY = re.compile(r"=(\d+(?:\.\d+)?)(?![\w.])")
_RECORD_LABEL = re.compile(r"[ \t>*-]*(?P<label>[^=\n]*?)(?:\s+[\w./-]+=|$)")
_GOAL_BEFORE_KEY = re.compile(r"(?:limit|target|max|min|slo|goal|expected|threshold|cap|budget|required)[\s_:-]*$", re.I)
_RECORD_FIELD = re.compile(r"[\w./-]+=(?:\[[^\]\n]*\]|[^\s,;|]+)")
_RECORD_NAME = re.compile(r"[\s,;|]+(?P<label>[A-Za-z][\w()./-]*(?:[ \t]+[\w()./-]+)*?)[ \t:]+")


# Every character _NUMBER_BEFORE's match may hold that is ASCII: \d, ",", ".", "k", "K", "*", "`"
# and \s (str.isspace() is true for \x1c-\x1f too).
_NUMBER_CHARS = "0123456789,.kK*` \t\n\r\f\v\x1c\x1d\x1e\x1f"


def _number_from(text: str, at: int) -> int:
    """Where the search for _NUMBER_BEFORE before ``at`` (over at most 24 characters) may start:
    after the last character no match can hold (ASCII and not in _NUMBER_CHARS), so the
    search tries a few offsets instead of 24 (its lookbehinds still see the text before). A
    non-ASCII last character may be a Unicode digit or space (of the classes): the whole window then."""
    lo = at - 24 if at > 24 else 0
    kept = text[lo:at].rstrip(_NUMBER_CHARS)
    return lo + len(kept) if kept and kept[-1] < "\x80" else lo


def _unit_key(text: str, at: int, key: re.Match, found: list[Metric]) -> None:
    """A speed given as "tok/s=152.3" (see _UNIT_KEY); the record's label before its first field
    may name the run without speculation ("baseline (prod today)  ... tok/s=152.3")."""
    if _GOAL_BEFORE_KEY.search(text, max(0, at - 16), at) is not None:
        return  # "target tok/s=200 (SLO)", "limit tok/s=500": a goal or a cap set, no run's speed
    line_start = text.rfind("\n", 0, at) + 1
    label = _RECORD_LABEL.match(text, line_start, at)
    name = label.group("label") if label is not None else ""
    # two records on one line, each its own label: "baseline tok/s=152.3  eagle3 tok/s=201.0"
    # (the line's first label named both baselines)
    fields = [*_RECORD_FIELD.finditer(text, line_start, at)]
    if fields and (between := _RECORD_NAME.fullmatch(text, fields[-1].end(), at)) is not None:
        name = between.group("label")
    baseline = _BASELINE_LABEL.search(name) is not None
    found.append(Metric("baseline_throughput" if baseline else "throughput", float(key.group(1)), "tok/s",
                        _context(text, at, key.end())))


_UNIT_LABEL_LEAD = re.compile(r"[ \t>*-]*(?:(?:output|decode|decoding|generation|gen)[ \t]+)?$", re.I)


def _unit_labelled(text: str, unit: re.Match, m: re.Match, found: list[Metric]) -> None:
    line_start = text.rfind("\n", 0, unit.start()) + 1
    if not _UNIT_LABEL_LEAD.fullmatch(text, line_start, unit.start()) or _PER_USER.match(text, unit.end()):
        return
    name = "baseline_throughput" if _no_spec_lead(text, line_start) else "throughput"
    found.append(Metric(name, float(m.group(1)), "tok/s", _context(text, line_start, m.end())))


# A list of bare readings under a line that names their unit, as people post runs side by side:
# "Output tokens/s on H100 BS1" over "vanilla (`meta-llama/Llama-3.1-8B-Instruct`): 133" and
# "* K=2: 201.69, speedup:  1.51x" (vllm-project/vllm#16937). Each item is "label: number", the
# number alone or before a comma; a label that names the run without speculation makes it the
# baseline, one that names a setting ("num_steps: 3") is no reading. A line that names another
# quantity ends the list.
_LISTED_READING = re.compile(r"[ \t]*(?:[*+-][ \t]+)?(?P<label>[^:\n]{1,80}?)[ \t]*:[ \t]*\**(?P<value>\d+(?:\.\d+)?)\**"
                             r"[ \t]*(?:,|\r?$)")
_SETTING_LABEL = re.compile(r"(?:bs|batch(?:[ _-]?size)?|(?:num[ _-]?)?(?:spec(?:ulative)?[ _-]?)?(?:steps?|(?:draft[ _-]?)?"
                            r"tokens?)|top-?k|tp|dp|port|seed|concurrency|k|n|gpus?|max\b.*|temperature|epochs?|step|rank|layers?|line|id|pid"
                            r"|version|iter\w*|trials?|attempts?|count|samples?|prompts?|requests?|questions?|runs?|(?:exit\s+)?code|status"
                            r"|return\s*code|errors?|warnings?|failures?|failed|passed)")
# An item of the prompt's or all tokens, or of one user's share: no decode throughput of a run.
_NOT_DECODE_LABEL = re.compile(r"prefill|input|prompt|total|ttft|tpot|itl|latency|per[ -]user|/user|request|tokens?$|speed-?up|ratio"
                               r"|len(?:gth)?\b|time|duration|count|\bnum")
# An engine's option name ("tensor_parallel_size: 2", "top_p: 0.95", "block_size: 16") names a
# setting, unless it names a run by its method ("eagle3_tree: 95").
_CONFIG_KEY = re.compile(r"[a-z][a-z0-9]*(?:[_.][a-z0-9]+)+")
_RUN_WORD = re.compile(r"eagle|mtp|medusa|ngram|vanilla|baseline|spec|draft|base\b", re.I)
_OTHER_QUANTITY = re.compile(r"/s\b|\bms\b|%|latenc|accept|\bAL\b|tpot|ttft|\bitl\b|memory|\bGi?B\b|\d\s*s\b", re.I)
_HEADER_READING = re.compile(r"[:=]\s*\**\d")


# A header that lists what a run was given, no readings: "Settings used for the tok/s runs".
_SETTINGS_HEADER = re.compile(r"\b(?:settings?|config\w*|param\w*|flags?|args?|arguments|options)\b")


def _listed_under(text: str, unit: re.Match, found: list[Metric]) -> None:
    """The bare readings listed under the line of ``unit`` when that line is a header: short,
    no sentence, with no reading of its own and no words of another kind of throughput."""
    line_start = text.rfind("\n", 0, unit.start()) + 1
    line_end = text.find("\n", unit.end())
    if line_end < 0 or line_end - line_start > 80:
        return
    header = text[line_start:line_end].strip()
    low = header.lower()
    if header.endswith((".", "?", "!")) or _HEADER_READING.search(header) or _SETTINGS_HEADER.search(low) or "prefill" in low or "input" in low or "prompt" in low or "total" in low \
            or _PER_USER.match(text, unit.end()):
        return
    pos = line_end + 1
    for _ in range(20):
        if pos >= len(text):
            return
        nl = text.find("\n", pos)
        end = len(text) if nl < 0 else nl
        row = text[pos:end]
        pos = end + 1
        if (m := _LISTED_READING.match(row)) is not None:
            label = m.group("label").strip(" *_`")
            if _OTHER_QUANTITY.search(label):
                return  # "GPU memory: 80", "Accept length: 2.1": another quantity's list
            if not label or _SETTING_LABEL.fullmatch(label.lower()) or _NOT_DECODE_LABEL.search(label.lower()) \
                    or (_CONFIG_KEY.fullmatch(label) and not _RUN_WORD.search(label)):
                continue
            name = "baseline_throughput" if _BASELINE_LABEL.search(label) else "throughput"
            found.append(Metric(name, float(m.group("value")), "tok/s", f"{header} | {row.strip()}"[:200]))
        elif _OTHER_QUANTITY.search(row):
            return


# "Accepted throughput: 2.94 tokens/s, Drafted throughput: 8.80 tokens/s" (vLLM's SpecDecodingLogging,
# vllm/v1/spec_decode/metrics.py) count draft tokens, accepted and proposed: no decode speed; nor
# as an agent words them, "accepted throughput is 301 tok/s vs drafted 501 tok/s".
_DRAFT_COUNT_BEFORE = re.compile(r"(?:accepted|drafted)(?:\s+(?:draft\s+)?(?:tokens?\s+)?throughput)?"
                                 r"\s*(?:[:=]|is|was|of|at)?\s*(?:~|about\s+)?$", re.I)


def _from_speculation(text: str, start: int, pair_end: int) -> bool:
    """Whether the number at ``start`` follows a "from" whose clause is what the speculative
    method did (see _SPEC_SUBJECT), or says speculation was turned on between the two numbers
    (_SPEC_ON, before them or after the pair ending at ``pair_end``): the run without it."""
    before = text[max(0, start - 160):start].lower().rstrip("*`")
    at = _FROM_AT.search(before)
    if at is None:
        return False
    clause = before[:at.start()]
    if (cut := _CLAUSE_CUT.match(clause)) is not None:
        clause = clause[cut.end():]
    if (on := _SPEC_ENABLED.search(clause)) is not None:
        return _CHANGE_WORDS.search(clause[:on.start()] + clause[on.end():]) is None
    if _CHANGE_WORDS.search(clause) is not None:
        return False
    if _SPEC_SUBJECT.search(clause) is not None:
        return True
    tail = text[pair_end:pair_end + 100].lower()
    on = _SPEC_ENABLED_AFTER.match(tail)
    # "went from 60 to 90 tok/s with EAGLE3 after fixing the vocab mapping": the fix is the
    # change, both runs speculate
    return on is not None and _CHANGE_AFTER.search(re.split(r"[.;!?\n]", tail[on.end():], maxsplit=1)[0]) is None


def _a_size(first: float, second: float) -> bool:
    """Whether the first of a pair is a context or batch size set against a speed ("4096 vs
    120 tok/s"): a power of two from 256 on, eight times the speed or more. Two speeds compared
    ("1,350 vs 1,180 tok/s", "512 vs 480 tok/s") are of one order."""
    size = int(first)
    return size == first and size >= 256 and size & (size - 1) == 0 and first >= 8 * second


def _not_decode(text: str, start: int, unit_end: int) -> str | None:
    """``prefill_throughput`` or ``total_throughput`` when the words at a reading (its number
    at ``start``, its unit ending at ``unit_end``) say it counts the prompt's tokens: "Prefill
    throughput is 12,000 tok/s", "input throughput: 5000 tok/s", "3000 tok/s total"; and
    llama.cpp's prompt lines, "encoded 10 tokens in 1.945 seconds, speed: 5.141 t/s"
    (examples/speculative-simple) and "prompt eval time = ... 6239.99 tokens per second"
    (llama_perf_context_print, the server's print_timings), as posted in ggml-org/llama.cpp#18039.
    None for a decode reading."""
    # Literal gates on the few characters around the reading (an ``in`` each, no generator):
    # most readings have none of the words.
    near = text[start - 40 if start > 40 else 0:unit_end + 12].lower()
    m = None
    if "prefill" in near or "input" in near or "prompt" in near or "total" in near:
        before = near[:start - max(0, start - 40)]
        clause = before[max(before.rfind(","), before.rfind(";"), before.rfind(". "), before.rfind("\n"),
                            before.rfind(" and "), before.rfind(" but ")) + 1:]
        if "+" in clause and _BOTH_SIDES.search(clause):
            return "total_throughput"
        if (m := _PROMPT_WORDS_BEFORE.search(clause)) is None and \
                (m := _PROMPT_WORD_JUST_BEFORE.search(clause)) is None:
            m = _PROMPT_WORDS_AFTER.match(text[unit_end:unit_end + 12].lower())
    if m is not None:
        return "total_throughput" if m.group(1) == "total" else "prefill_throughput"
    # the reading's line, up to 200 characters back (llama.cpp's are shorter; a log line can be
    # a megabyte long)
    lo = start - 200 if start > 200 else 0
    nl = text.rfind("\n", lo, start)
    line = text[nl + 1 if nl >= 0 else lo:start]
    if "eval time" in line and _in_draft_section(text, start):
        return "draft"
    if ("prompt eval" in line or "encoded " in line) and _LLAMA_CPP_PROMPT.search(line.lower()):
        return "prefill_throughput"
    if "rompt: " in line and _MLX_PROMPT.search(line.lower()):
        return "prefill_throughput"
    return None


# A number said to be a projection, an expectation or a target, right before it: "would put this
# same code at a projected ~180–230 tok/s" (waybarrios/vllm-mlx#763), "I expected ~150 tok/s",
# "target: 50 tok/s". No run measured it. Searched in lower case.
# "target" alone names the target model in speculative decoding ("Target: 40 tok/s" over "EAGLE3:
# 95 tok/s", "target at 40 tok/s, EAGLE-3 at 95"): a goal only as "target throughput/speed/rate/of"
# or "throughput/speed target" ("our throughput target is 2000 tok/s").
_NOT_MEASURED = re.compile(r"\b(?:(?:projected|projection|expected|expect|expecting|theoretical(?:ly)?|goal)"
                           r"|target(?:ed)?(?=\s+(?:throughput|speed|decode|rate|of)\b)|(?:throughput|speed)\s+target)"
                           r"(?:\s+(?:throughput|speed|decode|rate|of|at|is|was|around|about|roughly|to\s+be|to\s+get|to\s+see))*"
                           r"\s*[:=~\u2248]?\s*(?:about\s+|around\s+)?$")


def _spaced_range(text: str, start: int, high: float) -> re.Match | None:
    """The low end of a range written with a spaced dash, "50 - 55 tok/s" (was read as its end,
    55, where "50-55" reads as its middle). Only a lower number at least half the higher, with no
    setting's name before it: "bs 64 - 55 tok/s" and "run 3 - 55 tok/s" are a label, then one
    reading."""
    r = _RANGE_START.search(text, max(0, start - 24), start)
    if r is None or not high / 2 <= float(r.group("value")) < high:
        return None
    # "c=32 - 55 tok/s", "12:00:45 - 55 tok/s", "3/40 - 55 tok/s", "2026-01-30 - 55 tok/s": a
    # key=value label, a clock time, a counter's or a date's number, then the reading (was the
    # range 32 to 55)
    glued = text[r.start() - 1:r.start()]
    if glued in ("=", "#", "/", "-", "\u2013") or (glued == ":" and text[r.start() - 2:r.start() - 1].isdigit()):
        return None
    before = text[max(0, r.start() - 40):r.start()].lower()
    if _setting_before(before):
        return None
    if _COUNTER_BEFORE.search(before) and not _PLURAL_HEADING.search(before) and \
            _COUNTER_AS_VERB.search(text, max(0, r.start() - 60), r.start()) is None:
        return None
    return r


# A counter's or an index's name before the lower number of a spaced dash: "layer 40 - 55 tok/s",
# "epoch 12 - 20 tok/s", "trial 40 - 55 tok/s" label one reading, 55 (were the range 40 to 55,
# 47.5). Steps, ranks and nodes are settings (_SETTING_BEFORE). Searched in lower case.
_COUNTER_BEFORE = re.compile(r"\b(?:layers?|layer[\s_-]*(?:id|idx)|epochs?|iter(?:ation)?s?|samples?|req(?:uest)?s?"
                             r"|tests?|trials?|cases?|rounds?|turn|seeds?|run|ids?|idx|index|blocks?|heads?"
                             r"|pos(?:ition)?s?|lines?|rows?|exp(?:eriment)?s?|prompts?\s*(?:#|no\.?|id))\s*[#:=]?\s*$")
# A plural name then a colon heads the range it took over them: "Across 5 trials: 40 - 55 tok/s",
# "samples: 40 - 55 tok/s", "Throughput over requests: 40 - 55 tok/s" (were one reading, 55).
_PLURAL_HEADING = re.compile(r"(?<!\bpo)s\s*:\s*$")
# A counter's plural that is a verb's third person, said of a subject or heading the clause:
# "tests 40 - 55 tok/s", "EAGLE-3 tests 40 - 55 tok/s", "the server samples 40 - 55 tok/s" give the
# range the run spanned (were one reading, 55). A noun where a determiner, a count, a preposition
# or a verb's past comes before it ("the tests 40 - 55", "5 tests", "tried tests", "ran tests").
_COUNTER_AS_VERB = re.compile(
    r"(?:^|[.;:!?(]\s*|(?<![\w.-])(?!\d|(?:the|these|those|all|some|many|few|several|multiple|both|each|every|my|our|your"
    r"|their|its|his|her|unit|integration|perf|e2e|smoke|more|other|across|over|in|into|for|of|on|from|with|by|between"
    r"|during|after|before|and|or|ran|run|rerun|did|do)\s)[\w.-]+(?<!ed)\s+)"
    r"(?:tests|samples|requests|rounds|seeds)\s*$", re.I | re.M)


def _glued_range(text: str, start: int, high: str) -> bool:
    """Whether the minus before the number at ``start`` is a range's dash glued to its second
    end, "50 -55 tok/s" (a range, 52.5, as before the minus was read as a change): a lower
    number right before it. "60 -5 tok/s" goes down, a change."""
    r = _RANGE_START.search(text, max(0, start - 24), start)
    return r is not None and float(r.group("value")) < float(high.replace(",", ""))


def _not_measured(text: str, start: int, end: int) -> bool:
    """Whether the words just before the number at ``start`` make it a projection, a goal or a
    wish: "we need 2000 tok/s", "the target was 2000 tok/s", "aiming for 150 tok/s" (_WANTED,
    as for a speedup; were readings). The words after its unit (ending at ``end``) may say
    "the target" is the target model (see _TARGET_MODEL_AFTER)."""
    before = text[start - 40 if start > 40 else 0:start].lower()
    if not ("ect" in before or "arget" in before or "heor" in before or "goal" in before
            or "ould" in before or "need" in before or "want" in before or "requir" in before
            or "aim" in before or "hop" in before):
        return False  # literal gates: most readings have none of the words
    if (goal := _NOT_MEASURED.search(before)) is not None:
        # "target decode was 40 tok/s, EAGLE-3 decode 95 tok/s": the target model's, as below
        return not (goal.group().startswith("target") and _target_model(text, before, goal.start(), end))
    if not _wished(before):
        return False
    return not ("arget" in before and (was := _TARGET_WAS.search(before)) is not None
                and _target_model(text, before, was.start(), end))


def _target_model(text: str, before: str, at: int, end: int) -> bool:
    """Whether "target" at ``at`` in the lower-case words ``before`` a number is the target model:
    the words after its unit say so (_TARGET_MODEL_AFTER), and no one owns or wants it as a goal
    (_GOAL_OWNED)."""
    return (_GOAL_OWNED.search(before, 0, at) is None and not before.startswith("targeted", at)
            and _GOAL_OF.search(before, at) is None
            and _TARGET_MODEL_AFTER.match(text, end) is not None)


# A goal someone has or wants, whatever follows: "our target is 55 tok/s at bs=1; with EAGLE-3 it
# drops to 40 tok/s", "we need the target of 150 tok/s; spec decoding is 90 tok/s", "The SLO target is
# 150 tok/s, EAGLE-3 gets 90 tok/s" (the 55 and the 150 were read as the target model's). Searched in
# lower case, up to the word "target".
# "targeted throughput of 100 tok/s, EAGLE-3: 90 tok/s", "The target of 150 tok/s; EAGLE-3 is 90
# tok/s": a goal set, never a model's speed (from the word "target" on).
_GOAL_OF = re.compile(r"\bof\b")
_GOAL_OWNED = re.compile(r"\b(?:our|my|your|their|an?|the\s+team['\u2019]s|slo|sla|kpi)\s+(?:[\w-]+\s+)?$"
                         r"|\b(?:need(?:s|ed)?|want(?:s|ed)?|requir\w*|aim(?:s|ed|ing)?|hop(?:e|es|ed|ing)|goal|must|should)\b[^.;!?\n]*$")


# "the target was 40 tok/s": a goal, or the target model's speed. What follows the unit tells
# them apart where it can: the target model on its own ("the target was 40 tok/s on its own",
# "... without the drafter", "... (no spec)"), or set beside a drafting method's own reading in
# the same form ("the target was 40 tok/s and EAGLE-3 was 95 tok/s", "the target is 40 tok/s,
# EAGLE3 95 tok/s", "the target was 40 tok/s vs 95 tok/s with EAGLE-3"). A method that only got
# somewhere ("the target was 2000 tok/s but EAGLE-3 only reached 1500") leaves a goal.
_TARGET_WAS = re.compile(r"\btarget\s+(?:is|was)\s*~?\s*$")
_TARGET_MODEL_AFTER = re.compile(
    r"\**\s*(?:\(\s*)?(?:alone\b|only\b(?!\s+(?:with|when|if|once|after|using|via|under)\b)|by\s+itself|on\s+its\s+own|(?:without|w/o)\s+(?:the\s+|a\s+|any\s+)?"
    r"(?:draft|spec|eagle|mtp|medusa)|with\s+no\s+(?:draft|spec)|(?:no|non)[-\s]?spec"
    r"|before\s+(?:we\s+|i\s+)?(?:enabl\w*|turn\w*\s+on|add\w*|switch\w*\s+on)\s+(?:the\s+)?(?:eagle|spec|draft|mtp|medusa))"
    r"|\**(?:\s+(?:at|@|for)\s+(?:bs|batch(?:[\s_-]*size)?|concurrency|c)\s*[=:]?\s*\d+)?"
    r"\s*(?:,|;|\band\b|\bwhile\b|\bwhereas\b)\s*(?:with\s+|using\s+)?(?:the\s+)?"
    r"(?:eagle[\w-]*|spec\w*(?:\s+decod\w*)?|mtp|medusa|n-?gram|draft(?:\s*\+\s*target)?)(?![\w-])"
    r"\s*(?:\([^()\n]{1,30}\)\s*)?,?\s*(?:(?:decode|throughput|speed)\s+)?(?:(?:it|we|i)\s+)?"
    r"(?:is|was|at|runs\s+at|ran\s+at|gives|gave|gets|got|get|(?:drops?|dropped|falls?|fell|goes|went)\s+(?:down\s+|up\s+)?to|[:=])?\s*~?\d"
    r"|\s*(?:vs\.?|versus)\s*~?\d[\d.,]*\s*(?:tok(?:en)?s?/s\w*|t/s|tps)?\s*(?:with|using)\s+(?:the\s+)?"
    r"(?:eagle|spec|mtp|medusa|n-?gram|draft)", re.I)


def _in_draft_section(text: str, start: int) -> bool:
    """Whether the perf line at ``start`` is under llama.cpp's "draft:" heading: its speculative
    examples print the draft context's timings under "draft:", then the target's under
    "target:" (ggml-org/llama.cpp examples/speculative-simple/speculative-simple.cpp, as posted
    in ggml-org/llama.cpp#18039). The draft's "eval time ... 2902.94 tokens per second" is how
    fast the small model drafts, no speed of the run."""
    draft = text.rfind("draft:\n", max(0, start - 4000), start)
    if draft < 0 or draft < text.rfind("target:\n", max(0, start - 4000), start):
        return False
    return not text[text.rfind("\n", 0, draft) + 1:draft].strip()  # the heading alone on its line


# The hour and colon before a time's minutes: one or two digits after a space, a bracket or the
# text's start. A label's number before a colon ("bs1:120 tok/s", "bs=8:45 tok/s", "gpu1:45
# tok/s") follows a word or "=" and is no hour.
_HOUR_BEFORE = re.compile(r"(?<![\w=.:,])\d{1,2}:$")


def _minutes_of_a_time(text: str, m: re.Match) -> bool:
    """Whether the number ``m`` read is the minutes of a clock time ("logged at 2025-06-01 12:30
    tok/s column was empty"): two digits under 60 right after an hour and its colon."""
    value, start = m.group("value"), m.start("value")
    if len(value) != 2 or value[0] > "5" or text[start - 1:start] != ":":
        return False
    return _HOUR_BEFORE.search(text, max(0, start - 4), start) is not None


def _in_path(text: str, start: int, end: int) -> bool:
    """Whether the reading from ``start`` to its unit's ``end`` is part of a file's path or a URL:
    "/data/bench/eagle3_bs4/120tok/s.json" names a file. All three marks are asked for: the number
    a path segment (after a word and "/"), no space in it (a path has none), and the unit followed
    by an extension or another segment. One alone is a reading: "80/120 tok/s", "w/120 tok/s",
    "120 tok/s/GPU", "120 tok/s.Baseline was ...", "tp2/120 tok/s"."""
    before = text[start - 2:start]
    if len(before) < 2 or before[1] != "/" or not (before[0].isalnum() or before[0] in "_-"):
        return False
    if any(c.isspace() for c in text[start:end]):
        return False
    after = text[end:end + 2]
    return len(after) == 2 and after[0] in "./" and after[1].isalpha() and not _PER_USER.match(text, end)


def _glued_in_a_name(text: str, start: int, end: int) -> bool:
    """Whether a reading written together with its unit ("45tps", from ``start`` to the unit's
    ``end``) is a piece of a name: a run's tag, a branch, a file or a URL ("RUN=bench-100tps",
    "v2-45tps", "http://host/45tps/", "45tps.json"). Prose puts a space, a bracket, "~" or a
    sign before it ("from 45tps to 103.9 tps", ggml-org/llama.cpp#10664), and a name goes on
    after it with a separator and a word."""
    before = text[start - 1:start]
    if before.isalnum() or before in ("_", "-", "/", ".", "@", "#"):
        return True
    after = text[end:end + 2]
    return len(after) == 2 and after[0] in "./_-" and after[1].isalnum()


def _after_comparison_sign(text: str, start: int) -> bool:
    """Whether the number at ``start`` follows "<", ">", "≤" or "≥": a target or a limit, no
    measurement ("For our target workload (**50K in / 1K out, > 50 tok/s**)", intel/llm-scaler#657).
    A ">" that heads an arrow ("->", "=>") or marks a Markdown quote at a line's start is none."""
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i > 0 and text[i] == "=" and text[i - 1] in "<>":
        return True  # ">=", "<="
    if i < 0 or text[i] not in "<>\u2264\u2265":
        return False
    return text[i] != ">" or (i > 0 and text[i - 1] not in "-=>\n")


def _throughput_name(text: str, start: int, unit_end: int | None) -> str:
    """baseline_throughput when the words just before the number (at ``start``), or just after
    its unit (ending at ``unit_end``; None: the unit is not its own), say it is the run
    without speculation."""
    before = text[start - 40 if start > 40 else 0:start].rstrip("*`")  # "baseline: **90** tok/s"
    after = "" if unit_end is None else text[unit_end:unit_end + 25]
    baseline = bool((after and _may_name_baseline(after) and _BASELINE_AFTER.match(after)) or _baseline_before(before)
                    or _no_spec_lead(text, start)
                    or ("-SD" in before and _MINUS_SD.search(before))
                    or (("base" in before or "Base" in before) and _VS_BASE_BEFORE.search(before)))
    if not baseline and before.endswith("(") and "than" in before and (
            ("without" in before and _WITHOUT_IT_PAIR.search(text, max(0, start - 200), start) is not None)
            or _THAN_PLAIN_PAIR.search(text, max(0, start - 80), start) is not None):
        # "with the EAGLE-3 draft ... is slower than without it (95 vs 140 tok/s)", "slower than the
        # plain server (95 vs 140 tok/s)": the pair is in the sentence's order, the run compared
        # first, then the baseline (was two throughputs, no SD501)
        baseline = True
    if ("aseline" in before or "spec" in before or "without" in before) and ("vs" in before or "than" in before or "over" in before or "ompared" in before
                                or "gainst" in before or "ersus" in before):
        # "EAGLE-3 vs baseline: 40 tok/s vs 60 tok/s": the heading names ours, then the baseline, in
        # the order the readings follow (was the baseline 40, ours 60: a speedup where it was slower)
        if baseline and after and _VS_NEXT.match(after) and _COMPARED_HEAD.search(before):
            return "throughput"
        # "Compared to no-spec: 95 tok/s", "slower than the baseline: 95 tok/s": one reading (its unit
        # its own; a pair's first has none, and the pair is read in the heading's order) after
        # such a heading may be ours (set against the baseline) as well as the baseline's: no
        # baseline (was the baseline's, so the run's own 95 became the baseline). "EAGLE-3 vs
        # baseline: 131.5 tok/s" stays one (test_hardening31_extract_vs_baseline_heading).
        if baseline and unit_end is not None and ("ompared" in before or "than" in before):
            head = _COMPARED_HEAD.search(before)
            if head is not None and _COMPARED_OR_THAN.match(head.group()) \
                    and not (after and _may_name_baseline(after) and _BASELINE_AFTER.match(after)):
                return "throughput"
        if not baseline and _COMPARED_HEAD_FIRST.search(text, max(0, start - 80), start):
            return "baseline_throughput"
    if not baseline and ("vs" in before or "ersus" in before) \
            and (unit_end is None or (("vs" in after or "ersus" in after) and _VS_NEXT.match(after))) \
            and _BASELINE_FIRST_HEAD.search(text, max(0, start - 80), start):
        # "Baseline vs EAGLE-3: 60 vs 40 tok/s", "no-spec vs spec: 90 tok/s vs 55 tok/s": the heading
        # names the baseline first, and so does the pair (was two throughputs, and no baseline)
        return "baseline_throughput"
    return "baseline_throughput" if baseline else "throughput"


# A run with speculation set against the same run "without it", then the pair in that order:
# "vLLM with the EAGLE-3 draft is slower than without it (95 vs 140 tok/s)". "it" must be what
# "with" named, a drafter: "EAGLE-3 with CUDA graphs is slower than without it" is two EAGLE-3
# runs, no baseline.
_WITHOUT_IT_PAIR = re.compile(r"\bwith\s+(?:the\s+|an?\s+|its\s+)?(?:[\w.-]+\s+)?(?:eagle[\w-]*|draft\w*(?:\s+model)?"
                              r"|spec\w*(?:\s+decod\w*)?|mtp|medusa)(?![\w-])[^.;!?\n()]{0,80}?"
                              r"\b(?:slower|faster|worse|better|lower|higher)\s+than\s+without\s+(?:it|them)\s*\($", re.I)


# The same against the run without speculation named by what it is: "slower than the plain
# model (95 vs 140 tok/s)", "than the no-spec server (...)". Only those nouns: "than the plain HF
# generate()" is another program.
_THAN_PLAIN_PAIR = re.compile(r"\b(?:slower|faster|worse|better|lower|higher)\s+than\s+(?:the\s+|a\s+|our\s+)?"
                              r"(?:plain|no[- ]?spec\w*|non[- ]?spec\w*|baseline)(?:\s+(?:server|model|run|engine|setup"
                              r"|config\w*|deployment|instance|one|target))?\s*\($", re.I)


# A heading that names the baseline, then the run: "Baseline vs EAGLE-3:", "no-spec vs spec:",
# "vanilla vs EAGLE-3 (topk=4):". The pair after it is in its order (_COMPARED_HEAD: the other way).
_BASELINE_FIRST_HEAD = re.compile(r"(?<![\w-])(?:(?:no[- ]?spec\w*\s+|vanilla\s+)?baseline|no[- ]?spec(?:ulation)?|vanilla"
                                  r"|without\s+(?:spec\w*|eagle[\w-]*|(?:a\s+)?draft\w*))(?:\s*\([^()\n]{0,30}\))?"
                                  r"\s+(?:vs\.?|versus)\s+[^:\n]{1,40}:\s*\**$", re.I)


# The base model alone, set against the speculative run: "eagle3 131 tok/s vs base 104 tok/s",
# "base: 104 tok/s" heading its clause (was a second throughput, 104, and no baseline). Not "base"
# alone elsewhere ("on the base image 104 tok/s", "base URL").
_VS_BASE_BEFORE = re.compile(r"(?:\b(?:vs\.?|versus|against|than)\s+(?:the\s+)?|(?:^|[,;(\n])\s*)base(?:\s+model)?"
                             r"\s*[:=]?\s*(?:~|about\s+)?$", re.I)


# exllamav2's examples/inference_speculative.py times the same prompt without and with the
# draft: "speed, -SD: 18.05 tokens/second" then "speed, +SD: 29.66 tokens/second"
# (theroyallab/tabbyAPI#166 posts it).
_MINUS_SD = re.compile(r"(?<![\w+-])-SD\s*:\s*$")


def _may_name_baseline(after: str) -> bool:
    """Every match of _BASELINE_AFTER has "baseline", "vanilla", "autoregressive", "without",
    "w/o", "no" (also of "non", "no-spec"), "spec" (NO_SPEC's "spec decoding off") in any case, or
    "AR": most words after a reading's unit have none, and the regex cost a reading 1 us."""
    if not after.isascii():
        return True  # re.I folds some non-ASCII letters (U+017F is an "s") that lower() keeps
    low = after.lower()
    return "no" in low or "spec" in low or "baseline" in low or "vanilla" in low or "without" in low \
        or "w/o" in low or "autoregressive" in low or "AR" in after


def _baseline_before(before: str) -> bool:
    """Whether the words just before a number name the run without speculation."""
    if not _may_say_baseline(before):
        return False
    if _BASELINE_BEFORE.search(before):
        return True
    low = before.lower()
    return ("bs" in low or "batch" in low or "concurrency" in low) and _BASELINE_BEFORE_ROW.search(before) is not None


def _no_spec_lead(text: str, start: int) -> bool:
    """Whether the clause of the number at ``start`` is headed by a NO_SPEC phrase (see
    _NO_SPEC_LEAD), within 100 characters before it; or, for a reading that names its row, is
    one of a list of row readings such a phrase heads ("Without speculation: 120 tok/s at bs=1,
    410 tok/s at bs=4, 900 tok/s at bs=16": all three are baselines)."""
    if _no_spec_lead_within(text, start, 100, False):
        return True
    # The other readings of the list break the lead ("/s"); only a reading with its own row
    # words is taken as one of a list, and the list reads back further. The gate: a row word
    # within the 40 characters around the number (most readings have none).
    near = text[start - 24 if start > 24 else 0:start + 40].lower()
    if not ("bs" in near or "batch" in near or "concurrency" in near):
        return False
    own_row = _ROW_OF_READING.match(text, start) is not None or \
        _ROW_BEFORE_READING.search(text, max(0, start - 30), start) is not None
    return own_row and _no_spec_lead_within(text, start, 240, True)


def _no_spec_lead_within(text: str, start: int, reach: int, listed: bool) -> bool:
    """_no_spec_lead over the ``reach`` characters before ``start``; ``listed``: readings that
    name their row, between the phrase and the number, are the list's earlier items."""
    # every NO_SPEC phrase has one of the first words and one of the second; the regexes cost
    # a microsecond a reading, and most texts have neither
    low = text[start - reach if start > reach else 0:start].lower()
    if not ("spec" in low or "eagle" in low or "draft" in low):
        return False
    low = low[max(low.rfind(". "), low.rfind(";"), low.rfind("\n"), low.rfind("? "), low.rfind("! "), low.rfind("|")) + 1:]
    # its own clause after a comma too: "w/ EAGLE3: 120 tok/s, w/o: 90 tok/s"
    if ("without" in low or "w/o" in low) and _BARE_WITHOUT.search(low):
        return True  # "With EAGLE3 I get 150 tok/s; without, 90 tok/s"
    if not ("spec" in low or "eagle" in low or "draft" in low) or \
            not ("without" in low or "no" in low or "w/o" in low or "off" in low or "disabl" in low):
        return False
    lead = None
    for lead in _NO_SPEC_LEAD.finditer(low):
        pass
    if lead is None:
        return False
    between = low[lead.end():]
    if listed:
        between, items = _LISTED_ROW_READING.subn(" ", between)
        if not items:
            return False
    return _LEAD_BREAK.search(between) is None and _LEAD_COMPARED.search(low, 0, lead.start()) is None


def _speedups(text: str, found: list[Metric]) -> None:
    """A factor just before the word ("a 0.61x speedup", "1.3x slower") or just after
    "speedup" ("speedup of 1.44x"). A factor before anything else ("8x H200", "2x the
    memory") is none."""
    hits = []
    for word in _SPEED_WORDS:
        at = text.find(word)
        while at >= 0 and len(hits) < 50:
            hits.append((at, word))
            at = text.find(word, at + 1)
    for at, word in sorted(hits):
        speedup = word.startswith("peed")
        start = at - 1 if speedup else at  # the S or s of speedup
        if speedup and (start < 0 or text[start] not in "Ss"):
            continue
        end = at + len(word)
        before = _FACTOR_BEFORE.search(text, max(0, start - 24), start)
        after = (_FACTOR_AFTER.match(text, end) or _FACTOR_OVER_BASELINE.match(text, end)) \
            if before is None and speedup else None
        if before is not None:
            value, a, b = float(before.group("value")), before.start(), end
            if word == "slower" and value > 0:
                value = round(1 / value, 3)  # "1.3x slower": 0.769 of the speed without speculation
        elif after is not None:
            bare = after.re is _FACTOR_AFTER and after.group("bare")
            if bare and not _names_drafting(text.lower()):
                continue  # "tok/s comparison ... - speedup: 1.58": of one GPU over another, no drafter named
            value, a, b = float(bare or after.group("value")), start, after.end()
        elif word in ("faster", "slower") and (pct := _percent_faster(text, at, end)) is not None:
            value, a, b = pct
            if word == "slower":
                if value >= 2:
                    continue  # "100% slower" and more: no share of the baseline's speed
                # "34% slower than vanilla" is 0.66 of its speed, as "JIT 34% slower than
                # vanilla" sits beside "0.66x" in a benchmark report found on GitHub
                value = round(2 - value, 4)
        elif speedup and (pct := _PCT_SPEEDUP.search(text, max(0, start - 40), start)) is not None:
            # "a 60% speedup", "~35% speed-up": the word says against what, as "1.6x speedup" does
            value, a, b = round(1 + float(pct.group("value")) / 100, 4), pct.start(), end
        else:
            continue
        if _OTHER_METHOD.match(text, max(b, end)) is not None:
            continue  # "a 0.95x speedup over EAGLE-2": one drafter against another, no baseline
        if _wanted(text, a):
            continue  # "we need at least 2x speedup", "aiming for a 1.5x speedup": no run's
        if _claimed(text, a, b):
            continue  # "the paper reports a 4.4x speedup", "3x faster than vanilla decoding (13B)" quoted
            # from EAGLE's README: what a source says, no run's
        if not speedup and before is not None and _THAN_OTHER.match(text, end) is not None:
            continue  # "3x slower than expected", "2x faster than before the fix": no baseline run
        if speedup and _ANOTHER_TASK.match(text, max(b, end)) is not None:
            continue  # "a 60% speedup in compile time": a speedup of something else than decoding
        if speedup and _ANOTHER_TASK_BEFORE.search(text, max(0, start - 24), start) is not None:
            continue  # "compile speedup: 1.8", "prefill speedup 1.2x": the same, named before
        found.append(Metric("speedup", value, "x", _context(text, a, b)))
        if "(" in text[b:b + 2] or "with" in text[b:b + 6] or "using" in text[b:b + 7]:
            found.extend(_each_methods_factor(text, b))


# A factor said to be wanted, hoped for or projected, just before it (or before "speedup of"):
# "we need at least 2x speedup to justify this; right now it is 1.3x", "aiming for a 1.5x
# speedup", "it should give ~2x speedup", "expecting a speedup of 2x". No run measured it.
# Searched in lower case over the 40 characters before it.
_WANTED = re.compile(r"\b(?:need(?:s|ed)?|want(?:s|ed)?|requir(?:e|es|ed|ing)|aim(?:s|ing)?\s+(?:for|at)|"
                     r"hop(?:e|es|ed|ing)\s+(?:for|to\s+(?:get|see))|expect(?:s|ed|ing)?|project(?:s|ed)?|"
                     r"target(?:s|ing|ed)|target\s+(?:is|was|of)|goal\s+(?:is|was|of)|should\s+(?:give|get|see|be)|"
                     r"would\s+(?:give|get|see|be))"
                     r"(?:\s+(?:a|an|at\s+least|about|around|roughly|~|of|to\s+(?:reach|hit|get|see|achieve)))*"
                     r"\s*~?\s*$")
# "need to reach 3x", "wanted to see a 2x speedup": the goal after the verb (was a 3x reading).
# "target" alone names the target model ("EAGLE-3 vs target 1.9x speedup", "draft+target 1.8x
# speedup"), as _NOT_MEASURED says; and what a run gave is measured even when it was the one
# expected ("EAGLE-3 achieves the expected 2.0x speedup").
_GOT_EXPECTED = re.compile(r"\b(?:gives?|gave|got|gets|achiev(?:e|es|ed|ing)|shows?|showed|sees?|saw|reach(?:es|ed)?"
                           r"|hits?|deliver(?:s|ed)?|confirm(?:s|ed)?)\s+(?:the|an?)\s+expected\b")


# A factor a source states, in the factor's clause: "The EAGLE-3 paper claims a 4.4x speedup on
# LLaMA3.1-8B; we measure 1.3x" (sgl-project/sglang#5502, SafeAILab/EAGLE#209 set the two side by
# side), "According to the EAGLE README, EAGLE-3 is 5.6x faster than vanilla decoding (13B)",
# "EAGLE-3 is 5.6x faster ... (13B), per the model card", "typically gives a 2-3x speedup". No run
# measured it (each was a speedup reading). The run's own words break the clause: "the paper reports
# 4.4x, while our run gives 1.3x". Searched in lower case.
_SOURCE = r"(?:papers?|readme|model\s+cards?|blog(?:\s+post)?|docs|documentation|authors?|abstract|arxiv)"
_CLAIM_SOURCE = re.compile(r"\baccording\s+to\s+(?:the\s+)?(?:[\w.-]+\s+){0,2}?" + _SOURCE + r"\b"
                           r"|(?:^|[,(])\s*(?:in|from|per)\s+(?:the\s+|its\s+)?(?:[\w.-]+\s+)?" + _SOURCE + r"\s*[,:)]"
                           r"|\b" + _SOURCE + r"(?:['\u2019]s)?\s+(?:\w+\s+)?(?:says?|said|claims?|claimed|reports?|reported"
                           r"|shows?|showed|lists?|listed|quotes?|states?|stated|mentions?|promises?|advertises?)\b")
# A claim's word with no source named: a claim only where nothing in the sentence is the run's
# ("typically gives a 2-3x speedup"; "A typical run here gives 2.1x speedup", "Typical speedup: 2.1x
# on our H100" are the run's, and were dropped). Searched in lower case.
_CLAIM_WORD = re.compile(r"\b(?:claims?|claimed|advertised|promised|typical(?:ly)?)\b")
_OWN_RUN_WORD = re.compile(r"\b(?:here|we|i|our|ours|my|us|this\s+(?:run|box|machine|setup|node|host)|measured|locally|got|see|saw)\b")
_SENTENCE_END = re.compile(r"[.;!?](?:\s|$)|\n")
# After the factor: its source right after it ("the 4.4x speedup from the paper"), or further on
# with a word that says so ("..., per the model card", "(reported in the paper)").
# The words between are the source's own ("the original eagle paper"), no preposition: "2.1x speedup
# per request in docs" is no source named.
_SOURCE_NAMED = (r"\s+(?:the\s+|its\s+)?(?:[\w.-]+['\u2019]s\s+)?(?:(?!(?:in|on|at|of|for|to|by|per|from|with)\s)[\w.-]+\s+){0,2}?"
                 + _SOURCE + r"\b")
_CLAIM_AFTER = re.compile(r"^\s*,?\s*\(?(?:from|in|by)" + _SOURCE_NAMED
                          + r"|\b(?:per|according\s+to|as\s+(?:in|per)|(?:reported|claimed|stated|quoted|listed|given)\s+(?:in|by|from))"
                          + _SOURCE_NAMED)
# What ends a claim's reach: a sentence, and the run's own words ("we", "our", "but", "vs").
_CLAIM_BREAK = re.compile(r"[.;!?](?:\s|$)|\n|\b(?:we|i|our|my|us|but|while|whereas|however|vs|versus|compared)\b")
# A factor, then the run's own words: what comes after is the run's, whatever source the clause
# named first ("The README says 3x, measured here 1.9x", "the paper reported a 4x speedup, this run
# gave a 1.6x speedup"; the 1.9 and the 1.6 were dropped with the source's). Searched in lower case.
_RUN_AFTER_FACTOR = re.compile(r"\d\s*[x\u00d7](?![\w-])[^\n]*?\b(?:measur\w*|observ\w*|here|locally|actual(?:ly)?|in\s+practice"
                               r"|reproduc\w*|(?:this|the|a|my)\s+(?:run|bench\w*|box|machine|setup|test)|got|gets?|getting"
                               r"|see[sn]?|saw|ours|mine)\b")


def _claimed(text: str, start: int, end: int) -> bool:
    """Whether the factor from ``start`` to ``end`` is one a source states (see _CLAIM_SOURCE)."""
    window = text[max(0, start - 80):end + 120].lower()
    if not ("pap" in window or "readme" in window or "card" in window or "blog" in window or "doc" in window
            or "author" in window or "typical" in window or "claim" in window or "advertis" in window
            or "promis" in window or "arxiv" in window or "abstract" in window):
        return False  # a literal gate: most factors have no source named near them
    before = text[max(0, start - 80):start].lower()
    cut = None
    for cut in _CLAIM_BREAK.finditer(before):
        pass
    clause = before[cut.end():] if cut is not None else before
    if "x" in clause or "\u00d7" in clause:
        run = None
        for run in _RUN_AFTER_FACTOR.finditer(clause):
            pass
        if run is not None:
            clause = clause[run.end():]
    if _CLAIM_SOURCE.search(clause) is not None:
        return True
    after = text[end:end + 120].lower()
    if _CLAIM_WORD.search(clause) is not None:
        sentence = _SENTENCE_END.search(after)
        if _OWN_RUN_WORD.search(clause) is None and _OWN_RUN_WORD.search(after, 0, sentence.start() if sentence else len(after)) is None:
            return True
    stop = _CLAIM_BREAK.search(after)
    return _CLAIM_AFTER.search(after, 0, stop.start() if stop is not None else len(after)) is not None


def _wanted(text: str, start: int) -> bool:
    """Whether the words just before the factor at ``start`` (or before the "speedup" that heads
    it) make it a wish, a goal or a projection."""
    before = text[max(0, start - 40):start].lower()
    if _wished(before):
        return True
    if not ("goal" in before or "aim" in before or "obj" in before or "arget" in before or "plan" in before
            or "criteri" in before or "ect" in before or "mat" in before or "dict" in before or "heor" in before
            or "deal" in before or "need" in before or "want" in before or "desir" in before or "requir" in before
            or "ould" in before or "ight" in before or "bound" in before or "=" in before or "\u2265" in before
            or "ach" in before or "get" in before or "suppos" in before):
        return False  # literal gates: most factors have none of the words
    if text[start:start + 8].lower().startswith(("speedup", "speed-up")):
        before += "speedup"  # "Target speedup: 2x": the factor follows the word
    if start <= 40:
        before = "\n" + before  # the text's start is a line's (_GOAL_FACTOR's imperatives)
    goal = _GOAL_FACTOR.search(before)
    if goal is None:
        return False
    if _GOAL_OUTCOME.search(before, 0, goal.start()):
        return False  # "Hit the target: 1.8x", "Missed our goal: 1.4x": what the run gave against it
    if goal.group().startswith((">=", "\u2265")):
        # a bare sign: "Verify EAGLE-3 gives >=1.5x" asks for it, "Measured >=1.5x on all runs" read it
        return _CRITERION_ASKED.search(before, 0, goal.start()) is not None
    if "target" in goal.group():  # "EAGLE-3 vs target: 1.9x", "draft + target: 1.8x": the target model
        return _TARGET_COMPARED.search(before, 0, goal.start()) is None and \
            _TARGET_JOINED.search(before, 0, goal.start()) is None
    return not ("expected" in goal.group() and _GOT_EXPECTED.search(before, 0, goal.end()))


# A factor a plan, a goal, a bound or an estimate heads: "target: 2x over baseline", "Goal: >=2x
# speedup", "Success criteria: 1.5x over baseline", "Plan: get 2x over baseline", "Expected speedup
# 1.8x over baseline", "estimated speedup: 1.8x", "Theoretical max speedup: 3.2x", "needs to be 2x
# over baseline", "which would mean 2x over baseline", "could give 2x speedup", "is expected to give
# 2-3x speedup", a criterion's sign ("Verify EAGLE-3 gives >=1.5x speedup") and a to-do's imperative
# at a line's start ("- [ ] Reach 2x speedup", "Get to 2x over baseline"; not "Hit 1.9x", a past
# tense as well). Each was a speedup reading; _WANTED reads the bare verbs, this the rest. "target"
# is a goal here only as a heading or "target speedup": "EAGLE-3 vs target: 1.9x" sets the target
# model against the run (_TARGET_COMPARED); "could" and "might" only before a verb of what a run
# would give ("I could get 1.8x before the upgrade" was measured). Searched in lower case, on the
# words before the factor.
_GOAL_FACTOR = re.compile(
    r"(?:\b(?:goals?|aims?|objectives?|targets?|plan|needs?|requirements?|(?:success|acceptance)\s+criteri(?:a|on))"
    r"(?:\s+(?:speed-?ups?|throughput|gain))?\s*(?:[:=]|\s-|\bis\b|\bwas\b)"
    r"|\b(?:expected|estimated|predicted|projected|theoretical|ideal|desired|required|target)"
    r"(?:\s+(?:max(?:imum)?|peak|upper[\s-]bound))?\s+speed-?ups?"
    r"(?:\s*[:=]|\s+(?:is|was|of|would\s+be|should\s+be)\b)?"
    r"|\bupper[\s-]bound(?:\s+(?:on\s+)?(?:the\s+)?speed-?ups?)?\s*(?:[:=]|\bis\b|\bof\b)?"
    r"|\b(?:expected|estimated|predicted|projected)\s*[:=]"
    r"|\b(?:expected|estimated|predicted|projected|supposed)\s+to\s+(?:give|bring|deliver|yield|be)\b"
    r"|\b(?:would|could|might)\s+(?:give|mean|yield|be|bring)\b"
    r"|\bneeds?\s+to\s+(?:be|hit|reach|get|see)\b"
    r"|(?:>=|\u2265)"
    r"|(?:\n|^\s*[-*\u2022]|\[[ x]\])\s*(?:[-*\u2022]\s*)?(?:\[[ x]\]\s*)?(?:achieve|reach|get\s+to)\b)"
    r"(?:\s*(?:>=|\u2265|>|~)|\s+(?:at\s+least|about|around|roughly|approx(?:imately|\.)?|an?|to|get|hit|reach|see"
    r"|achieve)\b)*"
    r"\s*(?:\d+(?:\.\d+)?x?\s*[-\u2013~]\s*)?(?:speed-?up)?$")  # a range's low end: "2-3x"
# A goal's heading the words before make an outcome: "We reached the target: 1.8x over baseline",
# "Missed our goal: 1.4x speedup", "below the target: 1.4x" (each was dropped as a goal).
_GOAL_OUTCOME = re.compile(r"\b(?:reached|hit|met|beat(?:en)?|exceed(?:ed|s)|miss(?:ed|es)|achieved|surpassed|passed"
                           r"|below|above|short\s+of)\s+(?:(?:the|our|my|its|their)\s+)?$")
# What makes a bare ">=" a criterion: a check or a need asked for before it ("Verify EAGLE-3 gives
# >=1.5x speedup"); "Saw >=1.5x speedup at every batch size", "All runs >= 1.5x" are readings.
_CRITERION_ASKED = re.compile(r"\b(?:verify|check|ensure|confirm|make\s+sure|assert|must|should|shall|needs?|requires?"
                              r"|wants?|expect|until|aim)\b")
_TARGET_JOINED = re.compile(r"(?:[+&/]|\band\b|\bwith\b|\bdraft\w*)\s*$")


def _wished(before: str) -> bool:
    """:func:`_wanted` on the lower-case words ``before`` a number."""
    m = _WANTED.search(before)
    if m is None:
        return False
    if m.group().startswith("target"):
        return _TARGET_COMPARED.search(before, 0, m.start()) is None
    return not (m.group().startswith("expected") and _GOT_EXPECTED.search(before, 0, m.end()))


# "EAGLE-3 over the target was 1.9x faster", "compared to the target is 1.8x": the target model is
# what the run is set against, no goal ("the target was 2x" is one). Searched in lower case.
_TARGET_COMPARED = re.compile(r"\b(?:over|vs\.?|versus|than|against|to|from)\s+(?:the\s+)?$")


# One speedup for each method, the method beside each factor: "1.52x (EAGLE3) and 0.97x (ngram)",
# "1.8x speedup with EAGLE-3, 1.1x with ngram". Each further factor is read only with a drafting
# method of its own named beside it (_SPEC_NAMED), as the first is: "1.5x (EAGLE3) and 2x the
# memory" or "... and 1.0x (baseline)" is no second speedup.
_METHOD_TAG = r"\s*(?:\((?P<{0}>[^()\n]{{1,30}})\)|(?:with|using)\s+(?:the\s+)?(?P<{0}w>[\w.-]+(?:\s+(?!(?:and|or|vs)\b)[\w.-]+)?))"
_FIRST_METHOD = re.compile(_METHOD_TAG.format("tag"), re.I)
_NEXT_METHOD_FACTOR = re.compile(r"\s*(?:,\s*(?:and\s+)?|;\s*|and\s+|vs\.?\s+|/\s*)\*{0,2}(?:~\s*)?"
                                 r"(?P<value>\d+(?:\.\d+)?)\s?[x\u00d7](?!\w)\*{0,2}(?P<own>\s+speed-?up)?"
                                 + _METHOD_TAG.format("tag"), re.I)


def _names_method(m: re.Match) -> bool:
    tag = m.group("tag") or m.group("tagw")
    return _SPEC_NAMED.search(tag) is not None and _NO_SPEC_NAMED.search(tag) is None


def _each_methods_factor(text: str, at: int) -> list[Metric]:
    """The speedups after the one that ends at ``at``, each with its method (see _METHOD_TAG)."""
    first = _FIRST_METHOD.match(text, at)
    if first is None or not _names_method(first):
        return []
    more, at = [], first.end()
    while len(more) < 8 and (m := _NEXT_METHOD_FACTOR.match(text, at)) is not None and _names_method(m):
        if m.group("own"):
            # "... and 0.97x speedup (ngram)": a factor with its own word is _speedups' to read,
            # and the factors after it are read from there (was: read twice)
            break
        value = float(m.group("value"))
        if 0 < value <= 20:
            more.append(Metric("speedup", value, "x", _context(text, m.start("value"), m.end())))
        at = m.end()
    return more


# What a speedup is of, when it is of something else than generating tokens: "a 60% speedup in
# compile time", "a 30% speed-up of the tokenizer load", "2x speedup for model loading". A
# kernel's or the prefill's speedup is no speedup of decoding with a drafter either.
_ANOTHER_TASK = re.compile(
    r"\s+(?:in|of|for|on|to)\s+(?:the\s+|our\s+|its\s+|model\s+|weight\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:compil\w*|load\w*|startup|start-up|boot\w*|build\w*|train\w*|fine-?tun\w*|prefill|ttft|time[\s-]to[\s-]first"
    r"|tokeniz\w*|import\w*|install\w*|download\w*|warm-?up|cuda[\s-]?graph|capture|kernel|gemm|matmul"
    r"|all-?reduce|checkpoint\w*|conver\w*|quantiz\w*)", re.I)


_ANOTHER_TASK_BEFORE = re.compile(
    r"(?:compil\w*|load\w*|startup|boot|build|train\w*|prefill|ttft|tokeniz\w*|import|install|download\w*|warm-?up"
    r"|cuda[\s-]?graph|capture|kernel|gemm|matmul|all-?reduce|checkpoint\w*|conver\w*|quantiz\w*)[\s_-]*$", re.I)


# A gain in throughput said as a percentage: "EAGLE3 gives ~60% higher throughput", "with EAGLE3,
# throughput up 60%", "throughput is 30% lower with the draft". A speedup only where it is set
# against the run without speculation: said so after it ("than the baseline", "over no-spec"),
# or the clause names the speculative method and no change to a run ("after fixing the vocab
# mapping, EAGLE3 throughput up 60%" compares two runs that both speculate). Searched with re.I.
_TPUT = r"(?:(?:decode|decoding|output|generation|gen)\s+)?(?:throughput|tok(?:en)?s?/s\b)"
_PCT = r"[~\u2248]?\s*(?P<value{0}>\d+(?:\.\d+)?)\s?%"
_PCT_THROUGHPUT = re.compile(
    # "60% higher throughput"
    r"(?<![\w.+-])" + _PCT.format(1) + r"\s+(?P<dir1>higher|more|greater|better|lower|less)\s+" + _TPUT
    # "throughput up 60%", "throughput increased by 35%", "throughput is 30% lower"
    + r"|(?:throughput|tok(?:en)?s?/s)\s+(?:(?:is|was|went|has\s+gone|goes)\s+)?(?:"
    r"(?P<dir2>up|down|increased|improved|rose|jumped|grew|dropped|decreased|fell|regressed)\s+(?:by\s+)?"
    r"(?:about\s+|roughly\s+|around\s+)?" + _PCT.format(2)
    + r"|" + _PCT.format(3) + r"\s+(?P<dir3>higher|lower|up|down|better|worse))"
    # "improved throughput by 45%"
    + r"|(?P<dir4>improv\w*|increas\w*|boost\w*|reduc\w*|decreas\w*|hurt|cut)\s+(?:the\s+)?" + _TPUT
    + r"\s+by\s+(?:about\s+|roughly\s+|around\s+)?" + _PCT.format(4)
    # "a 35% throughput boost"
    + r"|(?<![\w.+-])" + _PCT.format(5) + r"\s+" + _TPUT
    + r"\s+(?P<dir5>boost|gain|improvement|increase|uplift|drop|regression|loss|decrease|reduction)\b"
    # "throughput: +45%"
    + r"|(?:throughput|tok(?:en)?s?/s)\s*[:=]\s*\**(?P<dir6>[+-\u2212])" + _PCT.format(6), re.I)
# The prompt's stage named before "throughput" ("prefill throughput", "prompt tok/s", llama-bench's
# "pp512"): a speculative run's prefill is no faster or slower than the drafter makes decoding.
_PROMPT_STAGE_BEFORE = re.compile(r"(?:prefill|prompt(?:[\s-]processing)?|input|pp\d*)[\s_-]*$", re.I)
_GAIN_DIRS = frozenset({"higher", "more", "greater", "better", "up", "increased", "improved", "rose", "jumped", "grew",
                        "boost", "gain", "improvement", "increase", "uplift", "+"})
_GAIN_VERB = re.compile(r"improv|increas|boost", re.I)
_OVER_BASELINE = re.compile(r"\s+(?:th[ae]n|over|vs\.?|versus|compared\s+(?:to|with)|relative\s+to|against)\s+"
                            r"(?:the\s+)?(?:" + _BASELINE_WORDS + r")", re.I)
_COMPARED_WITH = re.compile(r"\s+(?:th[ae]n|over|vs\.?|versus|compared\s+(?:to|with)|relative\s+to|against)\b", re.I)
_SPEC_NAMED = re.compile(r"eagle|spec(?:ulat|\b|[\s_-]*dec)|\bmtp\b|medusa|n-?gram|dflash|draft", re.I)
_NO_SPEC_NAMED = re.compile(NO_SPEC + r"|baseline|vanilla|disabl|turn(?:ed|ing)?\s+off|switch(?:ed|ing)?\s+off", re.I)
# A change made between two runs; not "lower"/"higher" alone, which say how another quantity moved
# ("~60% higher throughput, and 40% lower TPOT", ggml-org/llama.cpp#10664).
_RUN_CHANGE = re.compile(r"\b(?:after|before|fix\w*|tun(?:e|ed|es|ing)|chang\w*|switch\w*|updat\w*|upgrad\w*|bump\w*"
                         r"|rais(?:e|ed|es|ing)|lower(?:ed|ing)|increas(?:ed|ing)|decreas(?:ed|ing))\b", re.I)
_CLAUSE_BREAK = re.compile(r"[.;!?](?:\s|$)|\n")


def _clause_start(text: str, lo: int, hi: int) -> int:
    """Where the clause ending at ``hi`` starts: after the last clause break in ``text[lo:hi]``, else ``lo``."""
    start = lo
    for c in _CLAUSE_BREAK.finditer(text, lo, hi):
        start = c.end()
    return start


def _percent_throughput(text: str, found: list[Metric]) -> None:
    """Speedups said as a percentage of throughput (see _PCT_THROUGHPUT)."""
    for m in _PCT_THROUGHPUT.finditer(text):
        i = next(i for i in range(1, 7) if m.group(f"value{i}") is not None)
        value, way = float(m.group(f"value{i}")), m.group(f"dir{i}").lower()
        gain = way in _GAIN_DIRS or (i == 4 and _GAIN_VERB.match(way) is not None)
        if not 0 < value < (1000 if gain else 100):
            continue
        if _OTHER_METHOD.match(text, m.end()) is not None:
            continue  # "17% higher throughput than eagle-2": one drafter against another
        if (than := _OVER_BASELINE.match(text, m.end())) is None and _COMPARED_WITH.match(text, m.end()):
            continue  # "45% higher than with the old draft": against a run it names, not the baseline
        if _PROMPT_STAGE_BEFORE.search(text, max(0, m.start() - 24), m.start()) is not None:
            continue  # "prefill throughput dropped 30% with the draft": the prompt's speed, no decoding's
        if than is None and not _spec_clause(text, m.start(), m.end()):
            continue
        factor = round(1 + value / 100 if gain else 1 - value / 100, 4)
        found.append(Metric("speedup", factor, "x", _context(text, m.start(), than.end() if than else m.end())))


# A share of the baseline's speed: "EAGLE3 is 0.85x the baseline throughput", "runs at 85% of
# baseline throughput". The baseline named, no subject is needed. Searched with re.I.
_BASELINE_SHARE = re.compile(
    r"(?<![\w.+-])[~\u2248]?(?P<value>\d+(?:\.\d+)?)\s?(?:(?P<x>[x\u00d7])|%\s+of)\s+(?:the\s+)?"
    r"(?:baseline|vanilla|autoregressive|(?-i:AR\b)|non-spec\w*|no-spec\w*)(?:['\u2019]s)?\s+"
    r"(?:(?:decode|decoding|output|generation)\s+)?(?:throughput|speed|tok(?:en)?s?/s|tps)\b", re.I)


def _baseline_share(text: str, found: list[Metric]) -> None:
    for m in _BASELINE_SHARE.finditer(text):
        value = float(m.group("value")) if m.group("x") else float(m.group("value")) / 100
        if 0 < value <= 20 and not any(f.name == "speedup" and f.value == round(value, 4) for f in found):
            # (not again what the speedup's word gave: "a speedup of 0.85x the baseline throughput")
            found.append(Metric("speedup", round(value, 4), "x", _context(text, m.start(), m.end())))


# A decode latency as a factor with the drafter on: "TPOT is 13.6x lower with MTP on", "2x lower
# ITL with EAGLE-3 enabled", "per-token latency 1.5x higher with the draft model". A token's time
# is the inverse of the decode speed: N x lower is a speedup of N, N x higher one of 1/N. The
# first token's time (TTFT) is the prefill's, which the drafter does not speed up, and no speedup.
# With the drafter off ("with MTP off", "without EAGLE") the factor is the other way round.
_LATENCY = (r"(?:(?:decode|decoding|generation|per[\s-]token|inter[\s-]token|e2e|end[\s-]to[\s-]end|mean|median|avg)\s+)?"
            r"(?:latency|tpot|itl|time[\s-]per[\s-]output[\s-]token)")
_LATENCY_RATIO = re.compile(
    r"(?<![\w-])(?:" + _LATENCY + r")\s+(?:(?:is|was|gets|got|becomes|became|went|drops?|dropped|goes)\s+)?"
    r"(?:about\s+|roughly\s+|around\s+|~\s*)?(?P<v1>\d+(?:\.\d+)?)\s?[x\u00d7]\s+(?P<d1>lower|higher)"
    r"|(?<![\w.])(?P<v2>\d+(?:\.\d+)?)\s?[x\u00d7]\s+(?P<d2>lower|higher)\s+(?:" + _LATENCY + r")", re.I)
_WITH_SPEC = re.compile(r"[\s,]+(?P<without>with(?:out)?|w/o?)\s+(?:the\s+)?(?:eagle[-\s]?\d?\b|mtp\b|medusa\b|n-?gram\b"
                        r"|dflash\b|draft(?:er|\s+model)?\b|spec(?:ulat\w*|ulative\s+decoding|\s+decod\w*)?\b)"
                        r"(?:[\s-]+(?P<state>on|enabled|off|disabled))?", re.I)


# A throughput's gain as a factor: "MTP gives 1.4x higher throughput", "throughput is 2x higher
# with EAGLE3 enabled", as _PCT_THROUGHPUT reads "60% higher throughput": a speedup where the
# clause names the drafter and no change between two runs (_spec_clause), or the drafter follows.
_TPUT_FACTOR = re.compile(
    r"(?<![\w.])(?P<v1>\d+(?:\.\d+)?)\s?[x\u00d7]\s+(?:higher|more|greater|better)\s+" + _TPUT
    + r"|(?:throughput|tok(?:en)?s?/s)\s+(?:(?:is|was|gets|got)\s+)?(?:about\s+|roughly\s+|~\s*)?"
    r"(?P<v2>\d+(?:\.\d+)?)\s?[x\u00d7]\s+(?:higher|better)\b", re.I)


def _throughput_factors(text: str, found: list[Metric]) -> None:
    for m in _TPUT_FACTOR.finditer(text):
        value = float(m.group("v1") or m.group("v2"))
        if not 0 < value <= 20 or _PROMPT_STAGE_BEFORE.search(text, max(0, m.start() - 24), m.start()) is not None:
            continue
        if _OTHER_METHOD.match(text, m.end()) is not None or _THAN_OTHER.match(text, m.end()) is not None:
            continue  # "2x higher throughput than eagle-2 / than yesterday": against another run
        spec = _WITH_SPEC.match(text, m.end())
        if spec is not None and (spec.group("without").lower() in ("without", "w/o")
                                 or (spec.group("state") or "").lower() in ("off", "disabled")):
            continue  # "2x higher throughput without MTP": the drafter slows it (said too rarely to read)
        if spec is None and not _spec_clause(text, m.start(), m.end()):
            continue
        found.append(Metric("speedup", value, "x", _context(text, m.start(), spec.end() if spec else m.end())))


# A factor with no speed word, where the words make it one (was no reading): set against the run
# without speculation ("EAGLE-3 gives 1.8x over baseline here", "MTP: 1.4x vs no-spec", "0.9x
# compared to vanilla decoding"), or what the drafting method, the clause's subject, gave ("EAGLE-3
# gives 1.8x on MT-bench", "MTP achieved ~1.4x."). A factor of another quantity is none: "1.8x the
# memory", "2x more GPUs", "gets 4x H100", "TTFT is 1.5x over baseline", "1.8x over baseline memory".
# The sign first (a scan for one of two characters; the whole pattern, tried at every offset, cost
# 0.14 s a megabyte of prose), then the number before it.
_FACTOR_SIGN = re.compile(r"[x\u00d7](?![\w-]|\.\w)\**")
_FACTOR_NUMBER = re.compile(r"(?<![\w.])[~\u2248]?(?P<value>\d+(?:\.\d+)?)\s?$")
_FACTOR_VS_BASELINE = re.compile(
    r"\s+(?:over|vs\.?|versus|against|compared\s+(?:to|with)|relative\s+to|w\.?r\.?t\.?)\s+(?:the\s+)?"
    r"(?:" + _BASELINE_WORDS + r"|regular|normal|plain|non-spec\w*|no-spec\w*)"
    r"(?:\s+(?:decod\w*|generation|run|inference|serving))?(?P<after>\s+[\w-]+)?", re.I)
_NOT_SPEED_QUANTITY = (r"(?:memory|vram|hbm|ram|footprint|usage|latency|ttft|tpot|itl|cost|power|energy|size|params?"
                       r"|parameters|gpus?|disk|time|compile|load\w*|startup|prefill)")
_QUANTITY_AFTER = re.compile(r"\s+" + _NOT_SPEED_QUANTITY + r"\b", re.I)
# the quantity named right before the factor: "memory use is 1.8x over baseline", "TTFT: 1.5x vs no-spec",
# "TTFT went up 1.5x vs baseline"
_QUANTITY_BEFORE = re.compile(r"\b" + _NOT_SPEED_QUANTITY + r"(?:\s+(?:use|usage|footprint|cost))?\s*"
                              r"(?:(?:[:=]|is|was|are|were|becomes|became|grows|grew|went|goes|rose|of|at)"
                              r"(?:\s+(?:up|down))?)?\s*"
                              r"(?:about|around|roughly|~)?\s*$", re.I)
_GAVE_BEFORE = re.compile(r"\b(?:gives?|gave|achiev(?:e|es|ed)|deliver(?:s|ed)?|gets?|got|brings?|brought|yield(?:s|ed)?"
                          r"|shows?|showed|sees?|saw|hits?|reach(?:es|ed)?)\s+(?:(?:a|an|about|around|roughly"
                          r"|approximately|only|just|nearly|almost)\s+)*$", re.I)
# a wish or a possibility before the verb: "to get 2x", "should give 1.8x", "can reach 2x"
_MAYBE_BEFORE = re.compile(r"\b(?:to|can|could|should|would|will|might|may|must|cannot|can['\u2019]t|won['\u2019]t)\s+$", re.I)
# what may follow a factor the method gave: the clause's end, or where and how it was measured
_GAVE_AFTER = re.compile(r"\s*(?:[.,;:!)\n]|$|(?:here|there|now|overall|today|end-to-end|e2e|on|at|for|with|across"
                         r"|in\s+(?:throughput|decode|decoding|speed|tok))\b)", re.I)


_EQUALS_BEFORE = re.compile(r"(?:/s(?:ec)?|tps|\d)\s*\)?\s*[=\u2248]\s*$")
_COMPARED_IN = re.compile(r"\b(?:vs\.?|versus|against|over|compared)\s", re.I)
# the base model set against the drafter (as _VS_BASE_BEFORE): "eagle3 131 tok/s vs base 104 tok/s = 1.26x"
_VS_BASE_IN = re.compile(r"\b(?:vs\.?|versus|against|than)\s+(?:the\s+)?base\b", re.I)
# the acceptance's ratio: "accept length 3.2 vs baseline 1 = 3.2x" is no speedup
_ACCEPT_IN = re.compile(r"\baccept", re.I)
# the sentence the factor is in is a question: "Can EAGLE-3 reach 2x over baseline?"
_ASKED_AFTER = re.compile(r"[^.!?,;\n]{0,80}\?")
_QUANTITY_IN = re.compile(r"\b" + _NOT_SPEED_QUANTITY + r"\b", re.I)


def _names_drafting_or_baseline(text: str) -> bool:
    """A literal gate for _bare_factors: the words a factor needs about it to be a speedup."""
    return "aseline" in text or "anilla" in text or "egressive" in text or "spec" in text or "agle" in text \
        or "AGLE" in text or "MTP" in text or "mtp" in text or "draft" in text


def _bare_factors(text: str, found: list[Metric]) -> None:
    """Speedups said as a factor alone (see _FACTOR_SIGN); one a speed word gave is not read again."""
    for m in _FACTOR_SIGN.finditer(text):
        at = m.start()
        if at == 0 or not text[at - 1].isdigit() and not (text[at - 1] == " " and text[at - 2:at - 1].isdigit()):
            continue
        number = _FACTOR_NUMBER.search(text, max(0, at - 24), at)
        if number is None:
            continue
        value, a = float(number.group("value")), number.start()
        # the anchored tests first: most factors ("8x H100", "2x batch") fail them all at once
        vs = _FACTOR_VS_BASELINE.match(text, m.end())
        equals = _EQUALS_BEFORE.search(text, max(0, a - 12), a)
        if vs is None and equals is None and _GAVE_AFTER.match(text, m.end()) is None:
            continue
        if not 0 < value <= 20 or _QUANTITY_BEFORE.search(text, max(0, a - 30), a) is not None:
            continue
        if equals is not None:
            # the ratio of two readings the clause set side by side, one the baseline's: "speculative
            # 25.54 tok/s vs baseline 15.72 tok/s = 1.62x"
            clause = text[_clause_start(text, max(0, a - 160), a):a]
            if _COMPARED_IN.search(clause) is None \
                    or (_NO_SPEC_NAMED.search(clause) is None and _VS_BASE_IN.search(clause) is None) \
                    or _QUANTITY_IN.search(clause) is not None or _ACCEPT_IN.search(clause) is not None \
                    or _QUANTITY_AFTER.match(text, m.end()) is not None:
                continue  # "memory 25 vs baseline 15 = 1.6x", "tp=2 vs baseline tp=1 = 2x GPUs": another quantity's ratio
            b = m.end()
        elif vs is not None:
            if vs.group("after") and _QUANTITY_AFTER.match(vs.group("after")):
                continue  # "1.8x over baseline memory"
            if _ASKED_AFTER.match(text, m.end()) is not None:
                continue  # "Does EAGLE-3 give 1.8x over baseline?": a question, as in the branch below
            gave = _GAVE_BEFORE.search(text, max(0, a - 40), a)
            if gave is not None and _MAYBE_BEFORE.search(text, max(0, gave.start() - 12), gave.start()) is not None:
                continue  # "EAGLE-3 can reach 2x over baseline", "to get 2x vs no-spec": a wish, as below
            b = vs.end("after") if vs.group("after") else vs.end()
        else:
            gave = _GAVE_BEFORE.search(text, max(0, a - 40), a)
            if gave is None or text[m.end():m.end() + 2].strip() == "?" \
                    or _MAYBE_BEFORE.search(text, max(0, gave.start() - 12), gave.start()) is not None:
                continue
            subject = text[_clause_start(text, max(0, a - 120), gave.start()):gave.start()]
            if _SPEC_NAMED.search(subject) is None or _NO_SPEC_NAMED.search(subject) is not None:
                continue  # "the new driver gives 1.8x": no drafter's
            b = m.end()
        if _wanted(text, a) or _claimed(text, a, b) or any(f.name == "speedup" and f.value == value for f in found):
            continue
        found.append(Metric("speedup", value, "x", _context(text, a, b)))


# A request's mean or median end-to-end latency said in words, as the benchmarks print it (their
# "Mean E2E Latency (ms)", "Median E2EL (ms)", _BENCH_KEYS): "the mean E2E latency dropped to
# 1432 ms", "median end-to-end latency: 1.4 s". Without "mean"/"median" (or "avg", "p50") it says
# not which, and is none. Searched with re.I.
_E2E_PROSE = re.compile(
    r"\b(?P<stat>mean|median|avg|average|p50)\s+(?:e2e|end[\s-]to[\s-]end)(?:\s+request)?\s+latency\b"
    r"(?:\s*\((?P<said>ms|s)\))?\s*(?:[:=]|is|was|(?P<cond>of|at)|(?:dropped|fell|went|rose|increased|decreased|improved)\s+to)?"
    r"\s*(?:about\s+|around\s+|~\s*)?\**(?P<value>\d+(?:\.\d+)?)\**(?:\s*(?P<unit>ms|s|secs?|seconds?)\b"
    r"|(?(said)(?(cond)(?!)|(?![\w.%]))|(?!)))", re.I)
# (the unit said before the number only in "(ms)", and then not after "of"/"at", which name a
# condition as often: "Mean E2E latency (ms) at 16 concurrency: 1432.1", "(ms) of 3 runs: 900")


def _e2e_latency_prose(text: str, found: list[Metric]) -> None:
    for m in _E2E_PROSE.finditer(text):
        name = "e2e_latency_median" if m.group("stat").lower() in ("median", "p50") else "e2e_latency_mean"
        value = float(m.group("value"))
        unit = (m.group("unit") or m.group("said")).lower()
        value = value if unit == "ms" else round(value * 1000, 3)  # in ms, as the benchmarks say it
        found.append(Metric(name, value, "ms", _context(text, m.start(), m.end())))


def _latency_ratios(text: str, found: list[Metric]) -> None:
    """Speedups said as a decode latency's factor with the drafter on or off (see _LATENCY_RATIO)."""
    for m in _LATENCY_RATIO.finditer(text):
        value = float(m.group("v1") or m.group("v2"))
        if not 0 < value <= 20:
            continue
        if (spec := _WITH_SPEC.match(text, m.end())) is None:
            continue  # "TPOT is 2x lower than yesterday": no run without the drafter in it
        if _THAN_OTHER.match(text, spec.end()) is not None \
                or _PROMPT_STAGE_BEFORE.search(text, max(0, m.start() - 24), m.start()) is not None:
            continue  # "2x lower with MTP than yesterday", "prefill latency 2x higher with EAGLE-3" (TTFT's)
        off = spec.group("without").lower() in ("without", "w/o")
        off ^= (spec.group("state") or "").lower() in ("off", "disabled")  # "without MTP" or "with MTP off"
        lower = (m.group("d1") or m.group("d2")).lower() == "lower"
        factor = value if lower != off else 1 / value
        found.append(Metric("speedup", round(factor, 4), "x", _context(text, m.start(), spec.end())))


def _spec_clause(text: str, start: int, end: int) -> bool:
    """Whether the clause around ``start``-``end`` names the speculative method, and neither the
    run without it nor a change made between two runs."""
    a = _clause_start(text, max(0, start - 120), start)
    b = end + 60
    if (c := _CLAUSE_BREAK.search(text, end, b)) is not None:
        b = c.start()
    around = text[a:start] + " " + text[end:b]
    return _SPEC_NAMED.search(around) is not None and _NO_SPEC_NAMED.search(around) is None \
        and _RUN_CHANGE.search(around) is None


def _percent_faster(text: str, at: int, end: int) -> tuple[float, int, int] | None:
    """``(factor, start, end)`` of "N% faster than <the run without speculation>" around the
    word "faster" (at ``at``, ending at ``end``), 1 + N/100; None for any other comparison. The
    caller turns it into 1 - N/100 for "N% slower than <it>"."""
    pct = _PCT_BEFORE_WORD.search(text, max(0, at - 12), at)
    than = _THAN_BASELINE.match(text, end) if pct is not None else None
    if than is None and pct is not None and (more := _FASTER_TOO.match(text, end)) is not None:
        # "k=2 is 36% faster and k=4 is 28% faster than vanilla" (vllm-project/vllm#16035): one
        # "than" for both (the 36% was lost)
        than = _THAN_BASELINE.match(text, more.end())
    if than is None:
        return None
    return round(1 + float(pct.group("value")) / 100, 4), pct.start(), than.end()


# The next run's percentage and "faster", sharing what follows (see _percent_faster).
_FASTER_TOO = re.compile(r"\s*,?\s+and\s+[^.;!?\n%]{0,40}?\d+(?:\.\d+)?\s?%\s+faster")


def _may_say_baseline(before: str) -> bool:
    """Every spelling _BASELINE_BEFORE knows has "baseline", "spec", "eagle", "draft", "vanilla",
    "regressive", "normal", "AR", "plain" or "regular" in it; the regex (an alternation searched
    at every offset) is the costly part of reading a throughput."""
    if not before.isascii():
        return True  # re.I folds some non-ASCII letters (U+017F is an "s") that lower() keeps
    low = before.lower()
    return "baseline" in low or "spec" in low or "eagle" in low or "draft" in low or "vanilla" in low \
        or "regressive" in low or "normal" in low or "AR" in before or "plain" in low or "regular" in low


def _accuracy(text: str, found: list[Metric], log_accepts: int = 0, only_accepts: bool = False) -> None:
    """``log_accepts``: how many "accept len: N" and "accept rate: N" readings _decode_batches
    found in ``text`` (0: none, or not asked); ``only_accepts``: it counted every "acc" of
    ``text`` as one of them."""
    lower, title, upper = _ACC_WORDS
    # A server log says "accept" on every line, and each is a false start of the lowercase
    # pattern (an "acc" followed by a letter); when every "acc" is one, none can match.
    # One lookahead scan says so in half the time of counting both words. A Decode batch log
    # whose every "acc" (they cannot overlap: str.count counts them all) starts one of its
    # accept readings has none other; one count tells (half the lookahead scan's instructions).
    first, starts = len(found), []
    if "c" in text and not only_accepts and (not log_accepts or text.count("acc") != log_accepts) \
            and _HAS_ACC_NOT_ACCEPT(text):
        _accuracy_with(lower, text, found, starts)
    if "A" in text:  # "Acc" and "ACC"
        _accuracy_with(title, text, found, starts)
        _accuracy_with(upper, text, found, starts)
    if len(starts) > 1 and "\r" in text:
        found[first:] = _last_redraws(text, found[first:], starts)


def _last_redraws(text: str, readings: list[Metric], starts: list[int]) -> list[Metric]:
    """The readings of a progress bar as it was left: tqdm redraws its line after a "\r" (a
    training loop's "Training:  59%|... acc=0.0107, loss=8.28]" hundreds of times in one captured
    line), and each redraw was a reading of its own (30 accuracies for one bar). A reading with a
    later one of its name on the same line, past a "\r", is dropped."""
    order = sorted(range(len(readings)), key=starts.__getitem__)
    dropped = set()
    later: dict[str, int] = {}  # name -> start of the next reading of that name (walking back)
    for i in reversed(order):
        name, start = readings[i].name, starts[i]
        other = later.get(name)
        if other is not None and text.find("\n", start, other) < 0 and text.find("\r", start, other) >= 0:
            dropped.add(i)
        later[name] = start
    return [reading for i, reading in enumerate(readings) if i not in dropped]


def _accuracy_with(pattern: re.Pattern, text: str, found: list[Metric], starts: list[int]) -> None:
    for word in pattern.finditer(text):
        a, b = word.start(), word.end()
        if a > 0 and text[a - 1].isalpha():
            continue
        position = None
        if text[b:b + 1] == "_" and (p := _ACC_POSITION_AFTER.match(text, b)) is not None:
            position, b = p.group(1), p.end()  # "acc_0"
        elif text[a - 1:a] == "_" and (p := _ACC_POSITION_BEFORE.search(text, max(0, a - 8), a)) is not None:
            position = p.group(1)  # "test/0_acc"
        elif text[a - 1:a] == "_" and _ACC_SETTING_BEFORE.search(text, max(0, a - 10), a) is not None:
            continue  # "speculative_accept_threshold_acc=1.0"
        elif "osition" in text[max(0, a - 16):a] and \
                (p := _ACC_POSITION_WORD.search(text, max(0, a - 16), a)) is not None:
            position = p.group(1)  # "position 3, Acc: 0.18"
        if position is not None and position != "0":
            continue
        before = _PCT_BEFORE.search(text, max(0, a - 40), a)   # "74.7% validation accuracy"
        after = _VALUE_AFTER.match(text, b) if before is None else None  # "accuracy: 12.3%", "val_acc=0.747"
        if before is not None:
            value, is_pct, start, end = float(before.group("value")), True, before.start("value"), b
        elif after is not None and (after.group("sep") or after.group("pct")):
            value, is_pct, start, end = float(after.group("value")), bool(after.group("pct")), a, after.end()
        else:
            continue
        if not is_pct and value <= 1.0:
            value = round(value * 100, 3)  # acc=0.747 -> 74.7 %
        elif not is_pct and value > 100:
            continue
        window = text[max(0, a - 60):end].lower()
        # The words right at the reading name it first: in "standalone: 12.3% top-1 acc (vs
        # 74.7% val acc)" the second reading is the validation one, "standalone" or not.
        near = text[max(0, min(start, a) - 12):end].lower()
        starts.append(start)  # each branch adds one reading
        if position is not None or _CLAIMED.search(near):
            found.append(Metric("validation_accuracy", value, "%", _context(text, start, end), hintable=True))
        elif "standalone" in window:
            found.append(Metric("standalone_accuracy", value, "%", _context(text, start, end)))
        else:
            name = "validation_accuracy" if _CLAIMED.search(window) else "accuracy"
            found.append(Metric(name, value, "%", _context(text, start, end), hintable=True))


# llama.cpp's speculative examples' summary (ggml-org/llama.cpp examples/speculative/speculative.cpp
# and speculative-simple.cpp): "n_drafted = 245", "n_accept  = 231", "accept    = 94.286%" (as
# posted in ggml-org/llama.cpp#3006), the share of drafted tokens the target accepted. Nothing
# drafted prints "accept    = 0.000%" (or nan): no reading.
_LLAMA_CPP_ACCEPT = re.compile(r"^n_drafted = (?P<drafted>\d+)\s*\n(?:[^\n]*\n){0,2}?accept {4}= (?P<value>\d+(?:\.\d+)?)%",
                               re.M)


# llama-server's per-request line (tools/server/server.cpp, print_timing): "draft acceptance rate =
# 0.23026 (   70 accepted /   304 generated)" (ggml-org/llama.cpp#12603), since #24536 "draft
# acceptance = 0.54671 (  158 accepted /   289 generated), mean acceptance length =  2.63, ...":
# the rate is accepted / drafted tokens, a ratio; the word "rate" was dropped. The line as
# tools/server/server-context.cpp (print_timings) writes it since, "draft acceptance = %0.5f (%5d
# accepted / %5d generated), mean len = %5.2f", ends in the accept length: mean_acc_len there is
# 1 + accepted / verify steps, vLLM's mean acceptance length (posted in ggml-org/llama.cpp#27342,
# lemonade-sdk/llamacpp-rocm#129; was no reading).
_LLAMA_SERVER_ACCEPT = re.compile(r"draft acceptance = (\d+(?:\.\d+)?) \(\s*\d+ accepted /"
                                  r"(?:\s*\d+ generated\), mean len =\s*(?P<len>\d+(?:\.\d+)?))?")


# llama.cpp's per-drafter totals (common/speculative.cpp, common_speculative_print_stats), printed
# after each request beside print_timings' line: "statistics draft-eagle3: #calls(b,g,a) = ...,
# #gen drafts = 87, ..., #mean acc len = 2.92, #acc rate/pos = (...)" (ggml-org/llama.cpp#24536).
# Read only where no "draft acceptance =" line gives the request's own (a paste of the totals
# alone was no reading); a drafter that drafted nothing ("#gen drafts = 0") has no length.
_LLAMA_SPEC_STATS = re.compile(r"statistics\s+(?P<drafter>[\w-]+): [^\n]*?#gen drafts =\s*(?P<drafts>\d+),"
                               r"[^\n]*?#mean acc len =\s*(?P<len>\d+(?:\.\d+)?)")


# A share of drafted tokens with its counts after it: "MTP acceptance 33% (20/60)" (a speculation
# summary posted in JustVugg/colibri#523), "Accept: 61.2% (245/400)" (a script's verify loop
# report); the fraction makes it a rate whatever word precedes it. Searched with re.I.
_ACCEPT_FRACTION = re.compile(r"(?<![\w-])accept(?:ance|ed)?\s*[:=]?\s*(?P<value>\d+(?:\.\d+)?)\s*%\s*"
                              r"\(\s*\d+\s*/\s*\d+\s*\)", re.I)


def _names_drafting(low: str) -> bool:
    """Whether a text (lower case: one lower() for every word, not one each) is about drafting."""
    return any(word in low for word in ("draft", "spec", "eagle", "mtp", "medusa", "gram"))


def _accept_prose(text: str, found: list[Metric]) -> None:
    if "%" in text and "/" in text and "(" in text and (m := _ACCEPT_FRACTION.search(text)) is not None \
            and _names_drafting(text.lower()):
        # (a text about drafting: "we accepted 10% (1/10) of the PRs" is none)
        for m in _ACCEPT_FRACTION.finditer(text):
            if not _ACCEPT_RATE_WORD.match(text, m.start() + 1):  # "acceptance rate" is read below
                found.append(Metric("accept_rate", float(m.group("value")), "%", _context(text, m.start(), m.end())))
    if "=" in text and "draft acceptance = " in text:
        for m in _LLAMA_SERVER_ACCEPT.finditer(text):
            found.append(Metric("accept_rate", float(m.group(1)), "ratio", _context(text, m.start(), m.end())))
            if m.group("len"):
                found.append(Metric("accept_length", float(m.group("len")), "tokens", _context(text, m.start(), m.end())))
    elif "#" in text and "#mean acc len" in text:
        for m in _LLAMA_SPEC_STATS.finditer(text):
            if int(m.group("drafts")):
                found.append(Metric("accept_length", float(m.group("len")), "tokens",
                                    f"llama.cpp statistics {m.group('drafter')}: #mean acc len = {m.group('len')}"))
    if "_" in text and "n_accept" in text:
        for m in _LLAMA_CPP_ACCEPT.finditer(text):
            if int(m.group("drafted")):
                found.append(Metric("accept_rate", float(m.group("value")), "%",
                                    f"llama.cpp speculative: accept = {m.group('value')}% of {m.group('drafted')} drafted"))
    # "ccept" is the literal both spellings share; the letter before must be a/A. An agent's
    # text says "accept" often without a reading; each is a false start of both patterns, so
    # the word each pattern needs ("len", "rate": ~0.2 us an ``in``) is looked for first
    # (1.3 us a pattern on a 580-character text).
    for word in _ACCEPT_LEN_WORD.finditer(text) if ("len" in text or ("L" in text and "Len" in text)) else ():
        at = word.start()
        if not _accept_word_at(text, at) or text.endswith(_RENORMALIZED, 0, at - 1):
            continue
        if (m := _ACCEPT_LEN.match(text, at)) is not None:
            if _on_the_next_line(text, word.end(), m.start("value")):
                continue
            found.append(Metric("accept_length", float(m.group("value")), "tokens", _context(text, at, m.end())))
            if (then := _next_value(text, m)) is not None:
                found.append(Metric("accept_length", float(then.group("value")), "tokens", _context(text, at, then.end())))
        elif (b := _LEN_VALUE_BEFORE.search(text, max(0, at - 30), at - 1)) is not None \
                and 1.0 <= float(b.group("value")) <= _MAX_ACCEPT_LENGTH:
            found.append(Metric("accept_length", float(b.group("value")), "tokens", _context(text, b.start(), word.end())))
    if " per " in text or " each " in text or " every " in text:
        for m in _TOKENS_PER_STEP.finditer(text):
            value = float(m.group("value") or m.group("count"))
            if 1.0 <= value <= _MAX_ACCEPT_LENGTH:  # (a step keeps its verified token at least)
                found.append(Metric("accept_length", value, "tokens", _context(text, m.start(), m.end())))
    for word in _ACCEPT_RATE_WORD.finditer(text) if "rate" in text else ():
        at = word.start()
        if not _accept_word_at(text, at):
            continue
        if (m := _RATE_AFTER.match(text, word.end())) is not None:
            if _on_the_next_line(text, word.end(), m.start("value")):
                continue
            if (reading := _rate_said(m.group("value"), bool(m.group("pct")))) is not None:
                found.append(Metric(*reading, _context(text, at, m.end())))
            if (then := _next_value(text, m)) is not None:
                if (reading := _rate_said(then.group("value"), bool(then.group("pct") or m.group("pct")))) is not None:
                    found.append(Metric(*reading, _context(text, at, then.end())))
        elif (m := _RATE_AS_LENGTH.match(text, word.end())) is not None \
                and 1.0 <= float(m.group("value")) <= _MAX_ACCEPT_LENGTH:
            found.append(Metric("accept_length", float(m.group("value")), "tokens", _context(text, at, m.end())))
        elif (m := _PCT_JUST_BEFORE.search(text, max(0, at - 20), at - 1)) is not None:
            found.append(Metric("accept_rate", float(m.group("value")), "%", _context(text, m.start(), word.end())))


def _on_the_next_line(text: str, word_end: int, value_start: int) -> bool:
    """The number after "accept_length" / "accept_rate" opens the next line, nothing between
    them but the line break, and the word ends a line of columns (others before it, two spaces
    apart): a column header over a table's first row, not a reading. pandas' ``print(df)`` ends
    its header with the last column's name and starts the row with the index ("   method  steps
    output_tok_s  accept_rate\n0  eagle3  3  181.7  0.71"): its "0" read as an acceptance rate of 0
    (a drafter never accepted), "accept_length" as a length of 0. A label alone on its line
    ("Acceptance rate\n0.71", copied from a dashboard) stays a reading."""
    gap = text[word_end:value_start]
    if "\n" not in gap or gap.strip(" \t\r\n*~"):
        return False
    head = text[text.rfind("\n", 0, word_end) + 1:word_end]
    return "  " in head.strip()


def _rate_said(number: str, pct: bool) -> tuple[str, float, str] | None:
    """``(name, value, unit)`` of the number said after "acceptance rate". Accepted over drafted
    tokens is at most 1, so a bare number above 1 is something else: with decimals under 10
    ("acceptance rate 1.8") the tokens each step accepts, as TensorRT-LLM names them
    ("avg_acceptance_rate(tokens/decoding steps)", benchmarks/cpp/gptManagerBenchmark.cpp) and
    NVIDIA's specdec_bench defines them ("the number of tokens generated on every iteration ...
    for a standard autoregressive LLM just 1", NVIDIA/Model-Optimizer examples/specdec_bench);
    otherwise a percentage without its sign ("acceptance rate: 65"); over 100 none."""
    value = float(number)
    if pct:
        return ("accept_rate", value, "%") if value <= 100 else None
    if value <= 1.0:
        return "accept_rate", value, "ratio"
    if "." in number and value < 10:
        return "accept_length", value, "tokens"
    return ("accept_rate", value, "%") if value <= 100 else None


def _accept_al(text: str, found: list[Metric]) -> None:
    """"AL", the shorthand for the mean acceptance length, with its number after or before it.
    An accept length counts the target's own token, so a number under 1 is something else."""
    spec_said = None
    for pattern in (_AL_AFTER, _AL_BEFORE):
        for m in pattern.finditer(text):
            value = float(m.group("value"))
            if not 1.0 <= value <= _MAX_ACCEPT_LENGTH:
                continue
            if "." not in m.group("value"):
                # A measured mean has decimals ("2.4 AL", "AL=3.53"); a whole number is one only
                # where the text speaks of drafting: "15 AL students", "AL version 13"
                # (Business Central's language) count other things.
                if spec_said is None:
                    low = text.lower()
                    spec_said = any(word in low for word in _SPEC_WORDS)
                if not spec_said:
                    continue
            found.append(Metric("accept_length", value, "tokens", _context(text, m.start(), m.end())))


# vLLM's spec_decode.py example as patched in vllm-project/vllm#24344 prints "mean acceptance
# length: 4.59", then "num_tokens_generated_without_sd: 821" and "seq normalized acceptance
# length: 2.96", the same run's length over steps the drafter sat out too: the run's accept
# length is the mean one (read once; was both, as if two runs).
_RENORMALIZED = ("normalized ", "normalised ")


def _accept_word_at(text: str, at: int) -> bool:
    return at >= 1 and text[at - 1] in "aA" and (at < 2 or not text[at - 2].isalpha())


# How far a reading's context reaches past its 60 characters to keep the word cut there whole.
_WORD_REST = 24
_WORD_AFTER = re.compile(rf"[^\s]{{1,{_WORD_REST}}}")
_WORD_BEFORE = re.compile(rf"[^\s]{{1,{_WORD_REST}}}\Z")


def _context(text: str, start: int, end: int) -> str:
    # the newline looked for within the 60 characters kept: a progress bar redrawn with "\r" is
    # one line of megabytes, and a search to its ends for each reading was quadratic
    a = start - 60 if start > 60 else 0  # (no max() and min(): a builtin's call is most of their cost)
    a = text.rfind("\n", a, start) + 1 or a
    nl = text.find("\n", end, end + 60)
    b = nl if nl >= 0 else end + 60
    # A window end inside a word keeps the whole word (up to _WORD_REST more characters):
    # "410 tok/s at bs=16" cut after "bs=1" paired the reading with bs=1's baseline
    # (baselines.row_key reads this text), "Llama-3.1-70B" cut to "Llama-3.1-7" named no size.
    # A longer word (a path) is still cut.
    if a > 0 and not text[a - 1].isspace() and not text[a].isspace():
        m = _WORD_BEFORE.search(text, a - _WORD_REST if a > _WORD_REST else 0, a)
        if m is not None and (m.start() == 0 or text[m.start() - 1].isspace()):
            a = m.start()
    if b < len(text) and not text[b].isspace() and b > 0 and not text[b - 1].isspace():
        m = _WORD_AFTER.match(text, b)
        if m is not None and (m.end() == len(text) or text[m.end()].isspace()):
            b = m.end()
    kept = text[a:b]
    # The split and join only fold whitespace: a printable string has no whitespace but " "
    # (every other str.isspace() character is a control or a separator), so without two spaces
    # together it comes back without the one space at either end it may have.
    if kept.isprintable() and "  " not in kept:
        return kept.strip(" ")[:_CONTEXT_MAX]
    return " ".join(kept.split())[:_CONTEXT_MAX]


_CONTEXT_MAX = 200 + 2 * _WORD_REST
