"""Which no-speculation baseline a throughput reading is compared with.

A careful reader pairs a reading with the baseline of the same row: the same batch size or
concurrency, on the same model and engine. sgl-project/SpecForge#339 posts the base model's
tok/s at bs 1 to 64, then EAGLE3's at bs 1 and 4: its bs=1 reading of 159.78 is compared with
222.47 (bs=1), not with 1073.69 (bs=64, the last baseline read). A session that measures a
Llama model then a Qwen one, or SGLang then vLLM, never compares one's reading with the
other's baseline. Without a stated row the nearest earlier baseline of the same model and
engine is the one.

Pure: readings in, baselines out. :mod:`spec_debug.session.analysis` feeds it as it reads (for
SD501 and the pivots), :mod:`spec_debug.session.postmortem` replays it over the kept metrics
(the impact section's "against a N tok/s baseline")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from spec_debug.session.records import MetricRecord

# The row a reading belongs to, in its own words: "bs=1", "batch size 16", "concurrency 64"
# (sglang bench_serving --max-concurrency), "max_num_seqs=1" (vLLM's batch limit), "BS1"
# (vllm-project/vllm#16937: "Output tokens/s on H100 BS1").
_ROW_WORDS = re.compile(r"\b(?:bs|batch[ _-]?size|(?:max[-_ ])?concurrency|max[-_]num[-_]seqs)\s*(?:=|:|of)?\s*(\d+)\b"
                        r"|\bBS(\d+)\b", re.I)
# A reading's number, its unit and a joining word, up to the row words that follow ("410 tok/s
# at bs=4", "410 tok/s (bs=4)"); a comma ends the reading ("bs=1: 150 tok/s, bs=4: ...").
_ROW_TAIL = re.compile(r"\d[\d.,]*\s*(?:[a-z]+/s(?:ec(?:ond)?)?|tokens per second|tps)?\s*\(?\s*(?:(?:at|for|with|@|on)\s+)?"
                       r"(?=(?:bs|batch[ _-]?size|(?:max[-_ ])?concurrency|max[-_]num[-_]seqs)\s*(?:=|:|of)?\s*\d|BS\d)",
                       re.I)
# The same as flags of the printing command; a flag given several values ("--batch-size 1 4 16",
# sglang bench_one_batch) names no one row.
_ROW_FLAGS = re.compile(r"--(?:batch[-_]size|max[-_]concurrency|concurrency|max[-_]num[-_]seqs)(?:=|\s+)(\d+)(?![\d.]|\s+\d)")
# A table cell's context is "table: <column> | <row label>: <cell>" (metric_tables.table_readings);
# a row label that is a number is the row's batch size (SpecForge#339's "bs" column), as is one
# that ends in "bs=N" (a run's label beside a batch-size column: "fr-spec bs=1").
_TABLE_ROW = re.compile(r"table: [^|]*\| (?:[^|:]* bs=)?(\d+): ")
# Model families people run EAGLE-3 drafts for, and the size that tells two models of a family
# apart ("Llama-3.1-8B", "Qwen3-30B-A3B": 30b, not the 3b active; "gpt-oss-120b"), read past
# the organisation's name ("Qwen/Qwen3-30B-A3B", "meta-llama/Llama-3.1-8B-Instruct").
_MODEL_NAME = re.compile(r"(?<![a-z])(llama|qwen|deepseek|mistral|mixtral|gemma|phi|vicuna|gpt-oss|minicpm|glm|kimi)(?![a-z])"
                         r"[^\s,;:|()'\"]{0,60}", re.I)
_MODEL_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)b(?![a-z])", re.I)
_MODEL_FLAG = re.compile(r"--model(?:[-_]path|[-_]dir)?(?:=|\s+)['\"]?([^\s'\"]+)|\bvllm\s+serve\s+['\"]?([^\s'\"-][^\s'\"]*)")
_BACKEND_FLAG = re.compile(r"--backend(?:=|\s+)['\"]?(\w+)")


@dataclass(slots=True)
class Scope:
    """The engine and model a reading was taken on; None where nothing said."""
    engine: str | None = None
    model: tuple[str, str | None] | None = None
    """(family, size): "Llama-3.1-8B-Instruct" and "meta-llama/Llama-3.1-8B" are one model."""


_FAMILIES = ("llama", "qwen", "deepseek", "mistral", "mixtral", "gemma", "phi", "vicuna", "gpt-oss", "minicpm", "glm",
             "kimi")
_ROW_WORD_LITERALS = ("bs", "size", "concurrency", "seqs")
"""Literals of _MODEL_NAME and _ROW_WORDS ("batch size": "size"), looked for in the lowered text
first: the analysis pairs every throughput reading it reads (tens of thousands in a long
session), and most contexts name neither ("SGLang Decode batch, mean of 56 lines"). Non-ASCII
text skips the test: re.I folds letters lower() keeps (U+017F is an "s")."""


_SCOPE_WORDS = ("sglang", "bench_one_batch", "vllm", *_FAMILIES)
"""Every literal :func:`_engine` and :func:`_model` test the lowered text for."""


def _may_hold(text: str, literals: tuple[str, ...]) -> bool:
    """Whether ``text`` may hold one of ``literals`` (lowercase) as the case-insensitive patterns
    read it. One ``in`` per literal: a search for their alternation cost twice as much."""
    if not text.isascii():
        return True
    low = text.lower()
    for literal in literals:
        if literal in low:
            return True
    return False


def _may_name_scope(text: str) -> bool:
    """``_may_hold(text, _SCOPE_WORDS)``, its literals with a letter most texts lack ("m", "v",
    "_") behind a test for that letter (a memchr): 3.4k instructions on a reading's context
    where the loop over the 15 took 8.3k (callgrind), and each reading asks."""
    if not text.isascii():
        return True
    low = text.lower()
    return "sglang" in low or "deepseek" in low or "phi" in low or "gpt-oss" in low or "qwen" in low \
        or "m" in low and ("llama" in low or "mistral" in low or "mixtral" in low or "gemma" in low
                           or "minicpm" in low or "glm" in low or "kimi" in low) \
        or "v" in low and ("vllm" in low or "vicuna" in low) or "_" in low and "bench_one_batch" in low


def _model(text: str) -> tuple[str, str | None] | None:
    if not _may_hold(text, _FAMILIES):
        return None
    m = _MODEL_NAME.search(text)
    if m is None:
        return None
    size = _MODEL_SIZE.search(m.group(0)[len(m.group(1)):])
    return m.group(1).lower(), size.group(1) if size else None


def _same_model(a: tuple[str, str | None], b: tuple[str, str | None]) -> bool:
    return a[0] == b[0] and (a[1] is None or b[1] is None or a[1] == b[1])


def _engine(text: str) -> str | None:
    """The engine a text names, when it names one only."""
    low = text.lower()
    sglang, vllm = "sglang" in low or "bench_one_batch" in low, "vllm" in low
    return "sglang" if sglang and not vllm else "vllm" if vllm and not sglang else None


def _row_said(text: str, value: float) -> re.Match | None:
    """The row words of ``text`` nearest the reading: the last said before its number, else the
    first after it."""
    if not _may_hold(text, _ROW_WORD_LITERALS):
        return None
    at = _value_at(text, value)  # not its digits inside another number ("90" in "1900 tok/s at bs=64")
    said = list(_ROW_WORDS.finditer(text))
    if not said or at < 0:
        return said[0] if said else None
    # The row words that follow the reading's unit name its row, before any said earlier: in
    # "120 tok/s at bs=1 and 410 tok/s at bs=4", 410 is bs=4's.
    if (tail := _ROW_TAIL.match(text, at)) is not None:
        return next((w for w in said if w.start() == tail.end()), None) or _ROW_WORDS.match(text, tail.end())
    return next((w for w in reversed(said) if w.end() <= at), None) or next((w for w in said if w.start() >= at), None)


def row_key(context: str, value: float, command: str = "") -> str | None:
    """The batch size (or concurrency) a reading's table row, its words or its command states.
    In words, those of the reading's clause first ("222.47 tok/s at bs=1, 566.21 tok/s at bs=4":
    566.21 is bs=4's; "bs=1: 150 tok/s, bs=4: 410 tok/s"), else of its sentence ("When BS=1,
    the output is 75 tok/s")."""
    m = _TABLE_ROW.match(context)
    if m is None and _may_hold(context, _ROW_WORD_LITERALS):
        sentence = _sentence(context, value)
        at = _value_at(sentence, value)
        if at >= 0:
            start = max(sentence.rfind(",", 0, at), sentence.rfind(";", 0, at)) + 1
            end = sentence.find(",", at)
            m = _row_said(sentence[start:end if end >= 0 else len(sentence)], value)
        m = m or _row_said(sentence, value)
    if m is None and command and "--" in command:
        m = _ROW_FLAGS.search(command)
    return (m.group(1) or m.group(2)) if m else None


