"""Readings in the tables of runs people paste and tools print: GitHub-flavoured Markdown
(an agent's summary, a PR description) and python-tabulate's "psql" format (SGLang
``bench_one_batch_server``'s report). A column or a row label names the metric (throughput,
accept length or rate, speedup); a row or column labelled as the baseline gives
``baseline_throughput``, so each row is compared with its own baseline."""

from __future__ import annotations

import re
from bisect import bisect_left

Reading = tuple[str, float, str, str]
"""``(name, value, unit, context)`` of one cell, as :class:`spec_debug.session.metrics.Metric` takes them."""

# Speculation switched off, in the words people use for the baseline run: "no-spec",
# "without speculation", "w/o spec decoding", "without EAGLE-3", "without the draft".
# "spec decoding disabled" is the state only: "spec decoding disabled the radix cache" says
# what speculation turned off in SGLang (server_args.py logs "Radix cache is disabled for ..."
# and "Overlap scheduler is disabled for ...": sgl-project/sglang#3144, #32459), and the
# throughput after it is speculation's own. "SpecForge offline" (its hidden-state preparation) is
# no "spec off".
NO_SPEC = (r"\b(?:without|w/o|no|non)[- ]?(?:spec\w*(?:\s+decod\w*)?|eagle[\w-]*|(?:the\s+)?draft(?:\s+model)?)"
           r"|\bspec\w*(?:\s+decod\w*)?\s+(?:off\b|disabled(?!\s+(?:the\s+|its\s+|our\s+)?(?:[\w-]+\s+){0,2}?"
           r"(?:cache|caching|schedul\w*|graphs?|prefill|compile|overlap)\b))")
# GFM's delimiter row, and python-tabulate's "psql" rule under a header ("|------+-----|",
# columns joined by "+"). GFM asks for no number of hyphens, and a table copied from a rendered
# page into an issue comes back with two and no outer pipes ("bs | throughput\n-- | --":
# sgl-project/SpecForge#339, vllm-project/vllm#24343).
# A cell of one hyphen is GFM too (":-:", sgl-project/sglang#26171's "|-----------|:-:|:-:|"); the
# line is found by _RULE_NEEDLES (_rule_lines).
_TABLE_RULE = re.compile(r"[ \t]*[|+]?[ \t]*:?-+:?[ \t]*(?:[|+][ \t]*:?-+:?[ \t]*)+[|+]?[ \t\r]*")
# A line just above the table, ending in ":", that starts by naming the run without speculation
# ("The base model speed:" over SpecForge#339's table of batch sizes): every row is that run.
_BASELINE_CAPTION = re.compile(r"\W*(?:the\s+)?(?:base\s+model|baseline|vanilla|autoregressive|" + NO_SPEC + r")"
                               r"\b[^:\n]{0,40}:\s*$", re.I)
# A cell's reading is the number it starts with, after emphasis or "about" ("**96.8**", "~72",
# "54.8 (-39%)"); a cell that starts otherwise ("1.44x (+44%)", "n/a") holds none.
# "approximately 66%" in a cell is the reading (lightseekorg/tokenspeed#1305). A number with a
# question mark is a guess, no reading: "65?" under "tok/s" in a list of setups still to benchmark.
_CELL_NUMBER = re.compile(r"[*_~≈\s]*(?:(?:approx(?:imately|\.)?|about|around|roughly)\s+)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w.?]|,\d)")
_CELL_FACTOR = re.compile(r"[*_~≈\s]*(\d+(?:\.\d+)?)\s?[x×]")
# "AR" is autoregressive decoding, the run without a drafter, as papers and issues head its column
# ("| AR | MTP |", "AR: 45 tok/s"); in capitals only, a word of its own ("AR-" names other things).
_BASELINE_LABEL = re.compile(r"baseline|autoregressive|vanilla|(?-i:\bAR\b)(?![-/])|" + NO_SPEC, re.I)
# A column of another quantity, though its header says "throughput" or "tok/s": prefill or
# total tokens, requests, latencies, draft tokens, and one user's share of a batch ("EAGLE output
# tok/s/user" next to the batch's "EAGLE output tok/s": lightseekorg/tokenspeed#795), which
# compared with the batch's baseline would read as a tenfold slowdown.
_NOT_DECODE = ("prefill", "input", "prompt", "total", "tot ", "req", "ttft", "tpot", "itl", "latency", "(ms)", "draft",
               "/user", "per user")
# Units that make a header a throughput column, though it names the speedup too ("EAGLE output
# tok/s (speedup)" over cells like "1728.14 (1.40x)": tokenspeed#795).
_TOK_UNITS = ("tok/s", "tokens/s", "token/s", "tok/sec")


# llama-bench's prompt test naming a column ("pp512 (t/s)", "pp512" over "T/s (CUDA)",
# "pp512+tg128"): the prompt's speed (prefill) or both stages at once, no decode speed, as a row's
# test already says (_LLAMA_BENCH_TEST below); a 5000 t/s prefill beside a 95 t/s decode read as
# two runs' decode speeds.
_PROMPT_TEST = re.compile(r"\bpp\d+\b")


# llama.cpp's unit as a word of its own, first or last or before what it was measured on: "T/s
# (CUDA)" over a column of draft-n-max runs (LostRuins/koboldcpp#2262); not "pt/s" or "ct/s".
_T_PER_S = re.compile(r"(?:^|[\s(])t/s(?![\w/])")


# "acceptance" alone heads a column of rates: "| build | draft_n | accepted | acceptance | ... |"
# over "**66.67%**" cells (ggml-org/llama.cpp#26750); "accepted" beside it counts tokens.
# Tokens each verify step commits is the accept length by its definition (an autoregressive run's
# is 1): "Decoded tokens/iteration" over 3.93 and 1.94 (lightseekorg/tokenspeed#1305). Draft tokens
# a step proposes are a setting ("draft tokens/step"), no reading.
# Nor is a scheduler's budget of tokens a step, or the prompt's ("max tokens per step budget",
# "prefill tokens/iter" over 8192: vLLM's max_num_batched_tokens).
_NOT_COMMITTED = ("draft", "prefill", "prompt", "input", "budget", "max", "batch", "chunk", "total")
_TOKENS_PER_STEP = re.compile(r"\btok(?:en)?s?\s*(?:/|per)\s*(?:iteration|iter|step|forward(?:\s+pass)?|round|verify|decoding\s+step)")
# A script's key "acc_rate" ("mean_acc_rate", "acc rate (%)") beside its "acc_len" is the same rate,
# read only where the table is about drafting too ("acc" alone is an eval's accuracy).
_ACCEPTANCE_ALONE = re.compile(r"(?:(?:draft|mtp|spec|avg|mean|overall)[\s_-]+)?(?:acceptance|acc[\s_.-]*rate)(?:[\s_]*\(?%\)?)?")


def _acceptance_alone(cell: str) -> bool:
    return _ACCEPTANCE_ALONE.fullmatch(cell.lower().strip("*_` ")) is not None


