"""The playbook model. Strict: unknown keys are errors and types are not coerced.

The field names are the playbook format documented in docs/playbooks.md.
"""

from __future__ import annotations

import re
import threading
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from spec_debug.playbook.habits import step_id_suggestion
from spec_debug.playbook.json_path import json_path_parts
from spec_debug.playbook.leading_dot_star import refuse_leading_dot_star
from spec_debug.playbook.regex_habits import regex_habit
from spec_debug.playbook.regex_backtracking import refuse_nested_repetition

VarValue = Union[str, int, float, bool, None, list[Any], dict[str, Any]]

STEP_ID = re.compile(r"^[a-z0-9_]+$")

# `300M`, `1.5GiB`, `500MB`, `0`: as GNU coreutils reads sizes (`head -c 300M`): K, M, G, T and
# KiB, MiB... are powers of 1024, KB, MB... powers of 1000 (coreutils doc, "Block size").
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:([KMGT])(iB|B)?)?$", re.IGNORECASE)
_SIZE_POWERS = {"K": 1, "M": 2, "G": 3, "T": 4}
_EXPONENT_SIZE = re.compile(r"^\d+(?:\.\d*)?[eE]\+?\d+$")


def parse_size(value: Any) -> int:
    """Bytes from a playbook's size: an integer, or a number with a unit (`300M`, `2GiB`, `500MB`)."""
    if isinstance(value, bool):
        raise ValueError("a size is a number of bytes or a number with a unit, e.g. 512M or 2GiB")
    if isinstance(value, int):
        if value < 0:
            raise ValueError("a size cannot be negative")
        return value
    found = _SIZE.match(value.strip()) if isinstance(value, str) else None
    if found is None:
        # `artifact_limit: 1e6` (text to YAML 1.1, and to coreutils' `head -c`): the bytes named
        exponent = _EXPONENT_SIZE.match(value.strip()) if isinstance(value, str) else None
        bytes_meant = float(value) if exponent is not None else None
        written = (f"write {int(bytes_meant)} (bytes), or" if bytes_meant is not None and bytes_meant.is_integer()
                   and 1 <= bytes_meant < 2**63 else "write bytes or")
        raise ValueError(f"{value!r} is not a size: {written} a number with a unit, e.g. 512M or 2GiB")
    number, unit, suffix = found.groups()
    base = 1000 if suffix is not None and suffix.upper() == "B" else 1024
    return int(float(number) * base ** (_SIZE_POWERS[unit.upper()] if unit else 0))


def compile_regex(pattern: str, every_match: bool = False) -> re.Pattern[str]:
    """Compile an author's regex at load time. re raises more than re.error on hostile input:
    OverflowError for `a{99999999999}`, RecursionError for thousands of nested groups. A
    regex that can backtrack for ever on one line is refused too: a run cannot stop it.
    `every_match`: the run takes all its matches (a capture's `all: true`), not the first."""
    habit = regex_habit(pattern)
    if habit is not None:
        raise ValueError(habit)
    try:
        compiled = re.compile(pattern, re.MULTILINE)
        refuse_nested_repetition(pattern, re.MULTILINE)
        refuse_leading_dot_star(pattern, re.MULTILINE, every_match)
    except re.error as exc:
        raise ValueError(f"invalid regex: {exc}") from None
    except (OverflowError, RecursionError) as exc:
        raise ValueError(f"invalid regex: {type(exc).__name__}: {exc}") from None
    return compiled


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)


class FindingTemplate(_Strict):
    """What to report when an expectation fails. Text fields are templates over facts."""

    code: str = Field(pattern=r"^[A-Z]{2,4}\d{3}$", description="Stable finding code, e.g. SD101")
    severity: Literal["info", "warning", "error"] | None = Field(
        default=None, description="Defaults to the catalog's severity for the code, else warning"
    )
    title: str | None = Field(default=None, description="Defaults to the catalog's title")
    remediation: str | None = None
    evidence: list[str] = Field(default_factory=list)
    references: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _code_alone(cls, data: Any) -> Any:
        """`finding: SD201` names a catalog finding: its title, severity and remediation come
        from the catalog, as they do for `{code: SD201}`."""
        return {"code": data.strip()} if isinstance(data, str) and _CODE.fullmatch(data.strip()) else data


_CODE = re.compile(r"[A-Z]{2,4}\d{3}")