_NUMBERS: dict[float, str] = {}
"""Each reading's value as :func:`_value_at` looks for it (``f"{value:g}"``): a reading's sentence,
clause, row and scope each look for it again, and formatting a float costs more than the find."""
_NUMBERS_KEPT = 4096


def _value_at(text: str, value: float) -> int:
    """Where ``value`` is written in ``text`` (-1: nowhere): the number itself, not its digits
    inside another ("gpu-a: 160 tok/s; gpu-b: 60 tok/s": the 60 is not the 160's), with the
    trailing zeros of its decimals ("447.90 tok/s" is 447.9, SpecForge#339)."""
    number = _NUMBERS.get(value)
    if number is None:
        number = f"{value:g}"
        if value:  # (0.0 and -0.0 are one key, written "0" and "-0")
            if len(_NUMBERS) >= _NUMBERS_KEPT:
                _NUMBERS.clear()
            _NUMBERS[value] = number
    at = text.find(number)
    while at >= 0:
        end = at + len(number)
        if "." in number:
            while text[end:end + 1] == "0":
                end += 1
        if not (text[at - 1:at].isdigit() or text[at - 1:at] == "." or text[end:end + 1].isdigit()):
            return at
        at = text.find(number, at + 1)
    return at


def _sentence(context: str, value: float) -> str:
    """The sentence of ``context`` that holds the reading: a context runs 60 characters past it,
    into the next sentence ("Normal decoding speed (SGLang): 156 token/s. Let's see what vLLM
    does": the 156 is SGLang's)."""
    at = _value_at(context, value)
    if at < 0:
        return context
    start = max(_sentence_stop(context, at, False), context.rfind("; ", 0, at)) + 1
    end, semicolon = _sentence_stop(context, at, True), context.find("; ", at)
    if semicolon >= 0 and (end < 0 or semicolon < end):
        end = semicolon
    return context[start:end if end >= 0 else len(context)]