def _about_drafting(text: str) -> bool:
    """Whether a table's text is about drafting: "acceptance" alone heads other columns too, an
    acceptance test suite's pass rate ("| suite | acceptance |" over "| e2e | 80% |") or a review's
    share of accepted changes; "accept rate" and "acceptance rate" name the drafter's."""
    low = text.lower()
    return any(word in low for word in ("draft", "spec", "eagle", "mtp", "medusa", "gram", "dflash", "n_max"))


# A statistic of the spread of a run's requests is no reading of the run: "| metric | mean | p99 |"
# over "| Output tok/s | 821.7 | 1104 |" (vllm bench serve's percentiles copied into a summary),
# a "P99 tok/s" column or row, the "Peak output token throughput" bench_serving prints beside its
# own (vllm/benchmarks/serve.py). Mean, average and median (p50) are the run's readings.
_SPREAD_WORD = r"(?:p(?!50\b)\d{1,2}(?:\.\d+)?|min(?:imum)?|max(?:imum)?|std(?:dev)?|stdev|peak)"
_SPREAD_STATISTIC = re.compile(r"[*`_ ]*" + _SPREAD_WORD + r"(?=$|[\s(:*`])")
# the statistic last, where a header of two rows (_header_above) or a unit row joined it to its
# group's name: GuideLLM's "Out Tok/sec" over "mean | median | p99" gives "Out Tok/sec p99"
_SPREAD_STATISTIC_LAST = re.compile(r"\s" + _SPREAD_WORD + r"[*`_ ]*$")


def _spread_statistic(cell: str) -> bool:
    low = cell.lower()
    return _SPREAD_STATISTIC.match(low) is not None or _SPREAD_STATISTIC_LAST.search(low) is not None


_ACC_LEN = ("acc_len", "acc len", "acc-len", "acc. len", "acclen")


# The unit as people head a column with it: "TPS", "decode tps", a script's key "tokens_per_second"
# or "output_tok_s" (its results dicts dumped with pandas or tabulate)
_TOKENS_PER_SECOND = re.compile(r"(?:^|[\s_(*`])(?:tps|tok(?:en)?s?_(?:per_)?s(?:ec(?:ond)?)?|tok(?:en)?s?\s+per\s+s(?:ec(?:ond)?)?)"
                                r"(?=$|[\s)*`(])")


def _header_kind(cell: str) -> str | None:
    """The metric a table header (or row label) names, if any."""
    low = cell.lower()
    if ("speedup" in low or "speed-up" in low) and not any(unit in low for unit in _TOK_UNITS):
        return "speedup"
    if _spread_statistic(low):
        return None
    # SGLang bench_one_batch_server's report table heads its column "acc length"
    # (python/sglang/bench_one_batch_server.py, get_report_summary)
    if "/" in low or "per" in low:
        if _TOKENS_PER_STEP.search(low):
            # tokens a step, never a second ("tokens/step" holds "tokens/s")
            return None if any(word in low for word in _NOT_COMMITTED) else "accept_length"
    # "acc_length" / "mean_acc_len" as a script's dict keys head the columns (pandas, tabulate);
    # "acc" alone or "acc_norm" is an eval's accuracy, no reading of the drafter
    if "acc" in low and any(word in low for word in _ACC_LEN):
        return "accept_length"
    if "rate" in low and "acc" in low and "accept" not in low and _ACCEPTANCE_ALONE.fullmatch(low.strip("*_` ")):
        return "accept_rate"
    if "accept" in low or low.startswith("acc ") or low.startswith("avg acc"):
        if "len" in low:
            return "accept_length"
        if "rate" in low or _ACCEPTANCE_ALONE.fullmatch(low.strip("*_` ")):
            return "accept_rate"
        return None
    if (any(unit in low for unit in _TOK_UNITS) or "throughput" in low
            or ("t/s" in low and _T_PER_S.search(low))
            or (("tps" in low or "_s" in low or "per s" in low) and _TOKENS_PER_SECOND.search(low))) \
            and not any(word in low for word in _NOT_DECODE) \
            and not ("pp" in low and _PROMPT_TEST.search(low)):
        return "throughput"
    return None


def _cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        line = line[:-1]
    return [cell.strip() for cell in line.split("|")]


# What a delimiter row holds somewhere: a cell of two hyphens or more, or a one-hyphen cell
# against its pipe ("|-|-|", "| - | - |") or colon (":-:"). GFM asks for one hyphen a cell, and
# people write that ("|-|-|" under a table of tok/s readings was read as no table).
_RULE_NEEDLES = ("--", "-|", "|-", "- |", ":-")


def _lines_above(text: str, start: int, count: int) -> list[str]:
    """The ``count`` lines above the line at ``start``, nearest first (fewer at the text's start)."""
    lines = []
    while start > 0 and len(lines) < count:
        above = text.rfind("\n", 0, start - 1) + 1
        lines.append(text[above:start - 1])
        start = above
    return lines


def _pretty_header_rule(text: str, start: int) -> bool:
    """Whether the "+---+" border at ``start`` is the one under the header of a tabulate "pretty"
    table: a row above it, the table's top border above that, and no row above the border. In the
    "grid" format each row is fenced by such borders (EvalScope's "Benchmarking summary"): a row
    above the border above a row makes them rows, no header."""
    above = _lines_above(text, start, 3)
    if len(above) < 2 or not above[0].lstrip().startswith("|") or not _TABLE_RULE.fullmatch(above[1]):
        return False
    return len(above) < 3 or "|" not in above[2]


def _presto_header_rule(text: str, start: int, end: int) -> bool:
    """Whether the "-----+-----" line at ``start`` is the rule under the header of a table with no
    outer border: psql's aligned output and tabulate's "presto" format ("   bs |   tok/s" over
    "------+--------"), a "|" in the header above each "+" of the rule."""
    rule = text[start:end]
    if not rule.lstrip().startswith("-") or not rule.rstrip().endswith("-"):
        return False
    above = _lines_above(text, start, 1)
    return bool(above) and above[0].count("|") == rule.count("+") and not above[0].lstrip().startswith("|")


def _rule_lines(text: str) -> list[tuple[int, int]]:
    """Where the delimiter rows ("|---|---:|", "-- | --", "|-|-|") are: each line with one of
    _RULE_NEEDLES is tried, not every offset (a multi-line "^" pattern is tried at each
    character: 1.3 ms on 22 KB of source)."""
    rules = []
    tried = set()
    for needle in _RULE_NEEDLES:
        pos = text.find(needle)
        while pos >= 0:
            start = text.rfind("\n", 0, pos) + 1
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            if start not in tried:
                tried.add(start)
                # a border of "+" corners is tabulate's "pretty" format: "+-----+-----+" over and
                # under the header of SGLang's send_one ("| Latency (s) | Tokens | Acc Length |
                # Speed (token/s) |", python/sglang/test/send_one.py)
                if text.find("|", start, end) >= 0 and _TABLE_RULE.fullmatch(text, start, end) or \
                        text.find("+", start, end) >= 0 and _TABLE_RULE.fullmatch(text, start, end) \
                        and (_pretty_header_rule(text, start) or _presto_header_rule(text, start, end)):
                    rules.append((start, end))
            pos = text.find(needle, end)
    rules.sort()
    return rules


