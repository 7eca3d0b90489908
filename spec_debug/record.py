"""The run record (run.json): the source of truth every report is a view of.

Field names are a contract (issue #2): add fields freely, never rename or drop one.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import PydanticSerializationError

RunStatus = Literal["running", "passed", "failed", "error", "aborted"]
StepStatus = Literal["passed", "failed", "error", "skipped", "timeout"]
Severity = Literal["info", "warning", "error"]
HostStatus = Literal["pending", "running", "passed", "failed", "error", "aborted"]

SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}

RECORD_SCHEMA_VERSION = 1
"""Bumped only if a field ever changes meaning. Records without the field are version 1."""


_SURROGATE = re.compile("[\ud800-\udfff]")


def shown_surrogate(char: str) -> str:
    """A lone surrogate as text UTF-8 can carry: Python decodes a byte that is not UTF-8 in
    argv, environ and file names to U+DC80..U+DCFF (PEP 383, surrogateescape), shown here as
    the byte it stands for (`caf\\xe9`); any other lone surrogate as U+FFFD."""
    code = ord(char)
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else "\ufffd"


def carriable(value: Any) -> Any:
    """value with every string's lone surrogates shown (shown_surrogate), lists and mappings walked."""
    if isinstance(value, str):
        return _SURROGATE.sub(lambda m: shown_surrogate(m.group(0)), value) if _SURROGATE.search(value) else value
    if isinstance(value, (list, tuple)):
        return [carriable(item) for item in value]
    if isinstance(value, dict):
        return {carriable(key): carriable(item) for key, item in value.items()}
    return value


class _RecordModel(BaseModel):
    # A captured loss of inf or an accept length of nan is evidence (the drafter diverged);
    # JSON has no such numbers and pydantic writes them as null by default, which reads as
    # "the capture matched nothing". Written as the strings "NaN", "Infinity", "-Infinity".
    model_config = ConfigDict(ser_json_inf_nan="strings")

    def model_dump_json(self, **kwargs: Any) -> str:  # type: ignore[override]
        """As pydantic writes it; a record holding a lone surrogate is written with it shown.
        `--var model=/models/caf\\xe9` typed in a Latin-1 shell reaches argv as a surrogate
        (PEP 383); pydantic refuses to encode it, and the run ended in a traceback with no
        run.json. The command itself still runs with the original byte (runner/local.py
        encodes with surrogateescape); only the record shows it as text."""
        try:
            return super().model_dump_json(**kwargs)
        except PydanticSerializationError:
            shown = type(self).model_validate(carriable(self.model_dump()))
            return BaseModel.model_dump_json(shown, **kwargs)


class Finding(_RecordModel):
    """A coded result, like a linter's: stable code, severity, evidence, remediation."""

    code: str
    severity: Severity
    title: str
    host: str | None = None
    step: str | None = None
    evidence: list[str] = Field(default_factory=list)
    remediation: str = ""
    references: list[str] = Field(default_factory=list)
    facts: dict[str, Any] = Field(default_factory=dict)
    """The numbers behind the finding, for machines (e.g. trained vs served layer ids)."""


class PlaybookRef(_RecordModel):
    name: str
    path: str
    sha256: str


class StepRecord(_RecordModel):
    id: str
    host: str
    title: str = ""
    status: StepStatus
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


class HostRecord(_RecordModel):
    name: str
    transport: str = "local"
    address: str | None = None
    status: HostStatus = "pending"
    error: str | None = None
    """One-line cause when the host could not be reached or dropped mid-run."""
    vars: dict[str, Any] = Field(default_factory=dict)
    started_at: str | None = None
    finished_at: str | None = None


class RunRecord(_RecordModel):
    run_id: str
    playbook: PlaybookRef
    started_at: str
    finished_at: str | None = None
    status: RunStatus = "running"
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