# A word with a full stop that ends no sentence: "At bs=1 EAGLE-3 gives 40 tok/s vs. 60 tok/s
# without speculation" is one sentence (the 60 lost its row, bs=1, and was compared with other rows'
# readings).
_ABBREVIATIONS = ("vs", "e.g", "i.e", "approx", "cf", "ca", "resp", "incl")
_ABBREVIATION = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, _ABBREVIATIONS)) + r")$", re.I)


def _abbreviated(context: str, stop: int) -> bool:
    """Whether the full stop at ``stop`` ends one of the words of _ABBREVIATION. The pattern runs
    only behind such a word: most full stops end a sentence, and each reading's sentence passes
    one or two (the 20 MB bench session's pattern calls grew by 6% with it)."""
    return context[max(0, stop - 7):stop].lower().endswith(_ABBREVIATIONS) \
        and _ABBREVIATION.search(context, max(0, stop - 7), stop) is not None


def _sentence_stop(context: str, at: int, forward: bool) -> int:
    """Where the ". " that ends a sentence nearest ``at`` is, after it when ``forward`` (else
    before it), passing the full stops of _ABBREVIATION's words; -1 if none."""
    stop = context.find(". ", at) if forward else context.rfind(". ", 0, at)
    while stop >= 0 and _abbreviated(context, stop):
        stop = context.find(". ", stop + 1) if forward else context.rfind(". ", 0, stop)
    return stop