def _under_baseline_caption(text: str, head_start: int) -> bool:
    """Whether the last non-blank line above the table's header (at ``head_start``) is a
    caption naming the run without speculation."""
    above = text[max(0, head_start - 300):head_start].rstrip()
    return bool(_BASELINE_CAPTION.match(above, above.rfind("\n") + 1))


def run_sections(text: str) -> list[tuple[bool, str]] | None:
    """The text cut at the caption lines that name a run, each part with whether its caption
    names the run without speculation; None when the text is to be read whole.

    Issues and PRs name each run in a line of its own above its output: "without eagle:" over
    SGLang Decode batch lines, then "with eagle:" over the EAGLE run's (sgl-project/sglang#6949),
    "w/o spec:" then "EAGLE3:" over bench results (sgl-project/sglang#4716), "**normal**" then
    "**use eagle3**" (sgl-project/sglang#11948), "Start SGLang without EAGLE-3:" over the launch,
    "And Test Results is:" over its results (sgl-project/sglang#5274). A caption is a line
    outside a code fence, of at most 60 characters, that ends with ":" (or the full-width "："),
    Markdown emphasis around it allowed, or that is bold and nothing else; one that names no run
    ("And Test Results is:") continues the part above it. Server logs of two runs under any two
    captions ("Before this PR：" / "After this PR：", mit-han-lab/fastrl#4) are two parts too:
    one mean over both is no reading of either."""
    found: list[tuple[int, int, str]] = []  # (start, end, lower-case words) of each caption-like line
    # the full-width colon in a pattern of its own: a non-Latin-1 character in a set costs the
    # ":" pattern its literal-prefix scan (20x slower on 12 KB)
    colons = [*_CAPTION_END.finditer(text), *_CAPTION_END_WIDE.finditer(text)] if "\uff1a" in text \
        else _CAPTION_END.finditer(text)
    for colon in colons:
        pos = colon.start()
        start = text.rfind("\n", max(0, pos - 80), pos) + 1
        line = text[start:pos + 1].lstrip(" \t>#*_-")
        if 2 <= len(line) <= 60 and not (start == 0 and pos >= 80):
            found.append((start, colon.end(), line.lower()))
    if "**" in text:  # lines that start with "**", found with str.find (a "^" regex tries every offset)
        pos = -1 if text.startswith("**") else text.find("\n**")
        while pos >= -1:
            if (m := _BOLD_LINE.match(text, pos + 1)) is not None:
                found.append((m.start(), m.end(), m.group(1).strip().lower()))
            pos = text.find("\n**", pos + 3)
            pos = pos if pos >= 0 else -2
    if not found:
        return None
    # every baseline caption has one of these (the regexes cost a microsecond a line)
    baseline_said = any("with" in low or "w/o" in low or "no " in low or "no-" in low or "non" in low
                        or "base" in low or "vanilla" in low or "regressive" in low or low.startswith("normal")
                        or ("spec" in low and ("off" in low or "disabled" in low)) for _, _, low in found)
    two_logs = len(found) > 1 and ("Decode batch" in text or "Avg generation throughput" in text)
    if not baseline_said and not two_logs:
        return None
    found.sort()
    fences = [m.start() for m in _FENCE.finditer(text)] if "```" in text else []
    captions: list[tuple[int, bool]] = []
    for start, end, low in found:
        if bisect_left(fences, start) % 2:
            continue  # inside a code fence: a log's or a program's line
        if _BASELINE_CAPTION.match(low) or _NO_SPEC_WORDS.search(low) or _NORMAL.match(low):
            captions.append((start, True))
        elif _RUN_WORDS.search(low) or (two_logs and text.startswith(("```", "["), end + 1)):
            captions.append((start, False))
    if not any(baseline for _, baseline in captions) and not (two_logs and len(captions) > 1):
        return None
    parts = [(False, text[:captions[0][0]])] if captions[0][0] > 0 else []
    for i, (start, baseline) in enumerate(captions):
        end = captions[i + 1][0] if i + 1 < len(captions) else len(text)
        cut = _fenced_block_end(text, start, end, fences) if baseline else None
        if cut is not None:
            # the no-speculation caption names the code block under it, not the words after the
            # block ("without eagle:" over a log, then "Then I enabled EAGLE3 and got 60 tok/s")
            parts += [(True, text[start:cut]), (False, text[cut:end])]
        else:
            parts.append((baseline, text[start:end]))
    return parts


def _fenced_block_end(text: str, start: int, end: int, fences: list[int]) -> int | None:
    """Where the code block right under the caption line at ``start`` ends (after its closing
    fence's line), when only words follow it before ``end``; None when no block is right under
    it, or another block follows (a caption that names no run continues the part: "Start SGLang
    without EAGLE-3:" over the launch, "And Test Results is:" over its results, sglang#5274)."""
    line_end = text.find("\n", start, end)
    if line_end < 0:
        return None
    at = line_end + 1
    while at < end and text[at] in " \t\r\n":
        at += 1
    i = bisect_left(fences, at)
    if i + 1 >= len(fences) or fences[i] != at or fences[i + 1] >= end:
        return None
    close = text.find("\n", fences[i + 1], end)
    rest = text[close + 1:end] if close >= 0 else ""
    return close + 1 if rest.strip() and "```" not in rest else None


_CAPTION_END = re.compile(r":[*_ \t\r]*$", re.M)
_CAPTION_END_WIDE = re.compile(r"\uff1a[*_ \t\r]*$", re.M)
_BOLD_LINE = re.compile(r"\*\*([^*\n]{2,60})\*\*[ \t\r]*(?=\n|$)")
_FENCE = re.compile("```")
_NO_SPEC_WORDS = re.compile(NO_SPEC)
# "normal" heads the run without speculation in sgl-project/sglang#11948 ("**normal**") and
# #2150 ("Normal decoding speed (SGLang)").
_NORMAL = re.compile(r"normal(?:\s+decod\w*)?\b(?![^:]*\bwith\b)")
# What names a run with speculation in a caption: the method, or "with" something.
_RUN_WORDS = re.compile(r"eagle|spec|draft|mtp|medusa|n-?gram|dflash|\bwith\b")


# Column headers that hold the batch size a row was run at, and the draft's depth (a row with 0
# in each drafts nothing): SGLang's --speculative-num-steps / -eagle-topk / -num-draft-tokens,
# vLLM's num_speculative_tokens, as benchmark tables name them ("bs | steps | topk | num_draft",
# sgl-project/SpecForge#339; "tp | ep | batch_size | steps | topk | num_draft_tokens",
# Tencent/AngelSlim#163).
_BATCH_HEADER = re.compile(r"(?:bs|batch[ _-]?size|(?:max[-_ ])?concurrency|max[-_]num[-_]seqs)", re.I)
_DEPTH_HEADER = re.compile(r"(?:speculative[ _-])?(?:num[ _-])?(?:steps|draft(?:[ _-]tokens)?|topk|spec(?:ulative)?[ _-]tokens)"
                           r"|k", re.I)