class Capture(_Strict):
    """Turn output into typed facts: regex named groups, or a JSON path."""

    regex: str | None = None
    json_path: str | None = Field(default=None, alias="json", description="e.g. engine.version or gpus[0].name")
    name: str | None = Field(default=None, description="Fact name (regex: the group of that name, else group 1)")
    type: Literal["auto", "str", "int", "float", "bool", "json"] = "auto"
    from_: Literal["stdout", "stderr", "output"] = Field(default="stdout", alias="from")
    all: bool = Field(default=False, description="Capture every match as a list")
    default: VarValue = None

    @model_validator(mode="after")
    def _one_source(self) -> "Capture":
        if (self.regex is None) == (self.json_path is None):
            raise ValueError("a capture needs exactly one of 'regex' or 'json'")
        if self.regex is not None:
            compiled = compile_regex(self.regex, every_match=self.all)
            if not compiled.groupindex and self.name is None:
                raise ValueError("a regex capture needs named groups (?P<name>...) or a 'name'")
        elif self.name is None:
            raise ValueError("a json capture needs a 'name'")
        return self

    @field_validator("json_path")
    @classmethod
    def _readable_path(cls, value: str | None) -> str | None:
        if value is not None:
            json_path_parts(value)  # `gpus[*].name`, `$..x`: refused here, not a None fact at run time
        return value


class Expectation(_Strict):
    """One assertion on a step's result. Exactly one of the assertion keys is set."""

    exit_code: int | list[int] | None = None
    contains: str | None = None
    not_contains: str | None = None
    matches: str | None = None
    that: str | None = Field(default=None, description="A Jinja2 expression that must be true")
    description: str | None = None
    finding: FindingTemplate | None = None

    @field_validator("exit_code")
    @classmethod
    def _observable(cls, value: int | list[int] | None) -> int | list[int] | None:
        # A parent sees only the low 8 bits of a status (POSIX exit(): "status & 0377"), and a
        # command killed by signal N is recorded as 128 + N (runner/local.py, ssh.py), never as
        # Python's returncode -N: `exit_code: -9` or `exit_code: 256` failed on every host.
        for code in [value] if isinstance(value, int) else value or []:
            if not 0 <= code <= 255:
                raise ValueError(f"exit code {code} is never observed: an exit status is 0 to 255")
        return value

    @model_validator(mode="after")
    def _one_assertion(self) -> "Expectation":
        set_keys = [k for k in ("exit_code", "contains", "not_contains", "matches", "that") if getattr(self, k) is not None]
        if len(set_keys) != 1:
            raise ValueError(
                "an expectation needs exactly one of exit_code, contains, not_contains, matches, that"
                + (f" (got {', '.join(set_keys)})" if set_keys else "")
            )
        if self.matches is not None:
            compile_regex(self.matches)  # else the run crashes on it (re.search in runner/attempt.py)
        return self

    def describe(self) -> str:
        if self.description:
            return self.description
        if self.exit_code is not None:
            return f"exit code {self.exit_code}"
        if self.contains is not None:
            return f"output contains {self.contains!r}"
        if self.not_contains is not None:
            return f"output does not contain {self.not_contains!r}"
        if self.matches is not None:
            return f"output matches /{self.matches}/"
        return f"that {self.that}"


class FetchSpec(_Strict):
    src: str | list[str]
    dest: str = ""

    def sources(self) -> list[str]:
        return [self.src] if isinstance(self.src, str) else list(self.src)

    @field_validator("src")
    @classmethod
    def _names_a_file(cls, value: str | list[str]) -> str | list[str]:
        # `src: []` copied nothing and the step passed; `src: ""` failed on every host halfway
        # through the run ("refusing remote file name ''"): both are a file left unnamed.
        sources = [value] if isinstance(value, str) else value
        if not sources:
            raise ValueError("fetch src lists no file: name the remote file, e.g. src: /var/log/sglang.log")
        if any(not source.strip() for source in sources):
            raise ValueError("a fetch src is empty: name the remote file, e.g. src: /var/log/sglang.log")
        return value

    @field_validator("dest")
    @classmethod
    def _inside_artifacts(cls, value: str) -> str:
        # dest is a folder under the run's artifacts/<host>/ (runner/engine.py, safe_artifact_path
        # refuses any other on each host, mid-run). A templated dest is only known per host.
        if "{{" in value or "{%" in value:
            return value
        fix = _relative_dest(value)
        if value.startswith("/"):
            raise ValueError(f"fetch dest is a folder inside the run's artifacts, not a path on this machine: write dest: {fix}")
        if _climbs_out(value):
            raise ValueError(f"fetch dest {value!r} climbs out of the run's artifacts folder: write dest: {fix}")
        return value


def _climbs_out(dest: str) -> bool:
    """Whether a relative folder's `..` parts lead above where it starts."""
    depth = 0
    for part in dest.split("/"):
        depth += -1 if part == ".." else 0 if part in ("", ".") else 1
        if depth < 0:
            return True
    return False


def _relative_dest(dest: str) -> str:
    """The folder a dest means under artifacts: its names, without the leading / and the `..`."""
    return "/".join(part for part in dest.split("/") if part not in ("", ".", "..")) or "logs"


_EMPTY_VALUES = (None, "", [], {})


def is_empty_var(value: Any) -> bool:
    """A var that `requires:` counts as not given (the runner skips the step): None, "", [] or {},
    and text of whitespace alone (`--var "server_log= $SERVER_LOG"` with the shell variable unset,
    a `.env` line `SERVER_LOG= `): it names no path, URL or token, and the step ran `tail -n 5 ' '`
    and failed as if the host were at fault (SD001)."""
    if isinstance(value, str):
        return not value.strip()
    return value in _EMPTY_VALUES