@lru_cache(maxsize=1024)
def _command_scope(command: str) -> tuple[str | None, tuple[str, str | None] | None]:
    """The engine and model a printing command names. Cached (a pure function of the text): each
    reading a command printed asks again, and a session polls the same log command over and over."""
    backend = _BACKEND_FLAG.search(command) if "--backend" in command else None
    engine = _engine(backend.group(1)) if backend else _engine(command)  # bench_serving --backend vllm: vLLM
    flag = _MODEL_FLAG.search(command) if "--model" in command or "serve" in command else None
    return engine, _model(flag.group(1) or flag.group(2)) if flag else None


def stated_scope(context: str, value: float, command: str = "") -> Scope:
    """The engine and model a reading's command (first: it ran it) or its sentence names."""
    return Scope(*_stated(context, value, command))


def _stated(context: str, value: float, command: str) -> tuple[str | None, tuple[str, str | None] | None]:
    """:func:`stated_scope` as a pair: :class:`BaselineBook` reads it for every throughput
    reading (tens of thousands in a long session, most before any baseline), and keeps no Scope."""
    engine, model = _command_scope(command) if command else (None, None)
    # The sentence is a part of the context: a context that names no engine and no model family
    # (most of a long session's readings) has no sentence that does, and is not cut into one.
    if (engine is None or model is None) and _may_name_scope(context):
        sentence = _sentence(context, value)
        engine, model = engine or _engine(sentence), model or _model(sentence)
    return engine, model


@dataclass(frozen=True, slots=True)
class Row:
    """The batch size and model a reading itself states; None where it states none. And the load
    its benchmark command put on the server besides (:func:`run_load`); () where it states none."""
    key: str | None
    model: tuple[str, str | None] | None
    load: tuple[tuple[str, str], ...] = ()

    def meets(self, other: Row) -> bool:
        """Whether two readings may be compared: nothing one states differs from the other's
        (SpecForge#339's bs=1 and bs=4 runs, a Llama reading and a Qwen one, a run at one
        request a second and one at eight, may not)."""
        return (self.key is None or other.key is None or self.key == other.key) and \
            (self.model is None or other.model is None or _same_model(self.model, other.model)) and \
            (not self.load or not other.load or _same_load(self.load, other.load))


# The flags of a serving benchmark (sglang.bench_serving, `vllm bench serve`) that set the load it
# puts on the server: the request rate (default inf: every prompt sent at once), the number of
# prompts, the prompt and output lengths and the data set. argparse takes a flag's unambiguous
# prefix, and people write "--random-input 1024", "--num-prompt 10" (sglang's own usage text).
# --max-concurrency is the row's key (_ROW_FLAGS); it is read here to tell whether the number of
# prompts is the load.
_LOAD_FLAGS = re.compile(r"--(request[-_]rate|num[-_]prompts?|max[-_]concurrency|(?:random|sharegpt)[-_](?:input|output)"
                         r"(?:[-_]len)?|(?:input|output)[-_]len|dataset[-_]name)(?:=|\s+)['\"]?([\w.+-]+)")