# A column named by a method (not by a count: "num_draft", "steps", "topk" are the draft's depth).
_RUN_COLUMN = re.compile(r"eagle|spec|mtp|medusa|dflash|n-?gram")
_UNIT_SAID = re.compile(r"[(%=]|\bms\b|\bs\b|lat|time|ttft|tpot|itl|acc|len|rate|speed|step|topk|token|num|draft|\bk\b"
                        r"|size|\bx\b|\bal\b|tau|\u03c4|\bp\d|mem|gb|gpu|ratio|alpha|score|loss")


# llama.cpp's cap on the draft (--draft-max, --spec-draft-n-max, "n_draft"), as a column of runs:
# "none" there is the run without a draft model (LostRuins/koboldcpp#2262's "| none | 36.00 | N/A |"
# over draft-n-max 0..8). Its 0 is no such run: with an MTP head, "draft-n-max 0" still drafted
# (the same table's 0.44 draft rate), so only the words count.
_DRAFT_MAX_HEADER = re.compile(r"(?:spec[ _-])?(?:draft[ _-](?:n[ _-])?max|n[ _-]?draft)", re.I)
# A run named by a draft depth of 0 drafts nothing: "| GPU | `n_max:0` | `n_max:16` | change |"
# over "| P40 | 8.7 tps | 39.4 tps | 4.45x |" (llama-server's speculative.n_max, ggml-org/llama.cpp#10455).
_NO_DRAFT_SETTING = re.compile(r"(?:\bn[_-]?max|draft[_-]?(?:n[_-]?)?max|\bn[_-]?draft|num[_-]speculative[_-]tokens"
                               r"|spec(?:ulative)?[_-]tokens)\s*[:=]?\s*0(?![\d.])", re.I)
_NO_DRAFT_CELLS = ("none", "off", "disabled", "no draft", "no spec", "no-spec")


def _batch_and_depth_columns(header: list[str]) -> tuple[int | None, list[int]]:
    batch = next((i for i, h in enumerate(header) if _BATCH_HEADER.fullmatch(h.strip("*` "))), None)
    return batch, [i for i, h in enumerate(header) if _DEPTH_HEADER.fullmatch(h.strip("*` "))]


def _names_baseline(cell: str) -> bool:
    """Whether a cell is the name of the run without speculation, a note in brackets after it
    allowed ("no-spec", "baseline (AR)"); not a note about it ("baseline+85%", "vs baseline")."""
    cell = cell.strip("*` ")
    m = _BASELINE_LABEL.match(cell)
    return m is not None and cell[m.end():].lstrip()[:1] in ("", "(")


def _row_name(header: list[str], row: list[str], batch_col: int | None) -> str:
    """How a cell's context names its row: by its batch size when a column holds it ("| 4: ..."
    is read as bs=4, baselines.row_key), after the run's own label where the first column gives
    one ("| fr-spec bs=1: ...": vllm-project/vllm#24343's Method column, which names the run and
    may name its model or engine); a first column of another number ("tp" 4) keeps its header,
    so it is read as no batch size."""
    first = row[0] if row else ""
    if batch_col is not None and batch_col < len(row):
        if batch_col == 0 or not first.strip("*` ") or _CELL_NUMBER.fullmatch(first):
            return row[batch_col]
        return f"{first} bs={row[batch_col]}"
    if header and header[0].strip() and _CELL_NUMBER.fullmatch(first):
        return f"{header[0].strip()} {first}"
    return first


# A column of the change between the runs beside them, under a table whose rows name the metric:
# "| Metric | W7900 Q4_K_M | W7900 Q4_K_M + 1.5B Q8 | % Difference |" (ggml-org/llama.cpp#10664, the
# bench_serving keys as rows): its "60.1" on the "Output token throughput (tok/s)" row is a
# percentage, and was read as a run at 60.1 tok/s.
_RELATIVE_COLUMN = re.compile(r"%|\bdiff|delta|\bchange|improv|\bgain|speed-?up|ratio|relative", re.I)


# llama-bench's table (ggml-org/llama.cpp tools/llama-bench/llama-bench.cpp): each row's "test" says
# what its "t/s" timed: "pp512" the prompt of 512 tokens (prefill), "tg128" 128 generated tokens
# (decode), "pp512+tg128" both at once; "@ d4096" a context depth after either.
_LLAMA_BENCH_TEST = re.compile(r"(pp\d+)?\+?(tg\d+)?(?:\s*@\s*d\d+)?")


def _llama_bench_stage(cell: str) -> str | None:
    """The metric a llama-bench row's test names: None for a decode row (or no such test)."""
    m = _LLAMA_BENCH_TEST.fullmatch(cell.strip("*` "))
    if m is None or not (m.group(1) or m.group(2)):
        return None
    if m.group(1) and m.group(2):
        return "total_throughput"
    return "prefill_throughput" if m.group(1) else None


# SGLang's bench_one_batch_server in newer versions reports one run's speed three ways: "output throughput
# (tok/s)", "decode-only throughput (tok/s)" and "steady decode-only throughput (tok/s)"
# (python/sglang/bench_one_batch_server.py, get_report_summary). One run is one reading: the output
# throughput, which the older reports (and a baseline run with them) have.
_ANOTHER_MEASURE = ("decode-only", "steady")


# Runs named by their draft depth, their unit in the cells: "| GPU | `n_max:0` | `n_max:16` | change |"
# over "| P40 | 8.7 tps | 39.4 tps | 4.45x |" (ggml-org/llama.cpp#10455, as posted).
_DRAFT_DEPTH_RUN = re.compile(r"(?:n[_-]?max|draft[_-]?(?:n[_-]?)?max|n[_-]?draft|num[_-]speculative[_-]tokens"
                              r"|spec(?:ulative)?[_-]tokens)\s*[:=]\s*\d+", re.I)
_SPEED_CELL = re.compile(r"[*_~\u2248\s]*\d+(?:\.\d+)?\s*(?:tps|TPS|t/s|tok(?:en)?s?/s(?:ec)?)\b")


def _run_named(cell: str) -> bool:
    """Whether a header cell names a run: by its draft depth ("n_max:16"), its method ("EAGLE3",
    "MTP") or as the run without speculation ("AR", "Baseline")."""
    cell = cell.strip("*` ")
    return _DRAFT_DEPTH_RUN.fullmatch(cell) is not None or _RUN_COLUMN.search(cell.lower()) is not None \
        or _BASELINE_LABEL.search(cell) is not None


def _run_columns(header: list[str]) -> frozenset[int]:
    """The columns named by a run (_run_named) that no metric names: a cell of one that is a speed
    with its unit is a throughput (the depth-0 or "AR" run's the baseline: _NO_DRAFT_SETTING,
    _BASELINE_LABEL); its other cells are what their row's label names ("| TTFT (ms) | 120 |")."""
    return frozenset(c for c in range(1, len(header)) if _run_named(header[c]) and _header_kind(header[c]) is None)


