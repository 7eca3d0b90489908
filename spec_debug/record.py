"""The run record (run.json): the source of truth every report is a view of.

Field names are a contract (issue #2): add fields freely, never rename or drop one.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from collections import Counter
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, PrivateAttr, ValidationInfo
from pydantic_core import PydanticCustomError, PydanticSerializationError

RunStatus = Literal["running", "passed", "failed", "error", "aborted"]
StepStatus = Literal["passed", "failed", "error", "skipped", "timeout"]
Severity = Literal["info", "warning", "error"]
HostStatus = Literal["pending", "running", "passed", "failed", "error", "aborted"]

SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}


READING = {"spec_debug.reading_a_record": True}
"""Validation context of a record read back from run.json (store.parse_record): only there may
a status be a value this version does not know."""


def _as_text(known: object) -> PlainValidator:
    """A known value when spec-debug writes a record (a typo in the runner's status stays an
    error), any text when it reads one: a newer spec-debug adds values (a severity "critical")
    without a schema bump, and a report keeps them as written (unknown_parts names them). A
    value that is not text is a damaged record, refused with the known values in the message
    (a plain `Literal | str` union said it twice, with pydantic's union tags in the path)."""
    allowed = get_args(known)
    values = ", ".join(repr(v) for v in allowed)

    def read(value: object, info: ValidationInfo) -> str:
        reading = bool(info.context and info.context.get("spec_debug.reading_a_record"))
        if isinstance(value, str) and (reading or value in allowed):
            return value
        raise PydanticCustomError("status_text", f"Input should be {'text such as ' if reading else 'one of '}{values}")

    return PlainValidator(read, json_schema_input_type=str)


RunStatusText = Annotated[RunStatus | str, _as_text(RunStatus)]
StepStatusText = Annotated[StepStatus | str, _as_text(StepStatus)]
HostStatusText = Annotated[HostStatus | str, _as_text(HostStatus)]
SeverityText = Annotated[Severity | str, _as_text(Severity)]


def severity_rank(severity: str) -> int:
    """SEVERITY_RANK, with a severity this version does not know (a newer spec-debug's
    "critical" or "hint") ranked above error: shown first, where a reader cannot miss it."""
    return SEVERITY_RANK.get(severity, len(SEVERITY_RANK))


RECORD_SCHEMA_VERSION = 1
"""Bumped only if a field ever changes meaning. Records without the field are version 1."""


_SURROGATE = re.compile("[\ud800-\udfff]")


def shown_surrogate(char: str) -> str:
    """A lone surrogate as text UTF-8 can carry: Python decodes a byte that is not UTF-8 in
    argv, environ and file names to U+DC80..U+DCFF (PEP 383, surrogateescape), shown here as
    the byte it stands for (`caf\\xe9`); any other lone surrogate as U+FFFD."""
    code = ord(char)
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else "\ufffd"


SHOWN_BYTE = re.compile(r"\\x([89a-f][0-9a-f])")
"""A byte shown_surrogate() wrote (`\\xe9`), its two hex digits the group."""


def unshown_bytes(text: str) -> str:
    """text with each byte shown_surrogate() wrote as `\\xe9` (0x80..0xff, the bytes
    surrogateescape carries) turned back into the surrogate Python's argv held for it, so a
    value read back from run.json reaches the host as the byte it was typed as. `\\x41` and
    the like were never written by shown_surrogate and stay text."""
    return SHOWN_BYTE.sub(lambda m: chr(0xDC00 + int(m.group(1), 16)), text) if "\\x" in text else text


def carriable(value: Any) -> Any:
    """value with every string's lone surrogates shown (shown_surrogate), lists and mappings walked."""
    if isinstance(value, str):
        return _SURROGATE.sub(lambda m: shown_surrogate(m.group(0)), value) if _SURROGATE.search(value) else value
    if isinstance(value, (list, tuple)):
        return [carriable(item) for item in value]
    if isinstance(value, dict):
        return {carriable(key): carriable(item) for key, item in value.items()}
    return value


def _shown_copy(value: Any) -> Any:
    """carriable(value) without copying what holds no lone surrogate: a record's models are
    copied (model_copy, not validated again) only on the way to a string that holds one, and
    every other part is the object itself. A run's record of 200 hosts x 30 steps (12 MB) that
    held one byte of output that is no UTF-8 was dumped, walked whole, validated whole and
    dumped again under the engine's lock: 0.57 s a write where it takes 0.075 s."""
    if isinstance(value, str):
        if value.isascii() or not _SURROGATE.search(value):
            return value
        return _SURROGATE.sub(lambda m: shown_surrogate(m.group(0)), value)
    if isinstance(value, BaseModel):
        changes = {name: shown for name, item in value.__dict__.items() if (shown := _shown_copy(item)) is not item}
        extra = value.__pydantic_extra__ or {}
        changes.update((name, shown) for name, item in extra.items() if (shown := _shown_copy(item)) is not item)
        return value.model_copy(update=changes) if changes else value
    if isinstance(value, (list, tuple)):
        items = [_shown_copy(item) for item in value]
        return items if any(new is not old for new, old in zip(items, value)) else value
    if isinstance(value, dict):
        pairs = [(_shown_copy(key), _shown_copy(item)) for key, item in value.items()]
        changed = any(key is not old_key or item is not old_item for (key, item), (old_key, old_item) in zip(pairs, value.items()))
        return dict(pairs) if changed else value
    return value


def shell_word(word: str) -> str:
    """word quoted for a shell. A byte that is no UTF-8 (a Latin-1 folder's `r\\xe9sultats`) is
    recorded as the text `\\xe9` (record.shown_surrogate); in single quotes a shell keeps that as
    four characters, and the command named a path that does not exist. ANSI-C quotes (bash, zsh,
    ksh, POSIX.1-2024 sh: `$'...'`) give the byte back; the word's own backslashes and quotes are
    escaped there, so only the bytes unshown_bytes() would read back become bytes. The record
    of the run in progress still holds the surrogate Python's argv had: shown the same way."""
    word = carriable(word)
    if "\\x" not in word or not SHOWN_BYTE.search(word):
        return shlex.quote(word)
    pieces = SHOWN_BYTE.split(word)  # text, byte, text, byte, ..., text
    out = [f"\\x{piece}" if at % 2 else piece.replace("\\", "\\\\").replace("'", "\\'") for at, piece in enumerate(pieces)]
    return "$'" + "".join(out) + "'"


class _RecordModel(BaseModel):
    # A captured loss of inf or an accept length of nan is evidence (the drafter diverged);
    # JSON has no such numbers and pydantic writes them as null by default, which reads as
    # "the capture matched nothing". Written as the strings "NaN", "Infinity", "-Infinity".
    # extra="allow": a record written by a newer spec-debug may hold fields this one does not
    # know (fields are only ever added, DESIGN "Contracts"); they are kept, so `report --format
    # json` writes the record back whole instead of silently dropping them.
    model_config = ConfigDict(ser_json_inf_nan="strings", extra="allow")

    def model_dump_json(self, **kwargs: Any) -> str:  # type: ignore[override]
        """As pydantic writes it; a record holding a lone surrogate is written with it shown.
        `--var model=/models/caf\\xe9` typed in a Latin-1 shell reaches argv as a surrogate
        (PEP 383); pydantic refuses to encode it, and the run ended in a traceback with no
        run.json. The command itself still runs with the original byte (runner/local.py
        encodes with surrogateescape); only the record shows it as text."""
        if not self._holds_surrogate:
            try:
                return super().model_dump_json(**kwargs)
            except PydanticSerializationError:
                # Walked first from now on: a run's record is written again at every step, and a
                # byte its output held stays in it (the failed attempt cost a whole dump).
                self._holds_surrogate = True
        return BaseModel.model_dump_json(_shown_copy(self), **kwargs)

    _holds_surrogate: bool = PrivateAttr(default=False)


class Finding(_RecordModel):
    """A coded result, like a linter's: stable code, severity, evidence, remediation."""

    code: str
    severity: SeverityText
    """A Severity; any other text is a newer spec-debug's severity, kept as written (see unknown_parts)."""
    title: str
    host: str | None = None
    step: str | None = None
    evidence: list[str] = Field(default_factory=list)
    remediation: str = ""
    references: list[str] = Field(default_factory=list)
    facts: dict[str, Any] = Field(default_factory=dict)
    """The numbers behind the finding, for machines (e.g. trained vs served layer ids)."""


class PlaybookWarningRecord(_RecordModel):
    """What the playbook got when it was loaded: it runs, but not as its author meant (a guard
    that does not guard, a read of a misspelt fact: playbook/none_guard.py)."""

    message: str
    """`file:line:column: what (at key.path)`, as `playbooks validate` prints it."""
    hint: str = ""


class PlaybookRef(_RecordModel):
    name: str
    path: str
    sha256: str
    warnings: list[PlaybookWarningRecord] = Field(default_factory=list)
    """The load-time warnings `run` printed on stderr before it started, kept for the reports
    and for a tool reading run.json (`run --json`)."""
    step_ids: list[str] | None = None
    """The ids of the playbook's steps, in order: what each host was meant to run. A run stopped
    mid-way (SIGTERM, Ctrl-C, a host that dropped) recorded only the steps that ran, and neither
    run.json nor the reports said which never did. None in a record written before this field."""


class StepLeftRunning(_RecordModel):
    """A step whose command may still run on its host: it timed out or was interrupted before
    its shell reported the pid the kill needs (runner/ssh.py, _left_running), or the connection
    dropped before the timeout's kill could be sent, so nothing was killed. The step's message
    says the same in words."""

    host: str
    check: str
    """A line to paste on the host that lists the command's processes (pid, age, args)."""
    waited_s: float = 0.0
    """Seconds from the command's start until it was given up."""


class StepRecord(_RecordModel):
    id: str
    host: str
    title: str = ""
    status: StepStatusText
    """A StepStatus; any other text is a newer spec-debug's status, kept as written."""
    exit_code: int | None = None
    duration_s: float = 0.0
    stdout: str = ""
    stderr: str = ""
    truncated: bool = False
    facts: dict[str, Any] = Field(default_factory=dict)
    command: str | None = None
    attempts: int = 1
    started_at: str | None = None
    finished_at: str | None = None
    message: str | None = None
    """Why the step was skipped, failed or errored, in one line."""
    artifacts: list[str] = Field(default_factory=list)
    capped_artifacts: dict[str, int] = Field(default_factory=dict)
    """Artifacts cut at the artifact limit: path (as in artifacts) -> bytes dropped from its middle."""
    expectations: list[dict[str, Any]] = Field(default_factory=list)
    left_running: StepLeftRunning | None = None
    """Set when the step's command may still run on the host (StepLeftRunning); None otherwise."""


class HostRecord(_RecordModel):
    name: str
    transport: str = "local"
    address: str | None = None
    status: HostStatusText = "pending"
    """A HostStatus; any other text is a newer spec-debug's status, kept as written."""
    error: str | None = None
    """One-line cause when the host could not be reached or dropped mid-run."""
    hint: str | None = None
    """How to fix that cause, where the transport knows it (the `ssh-keygen -R` line for a
    changed host key, the keyword of an ssh_config line it refused)."""
    vars: dict[str, Any] = Field(default_factory=dict)
    started_at: str | None = None
    finished_at: str | None = None
    running_step: str | None = None
    """The id of the step under way on this host when the record was written; None between
    steps and once the host is done. A record left "running" (the controller killed with
    SIGKILL, OOM, a closed laptop) names by it the step that was cut, whose command may still
    run on the host; it held only the steps that had finished."""
    warnings: list[str] = Field(default_factory=list)
    """What the connection let pass that ssh(1) warns of on stderr: a host key that differs from
    known_hosts, accepted under StrictHostKeyChecking no (a reinstalled host, or a
    man-in-the-middle). Kept here so that the report read later says it too."""


class RunRecord(_RecordModel):
    run_id: str
    playbook: PlaybookRef
    started_at: str
    finished_at: str | None = None
    status: RunStatusText = "running"
    """A RunStatus; any other text is a newer spec-debug's status, kept as written."""
    vars: dict[str, Any] = Field(default_factory=dict)
    hosts: list[HostRecord] = Field(default_factory=list)
    steps: list[StepRecord] = Field(default_factory=list)
    facts: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Facts per host: {host: {fact name: value}}."""
    findings: list[Finding] = Field(default_factory=list)
    spec_debug_version: str = ""
    command_line: list[str] = Field(default_factory=list)
    abort_reason: str | None = None
    schema_version: int = RECORD_SCHEMA_VERSION

    _reading_notes: list[str] = PrivateAttr(default_factory=list)

    @property
    def reading_notes(self) -> list[str]:
        """What this version did not know when it read the record (store.parse_record sets
        them): reports say so, since they show a newer record only in part. Not written."""
        return self._reading_notes


# The statuses and severities a record may hold, by where they sit. A newer spec-debug adds
# values (a host status "quarantined", a severity "critical") without a schema bump: only a
# field that changes meaning bumps it. The models read them as text; this names them.
_KNOWN_VALUES: dict[tuple[type[BaseModel], str], tuple[str, ...]] = {
    (RunRecord, "status"): get_args(RunStatus),
    (HostRecord, "status"): get_args(HostStatus),
    (StepRecord, "status"): get_args(StepStatus),
    (Finding, "severity"): get_args(Severity),
}
_NESTED: dict[tuple[type[BaseModel], str], type[BaseModel]] = {
    (RunRecord, "playbook"): PlaybookRef,
    (RunRecord, "hosts"): HostRecord,
    (RunRecord, "steps"): StepRecord,
    (RunRecord, "findings"): Finding,
}


# `python -m spec_debug`: the words that run this package again, first in command_line.
MODULE_PROGRAM = ["-m", "spec_debug"]


def recorded_argv(argv: list[str]) -> list[str]:
    """sys.argv as run.json keeps it: under `python -m spec_debug` argv[0] is the path of
    spec_debug/__main__.py (CPython's runpy), a file no shell runs, and the report's retry
    command then said `spec-debug run ...`, a program such a user (a checkout, a venv not on
    PATH) may not have. The interpreter and `-m spec_debug` are kept instead: the interpreter as
    its name where PATH finds that very one, else its path."""
    if not argv or os.path.basename(argv[0]) != "__main__.py":
        return list(argv)
    python = sys.executable or "python3"
    name = os.path.basename(python)
    found = shutil.which(name)
    if found is not None and (found == python or os.path.realpath(found) == os.path.realpath(python)):
        python = name
    return [python, *MODULE_PROGRAM, *argv[1:]]


def given_var_names(args: list[str], *, files_unknown: bool = True) -> set[str] | None:
    """The var names a recorded run's `--var`/`-e` named, however written (`--var K=V`,
    `--var=K=V`, `-e K=V`, `-eK=V`); None where it had a --var-file, whose names are not known
    (unless files_unknown is False: the --var names alone)."""
    names: set[str] = set()
    for index, arg in enumerate(args):
        if files_unknown and (arg == "--var-file" or arg.startswith("--var-file=")):
            return None
        if arg in ("--var", "-e"):
            value = args[index + 1] if index + 1 < len(args) else ""
        elif arg.startswith("--var="):
            value = arg[len("--var="):]
        elif arg.startswith("-e") and not arg.startswith("--") and len(arg) > 2:
            value = arg[2:]
        else:
            continue
        names.add(value.partition("=")[0])
    return names


def split_program(command_line: list[str]) -> tuple[list[str], list[str]]:
    """A recorded command line as (the program's words, its arguments from the subcommand on)."""
    if command_line[1:3] == MODULE_PROGRAM:
        return command_line[:3], command_line[3:]
    if command_line and os.path.basename(command_line[0]) == "__main__.py":
        return ["python3", *MODULE_PROGRAM], command_line[1:]  # a record written before recorded_argv
    return ["spec-debug"], command_line[1:]


def known_value(model: type[BaseModel], field: str, value: object) -> bool:
    """Whether this version knows value for model.field (statuses, severities)."""
    return value in _KNOWN_VALUES.get((model, field), (value,))


def unknown_parts(data: dict[str, Any]) -> list[str]:
    """What a raw run record holds that this version does not know, one phrase per kind:
    values kept as text (`steps[].status 'flaky' (2)`) and fields it cannot show
    (`steps[].retry_policy`). Empty for a record this version wrote."""
    values: Counter[str] = Counter()
    fields: dict[str, None] = {}

    def walk(model: type[BaseModel], item: object, prefix: str) -> None:
        if not isinstance(item, dict):
            return  # validation names a wrong shape
        for key, value in item.items():
            where = f"{prefix}{key if key.isprintable() and len(key) <= 60 else repr(key[:60])}"
            if key not in model.model_fields:
                fields[where] = None
                continue
            if isinstance(value, str) and not known_value(model, key, value):
                values[f"{where} {value[:40]!r}"] += 1
            child = _NESTED.get((model, key))
            if child is not None:
                for part in value if isinstance(value, list) else [value]:
                    walk(child, part, f"{where}[]." if isinstance(value, list) else f"{where}.")

    walk(RunRecord, data, "")
    parts = []
    if values:
        parts.append("values shown as written: " + some_names([f"{what} ({count}x)" if count > 1 else what for what, count in values.items()], 8))
    if fields:
        parts.append("fields it does not read: " + some_names(list(fields), 8))
    return parts


def some_names(items: list[str], shown: int = 5) -> str:
    """A few names and a count (`gpu01, gpu02 and 14 more`), never "and 1 more": a warning or a
    verdict is one line (a sticky banner in HTML, the title of a step summary), even for a fleet
    of 200 hosts or a record from a much newer version."""
    return ", ".join(items) if len(items) <= shown + 1 else ", ".join(items[:shown]) + f" and {len(items) - shown} more"