def run_load(command: str) -> tuple[tuple[str, str], ...]:
    """The load a benchmark command states, (flag, value) sorted by flag: ("request-rate", "8"),
    ("random-input-len", "1024"). The number of prompts is load only where nothing else bounds
    the requests in flight (no --max-concurrency, no finite --request-rate): sglang.bench_serving
    then sends every prompt at once, so 10 prompts and 200 are 10 and 200 concurrent requests."""
    if "--" not in command:
        return ()
    found: dict[str, str] = {}
    for m in _LOAD_FLAGS.finditer(command):
        name, value = m.group(1).replace("_", "-"), m.group(2).lower()
        if name.startswith("num-prompt"):
            name = "num-prompts"
        elif name.endswith("put"):
            name += "-len"
        try:
            value = f"{float(value):g}"  # "8" and "8.0" are one rate; "inf" stays "inf"
        except ValueError:
            pass
        found[name] = value
    if found.pop("max-concurrency", None) is not None or found.get("request-rate", "inf") != "inf":
        found.pop("num-prompts", None)
    return tuple(sorted(found.items()))


def _same_load(a: tuple[tuple[str, str], ...], b: tuple[tuple[str, str], ...]) -> bool:
    """Whether no flag both loads state has two values."""
    other = dict(b)
    return all(other.get(name, value) == value for name, value in a)


def reading_row(context: str, value: float, command: str = "") -> Row:
    """The row a reading states in its table row, words or printing command. A benchmark that
    sends all its prompts at once (`bench_serving --num-prompts 200`, no --max-concurrency, no
    finite --request-rate: run_load) ran at that concurrency: a Decode batch log read at
    #running-req: 1 beside it "went from" 61.2 to 1234.56 tok/s with nothing changed."""
    load = run_load(command)
    key = row_key(context, value, command)
    if key is None and load and "--num" in command:
        key = _prompts(load)
    return Row(key, stated_scope(context, value, command).model, load)


def _clause(context: str, value: float) -> str:
    """The clause of ``context`` that holds the reading: its sentence, cut at the commas around
    it ("gpu-a: 90 tok/s, gpu-b: 60 tok/s": the 90 is gpu-a's)."""
    return _clause_of(_sentence(context, value), value)


def _clause_of(sentence: str, value: float) -> str:
    """:func:`_clause` given the reading's sentence (:func:`_sentence`)."""
    at = _value_at(sentence, value)
    if at < 0:
        return sentence
    end = sentence.find(",", at)
    return sentence[sentence.rfind(",", 0, at) + 1:end if end >= 0 else len(sentence)]


# A word that may be a host's name or address: "gpu-a", "gpu01", "10.1.230.174", "node3.example.net"
_HOST_WORD = re.compile(r"(?<![\w.@-])[A-Za-z0-9][\w.-]*[A-Za-z0-9](?![\w-])")


_FEW_HOSTS = 16
"""Up to this many hosts, :func:`named_host` looks for each in a sentence before scanning its words."""


def named_host(context: str, value: float, hosts: dict[str, str]) -> str | None:
    """The one host of ``hosts`` (lower-cased name to the name commands gave it) that a reading's
    clause names ("gpu-a: 90 tok/s, gpu-b: 60 tok/s"), else its sentence ("On gpu03, it does 620
    tok/s"); None where neither names one, or where it names several ("900 tok/s on gpu01 and
    gpu03"). Not the next sentence's ("74.7% in training. The server runs on gpu01")."""
    # The sentence is cut once (each prose reading asks, and the session's end again for the
    # readings stated before their host's first command); the clause is a part of it, and a
    # clause that is the whole sentence is not searched twice.
    sentence = _sentence(context, value)
    # Most readings' sentences name none of a session's few hosts: a substring test per host
    # (~0.1 us) rules that out before the word scan (~8 us). A word the scan finds is in
    # ``sentence`` and its lower-cased form in the lower-cased sentence (the pattern's words
    # start and end with an ASCII letter or digit, so no letter's case depends on what is
    # outside the word).
    if len(hosts) <= _FEW_HOSTS:
        low = sentence.lower()
        for name in hosts:
            if name in low:
                break
        else:
            return None
    clause = _clause_of(sentence, value)
    for text in (clause, sentence) if clause != sentence else (sentence,):
        named = {hosts[w] for w in map(str.lower, _HOST_WORD.findall(text)) if w in hosts}
        if named:
            return named.pop() if len(named) == 1 else None
    return None