def _depth_runs_by_first_row(header: list[str], columns: list[str | None], run_cols: frozenset[int],
                             text: str, pos: int) -> list[str | None]:
    """Columns of runs named by a draft depth ("n_max:0 | n_max:16") whose first row's cell is a
    speed with its unit hold speeds in every row: "| Llama-8B | 40.1 | 85.3 |" under a first row
    "| Qwen3-8B | 45.2 tok/s | 98.1 tok/s |" says the unit once, as the tables read before the
    per-cell rule of _run_columns (and before it only these) were."""
    row_end = text.find("\n", pos)
    first = _cells(text[pos:len(text) if row_end < 0 else row_end])
    return ["throughput" if c in run_cols and c < len(first) and _DRAFT_DEPTH_RUN.fullmatch(header[c].strip("*` "))
            and _SPEED_CELL.match(first[c]) else kind for c, kind in enumerate(columns)]


def _column_kinds(header: list[str]) -> list[str | None]:
    columns = [_header_kind(h) for h in header]
    if any(kind == "throughput" and any(w in h.lower() for w in _ANOTHER_MEASURE) for kind, h in zip(columns, header)) \
            and any(kind == "throughput" and not any(w in h.lower() for w in _ANOTHER_MEASURE)
                    for kind, h in zip(columns, header)):
        columns = [None if kind == "throughput" and any(w in h.lower() for w in _ANOTHER_MEASURE) else kind
                   for kind, h in zip(columns, header)]
    if "throughput" in columns and any(kind == "throughput" and _run_named(h) for kind, h in zip(columns, header)):
        # a run's column beside a tok/s one, its unit unsaid ("Baseline (tok/s) | EAGLE-3 Before
        # Fix | EAGLE-3 After Fix", sgl-project/sglang#26171) holds the same unit. Only beside a
        # run's tok/s column: beside a bare "tok/s" the rows are the runs, and an "MTP" column
        # is their setting ("| RTX card | num | VRAM | MTP | tok/s |" over "| PRO 4000 BW | 2 |
        # 48 GB | 3 | 66.2 |", the MTP tokens a step of each machine's run)
        columns = [("throughput" if kind is None and i > 0 and _RUN_COLUMN.search(h.lower())
                    and not _UNIT_SAID.search(h.lower()) else kind) for i, (kind, h) in enumerate(zip(columns, header))]
    return columns


def _header_above(text: str, head_start: int, header: list[str]) -> tuple[int, list[str]]:
    """A header of two rows: the metric's name over its unit ("| Method | Throughput | Accept |"
    over "| | (tok/s) | length |"), as benchmark tables wrap a long header. GFM has one header
    row, so a row of as many cells right above it (and under no other row: no table's last row)
    is the header's first line; each column is named by both. Else ``header`` as it is."""
    if head_start < 2:
        return head_start, header
    above_start = text.rfind("\n", 0, head_start - 1) + 1
    above = text[above_start:head_start - 1]
    if "|" not in above or _TABLE_RULE.fullmatch(above):
        return head_start, header
    upper = _cells(above)
    if "||" in above:
        upper = _spanned(upper, len(header))
    if len(upper) != len(header) or not any(upper):
        return head_start, header
    if above_start >= 2 and "|" in text[text.rfind("\n", 0, above_start - 1) + 1:above_start - 1]:
        return head_start, header  # three pipe rows: a table (or a run of rows) above, not a header
    return above_start, [" ".join(f"{a} {b}".split()) for a, b in zip(upper, header)]


def _spanned(upper: list[str], width: int) -> list[str]:
    """A header's first line whose names span columns, written as a name then an empty cell for
    each further column of its group: GuideLLM's "| Request Stats || Out Tok/sec| Tot Tok/sec|
    Req Latency (ms) |||" over "| Per Second| Concurrency| mean| mean| mean| median| p99"
    (guidellm benchmark's console table, as posted in sgl-project/SpecForge#164). The last group's
    trailing pipes lose a cell to the row's end; each empty cell takes its group's name."""
    if len(upper) < width:
        upper = upper + [""] * (width - len(upper))
    named, group = [], ""
    for i, cell in enumerate(upper):
        group = cell if cell or i == 0 else group
        named.append(group)
    return named


def _unit_row(text: str, pos: int, header: list[str]) -> tuple[list[str], int] | None:
    """The header's second line under the delimiter row: the units of the columns (a Markdown
    table whose author put the unit row below the rule, "| | tok/s | tokens |"). Its label cell is
    empty and no other cell holds a number. ``(header, next row's offset)`` with the units in it."""
    nl = text.find("\n", pos)
    end = len(text) if nl < 0 else nl
    row = _cells(text[pos:end])
    if len(row) != len(header) or row[0].strip("*` ") or not any(row[1:]) or \
            any(_CELL_NUMBER.match(cell) or cell.strip("*` ") in ("-", "n/a", "N/A") for cell in row[1:]):
        return None
    return [" ".join(f"{h} {u}".split()) for h, u in zip(header, row)], end + 1


# python-tabulate's "grid" format rules the header off with "=" ("+======+=====+") and fences each
# row with "+------+-----+"; "fancy_grid" (and "fancy_outline") draws the same with box characters,
# "╞═╪═╡" under the header, "simple_grid" and "rounded_grid" "├─┼─┤", "heavy_grid" "┣━╋━┫"
# (tabulate's TableFormat of each). Read as the "pretty" format's ASCII, one character for one,
# so the spans found stay the text's own. Only where a grid's crossing ("╪", "┼", "╋") is, or
# rich's ("┡━╇━┩" under the header of its default HEAVY_HEAD box: a script's ``Console().print(
# Table(...))``; GenAI-Perf's keys in it are read once, by _bench_serving).
_GRID_HEADER_RULE = re.compile(r"^[ \t]*\+=[=+]*\+[ \t\r]*$", re.M)
_BOX_CORNERS = "╒╤╕╘╧╛╞╪╡├┼┤┌┬┐└┴┘╭╮╰╯┏┳┓┗┻┛┣╋┫┡╇┩"
_BOX_AS_ASCII = str.maketrans("│┃═─━" + _BOX_CORNERS, "||---" + "+" * len(_BOX_CORNERS))


def _as_ascii_grid(text: str) -> str:
    if "╪" in text or "┼" in text or "╋" in text or "╇" in text:
        text = text.translate(_BOX_AS_ASCII)
    if "+==" in text:
        text = _GRID_HEADER_RULE.sub(lambda m: m.group(0).replace("=", "-"), text)
    return text


# python-tabulate's "simple" format, its default (``print(tabulate(rows, headers=...))`` in a
# script comparing runs): a header, a rule of hyphens a column with two spaces between columns,
# then the rows, every cell padded to its column's width. Read as a "|" table: a "|" put on the
# first space between each two columns, one character for one, so the spans found stay the
# text's own. "pip list"'s rule ("---------- -------", one space) is no such table.
_SIMPLE_RULE = re.compile(r"^([ \t]*)-{2,}(?: {2,}-{2,})+[ \t\r]*$", re.M)