LONGEST_WAIT_S = int(threading.TIMEOUT_MAX)
"""The longest retry_delay a run can wait (threading.Event.wait refuses more)."""


class Step(_Strict):
    id: str
    title: str = ""
    why: str = Field(default="", description="What this checks and why it matters (onboarding text)")
    run: str | None = Field(default=None, description="A shell command (template; values are shell-quoted)")
    probe: str | None = Field(default=None, description="A built-in probe by name")
    with_: dict[str, VarValue] = Field(default_factory=dict, alias="with")
    fetch: FetchSpec | None = None
    requires: list[str] = Field(default_factory=list, description="Vars that must be non-empty, else skip")
    when: str | None = None
    # Finite: an infinite or NaN timeout means "no timeout", which is what leaving it out says.
    timeout: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    retries: int = Field(default=0, ge=0)
    # At most the longest wait Python can make (threading.TIMEOUT_MAX: 292 years on Linux):
    # `retry_delay: 100000000000` passed validation and ended the host mid-run with "internal
    # error: OverflowError: timestamp out of range for platform time_t".
    retry_delay: float = Field(default=0.0, ge=0, le=LONGEST_WAIT_S, allow_inf_nan=False)
    until: str | None = None
    capture: list[Capture] = Field(default_factory=list)
    expect: list[Expectation] = Field(default_factory=list)
    findings: list[FindingTemplate] = Field(default_factory=list)
    on_failure: Literal["continue", "stop"] = "continue"
    artifact_limit: int | None = Field(
        default=None,
        description="Bytes of each output stream its artifact keeps at most (head and end), e.g. 64M; 0: all. "
        "Default: the run's (256 MiB). For a fetch step: the bytes it copies in all (files over it are not copied)",
        json_schema_extra={"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}, {"type": "null"}]},
    )
    provenance: dict[str, VarValue] = Field(default_factory=dict)

    @field_validator("id")
    @classmethod
    def _valid_id(cls, value: str) -> str:
        # fullmatch: re's $ also matches before a final newline, and `id: "gpu_check\n"` (a
        # quoted id, or a `|` block) loaded, then named an artifact folder and a report row
        # with the newline in it.
        if not STEP_ID.fullmatch(value):
            spaced = STEP_ID.fullmatch(value.strip()) is not None
            if spaced:
                raise ValueError(f"step id {value!r} must match [a-z0-9_]+ (no spaces or line breaks around it: {value.strip()})")
            # `GPU-Check`, `check gpu`: the habits of Ansible task names and GitHub Actions step ids.
            suggested = step_id_suggestion(value)
            raise ValueError(f"step id {value!r} must match [a-z0-9_]+" + (f": write id: {suggested}" if suggested else ""))
        return value

    @field_validator("artifact_limit", mode="before")
    @classmethod
    def _size(cls, value: Any) -> Any:
        return None if value is None else parse_size(value)

    @model_validator(mode="after")
    def _one_action(self) -> "Step":
        actions = [k for k in ("run", "probe", "fetch") if getattr(self, k) is not None]
        if len(actions) != 1:
            raise ValueError(
                "a step needs exactly one action: run, probe or fetch" + (f" (got {', '.join(actions)})" if actions else "")
            )
        if self.with_ and self.probe is None:
            raise ValueError("'with' only applies to probe steps")
        return self

    @property
    def action(self) -> str:
        return "run" if self.run is not None else "probe" if self.probe is not None else "fetch"


class Playbook(_Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    description: str = ""
    vars: dict[str, VarValue] = Field(default_factory=dict)
    steps: list[Step] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> "Playbook":
        seen: set[str] = set()
        for step in self.steps:
            if step.id in seen:
                raise ValueError(f"duplicate step id {step.id!r}")
            seen.add(step.id)
        return self

    def step(self, step_id: str) -> Step:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(step_id)


def playbook_json_schema() -> dict[str, Any]:
    """The JSON Schema editors use to autocomplete playbooks (yaml-language-server)."""
    schema = Playbook.model_json_schema(by_alias=True)
    # `finding: SD201` and `findings: [SD101]` name a catalog entry (FindingTemplate._code_alone,
    # docs/playbooks.md): the model's own schema has only the mapping, and editors marked the
    # documented short form as an error. Every place that takes a finding takes either.
    definitions = schema.get("$defs", {})
    if "FindingTemplate" in definitions:
        definitions["FindingTemplateFields"] = definitions.pop("FindingTemplate")
        definitions["FindingTemplate"] = {"anyOf": [
            {"$ref": "#/$defs/FindingTemplateFields"},
            {"type": "string", "pattern": f"^{_CODE.pattern}$", "description": "A catalog code alone, e.g. SD201"},
        ]}
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    schema["title"] = "spec-debug playbook"
    return schema