def _fits(b: _Baseline, scope: Scope, key: str | None, load: tuple[tuple[str, str], ...] = ()) -> bool:
    """Whether baseline ``b`` is of a reading's engine, model, row and benchmark load (as
    :meth:`BaselineBook.pair` asks)."""
    if load and b.load and not _same_load(b.load, load):
        return False  # a plain run at --request-rate 1 is no baseline of an EAGLE-3 run at 8
    if b.scope.engine != scope.engine and b.scope.engine is not None and scope.engine is not None:
        return False
    if b.scope.model is not None and scope.model is not None and not _same_model(b.scope.model, scope.model):
        return False
    # A benchmark that sent all its prompts at once ran at that concurrency (run_load, reading_row):
    # a plain `bench_serving --num-prompts 200` (2400 tok/s) was the baseline of a Decode batch
    # log read at one request (61.2 tok/s), a false SD501
    if key is not None and b.key is None and b.load:
        return _prompts(b.load) in (None, key)
    if b.key is not None and key is None and load:
        return _prompts(load) in (None, b.key)
    return key is None or b.key is None or b.key == key


def _prompts(load: tuple[tuple[str, str], ...]) -> str | None:
    """The number of prompts a load sends at once (run_load keeps it only then), else None."""
    return next((value for name, value in load if name == "num-prompts"), None)


def launched_model(command: str) -> tuple[str, str | None] | None:
    """The model a launch command serves (``--model-path``, ``vllm serve NAME``); None where it names none."""
    flag = _MODEL_FLAG.search(command) if "--model" in command or "serve" in command else None
    return _model(flag.group(1) or flag.group(2)) if flag else None


@dataclass(slots=True)
class _Baseline:
    rec: MetricRecord
    key: str | None
    scope: Scope
    load: tuple[tuple[str, str], ...] = ()
    """The load its benchmark command put on the server (:func:`run_load`)."""


@dataclass(slots=True)
class _Unpaired:
    rec: MetricRecord
    command: str
    scope: Scope
    """The engine and model of the session when the reading was taken."""


_UNPAIRED_KEPT = 64