def _simple_as_pipes(text: str) -> str:
    parts = []
    done = 0
    for rule in _SIMPLE_RULE.finditer(text):
        start = rule.start()
        head_start = text.rfind("\n", 0, max(start - 1, 0)) + 1
        if start == 0 or head_start < done or not text[head_start:start - 1].strip() or "|" in text[head_start:start - 1]:
            continue
        line = rule.group(0).rstrip()
        gaps = [m.start() for m in re.finditer(r"(?<=-) ", line)]  # the first space after each column's hyphens
        lines = [(head_start, start - 1), (start, rule.end())]
        pos = rule.end() + 1
        while pos < len(text):  # the rows, up to a blank line or one that does not fit the columns
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            row = text[pos:end]
            if not row.strip() or "|" in row or any(g < len(row) and row[g] != " " for g in gaps):
                break
            lines.append((pos, end))
            pos = end + 1
        head = text[head_start:start - 1]
        if len(lines) < 3 or any(g < len(head) and head[g] != " " for g in gaps):
            continue
        for a, b in lines:
            parts.append(text[done:a])
            row = list(text[a:b])
            for g in gaps:
                if g < len(row):
                    row[g] = "|"
                elif g < len(line):  # a row's last cells left empty: tabulate pads them, an editor may strip
                    break
            parts.append("".join(row))
            done = b
    if not parts:
        return text
    parts.append(text[done:])
    return "".join(parts)


def _grid_row_rule(text: str, line: str, end: int) -> bool:
    """Whether ``line`` (ending at ``end``) is a "grid" table's rule between two of its rows."""
    if not line.lstrip().startswith("+") or _TABLE_RULE.fullmatch(line) is None:
        return False
    after = end + 1
    while after < len(text) and text[after] in " \t":
        after += 1
    return text.startswith("|", after)


def _wrapped_row(text: str, end: int, fenced: bool) -> tuple[list[list[str]], int] | None:
    """The cells of the lines under the row line that ends at ``end`` that are that row's, and
    where its last line ends: in a grid (tabulate "grid", rich with ``show_lines``) a rule fences
    each row, and a row whose cells wrapped is every line up to that rule. None where the lines
    after are other rows: no rule under them, or only the table's bottom border with no rule
    between rows seen yet (tabulate's "pretty" format, a row a line)."""
    lines = []
    pos = end + 1
    while pos < len(text):
        nl = text.find("\n", pos)
        line_end = len(text) if nl < 0 else nl
        line = text[pos:line_end]
        if "|" not in line:
            if not lines or "+" not in line or _TABLE_RULE.fullmatch(line) is None or \
                    not (fenced or _grid_row_rule(text, line, line_end)):
                return None
            return lines, end
        if len(lines) == 8:
            return None  # rows of a table not fenced (no cell wraps onto so many lines)
        lines.append(_cells(line))
        end, pos = line_end, line_end + 1
    return None


def table_readings(text: str) -> tuple[list[Reading], list[tuple[int, int]]]:
    """Readings of the tables in ``text``, and the spans of the tables they were read from."""
    found: list[Reading] = []
    spans = []
    if "+==" in text or "\u256a" in text or "\u253c" in text or "\u254b" in text or "\u2547" in text:
        text = _as_ascii_grid(text)
    if "--  --" in text:
        text = _simple_as_pipes(text)
    for rule_start, rule_end in _rule_lines(text):
        head_end = rule_start - 1
        if head_end <= 0:
            continue
        head_start = text.rfind("\n", 0, head_end) + 1
        header = _cells(text[head_start:head_end])
        if len(header) < 2:
            continue
        head_start, header = _header_above(text, head_start, header)
        pos, read = rule_end + 1, False
        if (unit_row := _unit_row(text, pos, header)) is not None:
            header, pos = unit_row
        columns = _column_kinds(header)
        run_cols = _run_columns(header) if "throughput" not in columns else frozenset()
        if run_cols:
            columns = _depth_runs_by_first_row(header, columns, run_cols, text, pos)
        if "accept_rate" in columns and not _about_drafting(text):
            columns = [None if kind == "accept_rate" and _acceptance_alone(h) else kind for kind, h in zip(columns, header)]
        caption = _under_baseline_caption(text, head_start)
        batch_col, depth_cols = _batch_and_depth_columns(header)
        test_col = next((i for i, h in enumerate(header) if h.strip("*` ").lower() == "test"), None)
        max_col = next((i for i, h in enumerate(header) if _DRAFT_MAX_HEADER.fullmatch(h.strip("*` "))), None)
        fenced = False  # a rule seen between two rows: a grid's, each row fenced
        while pos < len(text):
            nl = text.find("\n", pos)
            end = len(text) if nl < 0 else nl
            line = text[pos:end]
            if "|" not in line and "+" in line and _grid_row_rule(text, line, end):
                pos = end + 1  # "+-----+-----+" between a grid table's rows
                fenced = True
                continue
            if "|" not in line or not line.strip():
                break
            row = _cells(line)
            if (wrapped := _wrapped_row(text, end, fenced)) is not None:
                # a row's cells wrapped onto the lines under it, up to the rule that fences the
                # row ("Llama-3.1-8B-Instruct" over "without speculative" over "decoding"):
                # one row of the cells' words (was: its first line read alone, the baseline a
                # drafting run and its accept length 1 the drafter's)
                lines, end = wrapped
                for more in lines:
                    row = [" ".join(f"{a} {b}".split()) for a, b in zip(row, more)] + row[len(more):]
            row_kind = _header_kind(row[0]) if row else None
            if row_kind in ("throughput", "accept_length", "accept_rate") and any(columns[1:]) \
                    and not _CELL_NUMBER.match(row[0]):
                # columns that name their metric make the first cell a run's name, whatever it
                # says: GuideLLM names its sweep's max-rate run "throughput" (its row of rates,
                # concurrencies and latencies, SpecForge#164, is no row of speeds)
                row_kind = None
            if row_kind == "accept_rate" and _acceptance_alone(row[0]) and not _about_drafting(text):
                row_kind = None
            row_start = len(found)
            # a row that drafts nothing (every draft-depth cell 0: steps, topk, num_draft_tokens) is
            # the run without speculation (Tencent/AngelSlim#163's steps=0 rows, accept_length 1.0)
            no_spec_row = bool(depth_cols) and all(c < len(row) and row[c].strip("*` ") == "0" for c in depth_cols)
            if not no_spec_row and max_col is not None and max_col < len(row):
                no_spec_row = row[max_col].strip("*` ").lower() in _NO_DRAFT_CELLS
            if not no_spec_row and len(row) > 2:
                # the run named in a column of its own after the model's: "| llama3-8b | no-spec |
                # 96.8 |" under "| model | mode | tok/s |" (was: read as a drafting run's speed)
                no_spec_row = any(columns[c] is None and c not in run_cols and _names_baseline(row[c])
                                  for c in range(1, min(len(row), len(header))))
            row_name = _row_name(header, row, batch_col)
            if row_kind == "throughput" and header[0].strip() and (lead := _CELL_NUMBER.match(row[0])):
                # a row of readings with their unit under the runs they are of: "EAGLE3 (n=3) | MTP
                # (n=2)" over "40 tok/s | 45 tok/s" (ggml-org/llama.cpp#24541); its first cell is a
                # reading too, no row label
                value = float(lead.group(1).replace(",", ""))
                name = "baseline_throughput" if caption or _BASELINE_LABEL.search(header[0]) else "throughput"
                found.append((name, value, "tok/s", " ".join(f"table: {header[0]}: {row[0]}".split())[:200]))
                read = True
            for c in range(1, min(len(row), len(header))):
                kind, label, other = columns[c], row[0], header[c]
                if kind is None and c in run_cols and _SPEED_CELL.match(row[c]):
                    kind = "throughput"  # "| Model | AR | MTP |" over "| Qwen3-8B | 45.2 tok/s | 98.1 tok/s |"
                named = row_name
                if kind is None or row_kind == "speedup":  # a "Speedup" row under tok/s columns holds factors
                    kind, label, other = row_kind, header[c], row[0]
                    named = label
                    if kind not in (None, "speedup") and _spread_statistic(label):
                        continue  # the row's p99 or max, beside its mean
                    if kind not in (None, "speedup") and _RELATIVE_COLUMN.search(label):
                        continue  # "% Difference" beside the runs: how much the second gained, no run's reading
                number = (_CELL_FACTOR if kind == "speedup" else _CELL_NUMBER).match(row[c]) if kind else None
                if number is None:
                    continue
                read = True
                value = float(number.group(1).replace(",", ""))
                if test_col is not None and test_col < len(row) and test_col != c:
                    named = f"{named} {row[test_col]}"  # llama-bench's "pp512" / "tg128": which stage
                context = " ".join(f"table: {other} | {named}: {row[c]}".split())[:200]
                if kind != "throughput" and (caption or no_spec_row or _BASELINE_LABEL.search(label)) and \
                        not (kind == "accept_length" and value > 1.0 and not (caption or no_spec_row)):
                    # The run without speculation drafts nothing: its "1.00" under "Mean Acceptance
                    # Length" (vllm-project/vllm#24343's Vanilla row) is no drafter's accept length,
                    # nor its "1.00x" a speedup. Only the run's own label says so: a header "Speedup
                    # vs baseline" names the column, not the run. A "vanilla" row whose accept length
                    # is above 1 drafts: the drafter with its vanilla (unpruned) vocabulary, another
                    # comment of #24343 ("vanilla | 2.39" under "mean acceptance length").
                    continue
                if kind == "throughput" and test_col is not None and test_col < len(row) and \
                        (stage := _llama_bench_stage(row[test_col])) is not None:
                    found.append((stage, value, "tok/s", context))
                elif kind == "throughput":
                    baseline = caption or no_spec_row or _BASELINE_LABEL.search(label) or _BASELINE_LABEL.search(other) \
                        or _NO_DRAFT_SETTING.search(label) or _NO_DRAFT_SETTING.search(other)
                    found.append(("baseline_throughput" if baseline else "throughput", value, "tok/s", context))
                elif kind == "accept_length":
                    found.append((kind, value, "tokens", context))
                elif kind == "speedup":
                    found.append((kind, value, "x", context))
                else:
                    pct = "%" in row[c] or "%" in header[c] or "%" in row[0]
                    if not pct and 1 < value < 10 and "." in number.group(1):
                        # accepted over drafted is at most 1: a rate of 2.71 with no percent sign
                        # is tokens a step, TensorRT-LLM's "acceptance rate" (see metrics._rate_said)
                        found.append(("accept_length", value, "tokens", context))
                        continue
                    unit = "%" if pct or value > 1 else "ratio"
                    found.append((kind, value, unit, context))
            # a row's baseline first, so the row's other readings are compared with it
            found[row_start:] = sorted(found[row_start:], key=lambda reading: reading[0] != "baseline_throughput")
            pos = end + 1
        if read:
            spans.append((head_start, min(pos, len(text))))
    return found, spans


