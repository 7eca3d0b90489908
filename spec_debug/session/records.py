"""What the analysis produces: plain records whose field names are the JSON contract of
issue #6 (add fields freely, never rename or drop one)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, fields, is_dataclass
from operator import attrgetter
from typing import Any

from spec_debug.redact import is_secret_name, may_hold_secret, redact_value

MAX_RECORDS = 20_000
"""Per list and session. Past it records are counted (``stats.records_dropped``) instead of
kept, so a transcript of any size analyzes in bounded memory."""
MAX_COMMAND_CHARS = 32_768
"""The characters of a command a record keeps (``command``, ``inner``): a script an agent feeds
Python or ssh in a heredoc runs to several thousand, and a distilled step must run all of it (at
4,000 the step ran the script cut mid-line). A longer command is cut, and distill leaves it out."""


class Bounded:
    """The first and the most recent records, at most :data:`MAX_RECORDS` in all: a long
    session keeps how it started and how it ended (the impact table needs both)."""

    def __init__(self, limit: int | None = None) -> None:
        limit = MAX_RECORDS if limit is None else limit
        self.head: list = []
        self.tail: deque = deque(maxlen=limit - limit // 2)
        self.head_limit = limit // 2

    def add(self, record) -> bool:
        """Keep ``record``; True when an older record had to be dropped for it."""
        head = self.head
        if len(head) < self.head_limit:
            head.append(record)
            return False
        tail = self.tail
        dropped = len(tail) == tail.maxlen
        tail.append(record)
        return dropped

    def discard(self, record) -> bool:
        """Take ``record`` (the very object) out again; False when it is no longer kept."""
        for items in (self.tail, self.head):
            for i in range(len(items) - 1, -1, -1):
                if items[i] is record:
                    del items[i]
                    return True
        return False

    def recent(self, n: int) -> list:
        return (self.head + list(self.tail))[-n:] if len(self.tail) < n else list(self.tail)[-n:]

    def values(self) -> list:
        return self.head + list(self.tail)


@dataclass(slots=True)
class CommandRecord:
    session: str
    seq: int
    agent: str
    host: str | None
    command: str
    exit_code: int | None = None
    is_error: bool = False
    category: str = "other"
    inner: str = ""
    user: str | None = None
    port: int | None = None
    jump: str | None = None
    container: str | None = None
    description: str | None = None
    why: str = ""
    timestamp: str | None = None
    file: str = ""
    line: int = 0
    result_seq: int | None = None
    cwd: str | None = None
    """The folder the command ran in, where the transcript says (:attr:`Event.cwd`: the shell it
    was typed in); None for one sent through ssh or into a container, which ran elsewhere."""


@dataclass(slots=True)
class ErrorRecord:
    session: str
    seq: int
    agent: str
    kind: str
    exception: str | None
    message: str
    file: str | None
    line: int | None
    host: str | None = None
    command_seq: int | None = None
    timestamp: str | None = None
    source_file: str = ""
    source_line: int = 0
    """Where the output that shows the error is (``file``/``line`` name the failing frame)."""


@dataclass(slots=True)
class MetricRecord:
    session: str
    seq: int
    agent: str
    name: str
    value: float
    unit: str
    host: str | None
    context: str
    source: str = "output"
    """output (printed by a command) or prose (stated by a person or the agent)."""
    timestamp: str | None = None
    file: str = ""
    line: int = 0
    baseline: bool = False
    """A throughput printed by a benchmark of a server launched without speculation: the
    no-speculation baseline, not a reading of the drafter (the postmortem's before and after and
    its rises leave it out, as SD501 compares readings with it)."""
    command: str = ""
    """The command that printed it, as typed ("" for one a person or the agent wrote, or an
    output no call is known for): one message may answer several calls (Gemini's parallel
    ``functionCall`` parts), and ``seq`` names the message, not which of them printed it."""


@dataclass(slots=True)
class PivotRecord:
    session: str
    seq: int
    trigger_seq: int
    kind: str
    """error | metric: what prompted the change of approach."""
    summary: str
    agent: str
    from_category: str
    to_category: str
    timestamp: str | None = None
    trigger_command: str = ""
    """The command whose output prompted it, as typed ("" for a metric or a failed tool that is
    no command): one message may hold the results of several calls (Gemini's parallel
    ``functionCall`` parts, OpenAI's parallel ``tool_calls``), and ``trigger_seq`` names the message."""


@dataclass(slots=True)
class FindingRecord:
    session: str
    code: str
    seq: int
    agent: str
    severity: str
    title: str
    evidence: list[str] = field(default_factory=list)
    evidence_seqs: list[int] = field(default_factory=list)
    host: str | None = None
    remediation: str = ""
    hosts: list[str] = field(default_factory=list)
    """Every host the code was seen on, the first first (``host`` is that one): one record a code
    holds the launch capped at one step on gpu01 and the same launch on gpu02."""
    read_seqs: list[int] = field(default_factory=list)
    """The outputs (result seqs) of the commands an agent had just read when it stated the finding
    in its own words: the check that showed it ("d2t holds absolute ids" after printing d2t)."""
    evidence_commands: list[str] = field(default_factory=list)
    """The commands whose output showed it, as typed (:attr:`PivotRecord.trigger_command`'s
    idea): one message may hold the results of several calls (Gemini's parallel ``functionCall``
    parts), and ``evidence_seqs`` names the message, not which of its outputs showed it."""


@dataclass(slots=True)
class SegmentRecord:
    session: str
    index: int
    start_seq: int
    end_seq: int
    title: str
    agent: str
    events: int = 0
    commands: int = 0
    errors: int = 0
    start_timestamp: str | None = None


@dataclass(slots=True)
class HypothesisRecord:
    session: str
    seq: int
    agent: str
    text: str
    status: str = "open"
    """open | confirmed | ruled_out"""
    outcome_seq: int | None = None
    outcome: str = ""
    timestamp: str | None = None
    outcome_timestamp: str | None = None


@dataclass(slots=True)
class LoopRecord:
    session: str
    agent: str
    template: str
    count: int
    first_seq: int
    last_seq: int
    error: str = ""


@dataclass(slots=True)
class PromptRecord:
    session: str
    seq: int
    agent: str
    text: str
    timestamp: str | None = None


_FIELDS: dict[type, tuple[tuple[str, ...], Any, tuple[str, ...], bool, Any]] = {}


def _spec(record: Any) -> tuple[tuple[str, ...], Any, tuple[str, ...], bool, Any]:
    """Per record type, once: field names, a getter of all their values, the list fields,
    whether a field is named like a secret, and a getter of each other field's value."""
    spec = _FIELDS.get(type(record))
    if spec is None:
        fs = fields(record)
        names = tuple(f.name for f in fs)
        lists = tuple(f.name for f in fs if str(f.type).startswith("list"))
        columns = tuple(attrgetter(n) for n in names if n not in lists)
        spec = _FIELDS[type(record)] = (names, _getter(names), lists, any(is_secret_name(n) for n in names), columns)
    return spec


def _getter(names) -> Any:
    """A getter of the values of ``names`` as a tuple (attrgetter of one name gives the value)."""
    return attrgetter(*names) if len(names) > 1 else (lambda r, _n=names[0]: (getattr(r, _n),))


def redacted(record: Any) -> Any:
    """The record itself when none of its strings may hold a secret (almost every record; orjson
    then writes it as it is), else its :func:`as_json` dict with the secrets masked."""
    _, values, lists, secret_named, _ = _spec(record)
    if not secret_named and not may_hold_secret(_strings(record, values, lists)):
        return record
    return redact_value(as_json(record))


def _strings(record: Any, values, lists: tuple[str, ...]) -> str:
    """The record's strings, its lists' too, one a line: the text :func:`redacted` tests."""
    parts = [v for v in values(record) if type(v) is str]
    for name in lists:
        parts.extend(v for v in getattr(record, name) if type(v) is str)
    return "\n".join(parts)


_TIME_CHARS = "0123456789TZ:.+-"
"""What an ISO 8601 time is spelt with (see :func:`redacted_all`)."""

_BATCH = 256
"""Records whose strings :func:`redacted_all` tests in one :func:`may_hold_secret` call."""

def redacted_all(records: list, one: Any = redact_value) -> list:
    """``[redacted(r) for r in records]`` where ``records`` are dataclass records, ``[one(r)]``
    for any other item. The strings of up to :data:`_BATCH` records are tested at once (a
    JSON analysis holds tens of thousands of records, almost none with a secret; one test per
    record cost more than writing the JSON, see bench/analyze_throughput.py): a batch that
    may hold none is kept as it is, any other is tested record by record as before.

    Each distinct string of a batch is tested once, and not again in a later batch once a
    batch that held it was found clean (a session's file, agent, host, unit and category
    repeat on every record). The strings stand between NULs, which no literal or pattern of
    :func:`may_hold_secret` reads (a pattern's ``\\s*\\d`` lookahead stops at one as at the end
    of a text), so the joined text may hold a secret whenever one of its strings may. A record
    none of whose strings may is written as it is: :func:`redacted` would give the same JSON
    (``redact_text`` leaves such a string as it is, and no field is named like a secret)."""
    out: list = []
    clean: set = set()  # the values of the batches found clean
    for start in range(0, len(records), _BATCH):
        batch = records[start:start + _BATCH]
        try:
            fresh = _batch_values(batch)
        except TypeError:  # a value that cannot be hashed (a dict where a string is typed)
            fresh = None
        if fresh is not None:
            fresh = fresh.difference(clean)  # iterates fresh, not the growing clean set
            # isinstance, not type(v) is str: the set keeps one of equal values, which may be of
            # a str subclass; testing it too only widens the test.
            # A time (``2026-03-02T00:00:12.000Z``, one per record and seldom repeated: a tenth of
            # the text tested) is left out of the text: none of the literals may_hold_secret looks
            # for can be spelt with digits, T, Z, ``:``, ``.``, ``+`` and ``-``.
            if not may_hold_secret("\x00".join([v for v in fresh if isinstance(v, str)
                                                 and (v[-1:] != "Z" or v.strip(_TIME_CHARS))])):
                clean.update(fresh)
                out.extend(batch)
                continue
        out.extend(redacted(r) if is_dataclass(r) else one(r) for r in batch)
    return out


def _batch_values(batch: list) -> set | None:
    """The values of the fields of a batch's records, their lists' items too; None when an item
    is no record or has a field named like a secret (each item is then redacted on its own).

    Field by field over the records of each type (a list of the analysis holds one), so that
    the values are fetched and gathered in C instead of a tuple built per record (the 500 MB
    bench session's 20,000 commands: 35 ms -> 28 ms)."""
    kinds = set(map(type, batch))
    values: set = set()
    for kind in kinds:
        records = batch if len(kinds) == 1 else [r for r in batch if type(r) is kind]
        spec = _FIELDS.get(kind)
        if spec is None and is_dataclass(records[0]):
            spec = _spec(records[0])
        if spec is None or spec[3]:
            return None
        for column in spec[4]:  # the fields that are not lists (all of them for most types)
            values.update(map(column, records))
        for name in spec[2]:
            for r in records:
                values.update(getattr(r, name))
    return values


def as_json(record: Any) -> dict:
    """Shallow ``asdict`` (records hold only scalars and lists of scalars; ``asdict``'s deep
    copy cost more than the whole analysis on large sessions). Lists are copied."""
    names, values, lists, _, _ = _spec(record)
    out = dict(zip(names, values(record)))
    for name in lists:
        out[name] = list(out[name])
    return out