class BaselineBook:
    """The baselines read so far, and the engine and model the session is on now."""

    __slots__ = ("baselines", "now", "named", "unpaired")

    def __init__(self) -> None:
        self.baselines: list[_Baseline] = []
        self.now = Scope()
        self.named: dict[str, _Baseline] = {}
        """Each word of a baseline's own clause, to the latest baseline it is in: the host a
        baseline names ("gpu-a: 90 tok/s baseline; gpu-b: 60 tok/s baseline") is looked up there."""
        self.unpaired: list[_Unpaired] = []
        """The last readings no baseline was there for (see :meth:`note`)."""

    def _move(self, engine: str | None, model: tuple[str, str | None] | None) -> Scope:
        """The scope (``self.now``, updated) after a reading that states ``engine`` and ``model``
        (:func:`_stated`). The first engine or model named is the one the baselines read before
        it were taken on."""
        now = self.now
        if engine is not None and engine != now.engine:
            if now.engine is None:
                for b in self.baselines:
                    b.scope.engine = b.scope.engine or engine
            now.engine = engine
        if model is not None and (now.model is None or not _same_model(model, now.model)):
            if now.model is None:
                for b in self.baselines:
                    b.scope.model = b.scope.model or model
            now.model = model
        elif model is not None and now.model[1] is None:
            now.model = model  # "Llama" then "Llama-3.1-8B": the same model, now with its size
        return now

    def launched(self, command: str) -> None:
        """A server launch: the model and engine it names are those of the readings after it, until
        another says otherwise. A benchmark or a ``curl`` against the server names neither
        (``python -m sglang.bench_serving --backend sglang --num-prompts 80``), and a session that
        serves Llama-3.1-8B, then Qwen3-30B-A3B with EAGLE3, never compares one with the other."""
        model, engine = launched_model(command), _engine(command)
        if model is None and engine is None:
            return
        now = self.now
        # What a launch names holds for what follows only: the baselines already read keep their
        # scope (the first reading's words may not name the first launch's model).
        for b in self.baselines:
            b.scope.engine = b.scope.engine or now.engine
            b.scope.model = b.scope.model or now.model
        if engine is not None:
            now.engine = engine
        if model is not None:  # a launch script's flags are in the script: the model may be the same
            now.model = model

    def note(self, rec: MetricRecord, command: str = "") -> list[MetricRecord]:
        """A baseline_throughput reading. Returns the readings taken before it that had no
        baseline and are of its engine, model and row (both stating none, or the same): the
        benchmark with EAGLE-3 run first, the one without speculation (or "without it we had 520
        tok/s") after. Each is returned once."""
        now = self._move(*_stated(rec.context, rec.value, command))
        baseline = _Baseline(rec, row_key(rec.context, rec.value, command), Scope(now.engine, now.model),
                             run_load(command))
        paired: list[MetricRecord] = []
        if self.unpaired:
            waiting = []
            for u in self.unpaired:
                # Of the same row only, not any row (as pair() takes the latest when the reading
                # states none): several baselines said after the reading are each the first of it.
                key = row_key(u.rec.context, u.rec.value, u.command)
                if key == baseline.key and _fits(baseline, u.scope, key, run_load(u.command)):
                    paired.append(u.rec)
                else:
                    waiting.append(u)
            self.unpaired = waiting
        self.baselines.append(baseline)
        del self.baselines[:-256]
        if len(self.named) > 4096:
            self.named.clear()
        if rec.host is not None:
            # measured on (or said of) one host: the latest of that host's, which that host's
            # readings are compared with, though another host's baseline was read after it
            self.named[rec.host.lower()] = baseline
        else:
            for word in _HOST_WORD.findall(_clause(rec.context, rec.value)):
                self.named[word.lower()] = baseline
        return paired

    def pair(self, rec: MetricRecord, command: str = "") -> MetricRecord | None:
        """The baseline a throughput reading is compared with: the latest of the same engine and
        model with the reading's row, else the latest with no row stated (or any, when the
        reading states none); None when there is none or only other rows'."""
        # self.now itself, not a copy: nothing below changes it
        scope = self._move(*_stated(rec.context, rec.value, command))
        if not self.baselines:
            # None read yet (most sessions, and every reading before the first baseline): the row
            # would be compared with nothing. self.named is filled by note() only, after it added
            # to self.baselines (which is never emptied), so it is empty too.
            return self._waits(rec, command, scope)
        key = row_key(rec.context, rec.value, command)
        load = run_load(command)  # paid by the readings there is a baseline for only
        # The baseline said of the reading's host ("gpu-a: 90 tok/s baseline; gpu-b: 60 tok/s
        # baseline"): gpu-a's 54.8 tok/s was compared with gpu-b's 60, the last one said.
        if rec.host is not None and self.named and (b := self.named.get(rec.host.lower())) is not None \
                and _fits(b, scope, key, load):
            return b.rec
        fallback = None
        for b in reversed(self.baselines):
            if not _fits(b, scope, key, load):
                continue
            if key is None or b.key == key:
                return b.rec
            if fallback is None:  # b.key is None: a baseline with no row stated
                fallback = b.rec
        return fallback if fallback is not None else self._waits(rec, command, scope)

    def _waits(self, rec: MetricRecord, command: str, scope: Scope) -> None:
        """No baseline for ``rec`` yet: one read later may be its (:meth:`note`)."""
        self.unpaired.append(_Unpaired(rec, command, Scope(scope.engine, scope.model)))
        if len(self.unpaired) > _UNPAIRED_KEPT:
            del self.unpaired[0]