# pandas' ``print(df)`` of a script's results (a list of dicts per run): no rule under its
# header, columns two spaces apart and right-aligned, a header line that starts blank over the
# index, then rows "0  eagle3   1  181.70  3.12" numbered from 0 (pandas/io/formats/format.py,
# DataFrameFormatter; ".." rows where a long frame is cut, "[N rows x M columns]" under it).
# Each column ends where its header's name ends; a row's cell is what lies between the column
# before's end and its own. Read as the "|" table it is, its span the text's own.
_FRAME_NAME = re.compile(r"\S+(?: \S+)*")
_FRAME_INDEX = re.compile(r"\d+(?= )")


def _frame_at(text: str, row0: int) -> tuple[str, int, int] | None:
    """The "|" table of the frame whose row 0 starts at ``row0``, where its header starts and
    where its last row ends; None where the lines are no such frame."""
    head_start = text.rfind("\n", 0, row0 - 1) + 1
    header = text[head_start:row0 - 1].rstrip("\r")
    if not header.startswith(" ") or "|" in header:
        return None
    names = list(_FRAME_NAME.finditer(header))
    if len(names) < 2 or not any(_header_kind(n.group(0)) for n in names):
        return None
    edges = [n.end() for n in names]
    rows = []
    pos, index, end = row0, 0, row0
    while pos < len(text):
        nl = text.find("\n", pos)
        stop = len(text) if nl < 0 else nl
        line = text[pos:stop].rstrip()
        if line.startswith(".."):  # a long frame's cut rows
            pos = stop + 1
            continue
        lead = _FRAME_INDEX.match(line)
        if lead is None or (int(lead.group(0)) != index and not (rows and int(lead.group(0)) > index)) \
                or lead.end() > names[0].start() or len(line) > edges[-1] \
                or any(e < len(line) and line[e] != " " for e in edges[:-1]):
            break
        cells, left = [], lead.end()
        for e in edges:
            cells.append(line[left:e].strip())
            left = e
        if not all(cells):
            break
        rows.append(cells)
        index = int(lead.group(0)) + 1
        end, pos = stop, stop + 1
    if not rows:
        return None
    lines = ["| " + " | ".join(n.group(0) for n in names) + " |", "|" + "---|" * len(names)]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return "\n".join(lines) + "\n", head_start, end


def frame_readings(text: str) -> tuple[list[Reading], list[tuple[int, int]]]:
    """Readings of the pandas frames printed in ``text`` (see _frame_at), and their spans."""
    found: list[Reading] = []
    spans = []
    at = text.find("\n0  ")
    while at >= 0:
        if (frame := _frame_at(text, at + 1)) is not None:
            table, start, end = frame
            readings, read = table_readings(table)
            if read:
                found.extend(readings)
                spans.append((start, end))
                at = end
        at = text.find("\n0  ", at + 1)
    return found, spans


# pandas frames printed without row numbers: ``df.to_string(index=False)``, every column right-
# aligned under its name, and frames whose index names the runs (``df.set_index("method")``, a
# groupby's mean, ``pd.DataFrame(results).T``): the labels left-aligned under a blank stretch of
# the header, a line of the index's names under the header where it has any, a MultiIndex's
# outer label left blank where it repeats the row's above (pandas/io/formats/format.py,
# DataFrameFormatter; pandas 3.1 as installed here). The last column is right-aligned too, so
# every row is as long as the header: two lines of one length are what is looked at first.
_FRAME_KEYS = ("tok", "acc", "ccept", "hroughput", "tps", "TPS")
"""A header that names a metric holds one of these (see _header_kind)."""
_DESCRIBE_ROWS = frozenset({"count", "mean", "std", "min", "25%", "50%", "75%", "max"})
"""``df.describe()``'s rows: statistics over the runs, no run's reading."""
_FRAME_TRIES = 100
"""Headers looked at, at most: lines that name a metric, hold no log line's "key: value" and
have a line of their width under them."""
_FRAME_LINES = 10_000
"""Lines with two spaces looked at, at most (a long traceback's are all indented)."""
_FRAME_ROWS = 1000
"""Rows of one frame read, at most."""


def aligned_frame_readings(text: str) -> tuple[list[Reading], list[tuple[int, int]]]:
    """Readings of the pandas frames with no row numbers in ``text`` (see _aligned_frame_at),
    and their spans (in order)."""
    found: list[Reading] = []
    spans: list[tuple[int, int]] = []
    tries = 0
    # A frame's header has its names two spaces apart at least: the lines with "  " are the
    # ones looked at, found at C speed past a server log's lines, which have none ("Decode
    # batch. #running-req: 8, ... gen throughput (token/s): 512.34"). Only a header that names a
    # metric and holds no log line's "key: value" counts as a try: a training script's hundred
    # "step 100: loss 2.31, acc 0.52" lines, or a server's, before its frame left no try for the
    # frame (its readings lost).
    at, lines = text.find("  "), 0
    while at >= 0 and tries < _FRAME_TRIES and lines < _FRAME_LINES:
        lines += 1
        start = text.rfind("\n", 0, at) + 1
        nl = text.find("\n", at)
        end = len(text) if nl < 0 else nl
        line = text[start:end]
        if ": " not in line and any(key in line for key in _FRAME_KEYS) and _row_under(text, line, end):
            tries += 1
            if (frame := _aligned_frame_at(text, start, end)) is not None:
                table, end = frame  # its rows are no header
                readings, read = table_readings(table)
                if read:
                    found.extend(readings)
                    spans.append((start, end))
        at = text.find("  ", end)
    return found, spans


def _row_under(text: str, header: str, end: int) -> bool:
    """Whether a line of the header's width is one or two lines under it (two where a line of
    the index's names lies between): a frame's rows are as wide as its header, a traceback's or
    a script's lines that name "tok" or "acc" mostly are not."""
    width = len(header.rstrip())
    line, stop = _next_line(text, end + 1)
    if len(line) == width:
        return True
    blank = len(header) - len(header.lstrip())  # the header's blank over the index's names
    line = _without_cut_columns(line, header)
    return 0 < len(line) < blank and line[0] != " " and stop < len(text) \
        and len(_next_line(text, stop + 1)[0]) == width


def _without_cut_columns(line: str, header: str) -> str:
    """The line of an index's names without the ``...`` that stands, under the header's own,
    for the columns pandas left out of a frame too wide for its display (``display.width``, 80
    where the output is no terminal): ``method   ...`` is the line ``method``."""
    at = header.find(" ...") + 1
    if at <= 0 or line[at:at + 3] != "..." or line[at - 1:at] != " ":
        return line
    return (line[:at] + "   " + line[at + 3:]).rstrip()


def _next_line(text: str, pos: int) -> tuple[str, int]:
    nl = text.find("\n", pos)
    end = len(text) if nl < 0 else nl
    return text[pos:end].rstrip(), end


def _aligned_frame_at(text: str, start: int, end: int) -> tuple[str, int] | None:
    """The "|" table of the frame whose header is the line ``start``..``end``, and where its last
    row ends; None where the lines are no such frame."""
    header = text[start:end].rstrip()
    width = len(header)
    if end >= len(text) or "|" in header or "  " not in header.lstrip():
        return None
    line, stop = _next_line(text, end + 1)
    names_line = None
    if len(line) != width:
        # the index's names, under a header blank over them ("method" alone on its line)
        line = _without_cut_columns(line, header)
        first_name = len(header) - len(header.lstrip())
        if not line or len(line) >= first_name or line[0] == " " or stop >= len(text):
            return None
        names_line = line
        line, stop = _next_line(text, stop + 1)
        if len(line) != width:
            return None
    names = list(_FRAME_NAME.finditer(header))
    if len(names) < 2 or not any(_header_kind(n.group(0)) for n in names) \
            or any(n.group(0)[0].isdigit() for n in names):
        # (a number in the "header" makes it a line of readings: llama.cpp's "decoded  136 tokens
        # in  28.931 seconds, speed:  4.701 t/s" over its "encoded" line of the same length)
        return None
    edges = [n.end() for n in names]
    kind_at = next(i for i, n in enumerate(names) if _header_kind(n.group(0)))
    if names[kind_at].group(0)[-1].isdigit():
        return None  # "... gen throughput (token/s): 512.34": a log line's reading, no column's name
    under = line[:edges[kind_at]].split()[-1:]
    if not under or not (under[0] == "NaN" or _CELL_NUMBER.fullmatch(under[0])):
        # the first row holds no reading under the metric's name: a log's lines of one length
        return None
    rows, last = [], end
    while len(rows) < _FRAME_ROWS:
        if len(line) != width or "|" in line:
            break
        if any(line[e - 1] == " " for e in edges) or any(line[e] != " " for e in edges[:-1]):
            return None  # a line of the frame's width not aligned as its rows are: no frame
        rows.append(line)
        last = stop
        if stop >= len(text):
            break
        line, stop = _next_line(text, stop + 1)
        if line.lstrip().startswith(".."):  # a long frame's cut rows
            last = stop
            if stop >= len(text):
                break
            line, stop = _next_line(text, stop + 1)
    if not rows:
        return None
    # the index: the stretch left of the columns' last blank gap that every row shares
    blank = [all(row[p] == " " for row in rows) for p in range(edges[0])]
    gap_end = next((p + 1 for p in range(edges[0] - 1, -1, -1) if blank[p]), 0)
    gap = gap_end
    while gap > 0 and blank[gap - 1]:
        gap -= 1
    indexed = gap > 0 and not header[:gap].strip() and bool(rows[0][:gap].strip())
    if names_line is not None and not indexed:
        return None
    labels: list[list[str]] = []
    if indexed:
        levels = [m.start() for m in _FRAME_NAME.finditer(names_line)] if names_line else [0]
        if not levels or levels[0] != 0:
            return None
        index_names = [m.group(0) for m in _FRAME_NAME.finditer(names_line)] if names_line else [""]
        above: list[str] = []
        for row in rows:
            bounds = [*levels, gap]
            label = [row[a:b].strip() for a, b in zip(bounds, bounds[1:])]
            # a MultiIndex leaves its outer label blank where it repeats the row's above
            label = [cell or (above[i] if i < len(above) and any(label[i + 1:]) else "") for i, cell in enumerate(label)]
            labels.append(label)
            above = label
        if all(label[-1] in _DESCRIBE_ROWS for label in labels):
            return None
        columns = [*index_names, *(n.group(0) for n in names)]
        lefts = [gap_end, *edges[:-1]]
    else:
        columns = [n.group(0) for n in names]
        lefts = [0, *edges[:-1]]
        labels = [[] for _ in rows]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for label, row in zip(labels, rows):
        cells = [row[a:b].strip() for a, b in zip(lefts, edges)]
        lines.append("| " + " | ".join([*label, *cells]) + " |")
    return "\n".join(lines) + "\n", last
