"""Load and validate a playbook, with file, line and column in every error."""

from __future__ import annotations

import difflib
import errno
import hashlib
import json
import os
import math
import re
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import TemplateSyntaxError
from pydantic import BaseModel, ValidationError

from spec_debug.errors import PlaybookError
from spec_debug.playbook.actions_syntax import dollar_before_template, expression_of
from spec_debug.playbook.expression_habits import operator_hint, unquoted_word_hint
from spec_debug.playbook.pasted_characters import LATIN_LOOKALIKE, character_name, invisible_in_key, pasted_character, typographic_quote
from spec_debug.playbook.shell_quotes import unclosed_quote
from spec_debug.playbook.fact_order import MAPPING_METHODS, fact_misspelt, fact_read_too_early, fetch_fact_read, first_captures, step_fact_never_set
from spec_debug.playbook.go_templates import GO_TEMPLATE, go_call, raw_wrapped
from spec_debug.playbook.literal_texts import EXPECTATION_TEXTS, expectation_as_expression, first_expression, names_filled_in
from spec_debug.playbook.habits import ANCHOR_HINT, habit_hint, include_hint, model_word, number_forms, pattern_hint
from spec_debug.playbook.models import Capture, Expectation, FetchSpec, FindingTemplate, Playbook, Step
from spec_debug.playbook.status_words import STATUSES, Comparison, comparisons, fact_compared_with_number_text, number_compared_with_text, number_facts, number_hint, unknown_status_word
from spec_debug.playbook.version_text import version_hint, version_ordered_as_text
from spec_debug.playbook.number_text import check_numbers_as_text, check_text_numbers, literal_past_float_range, number_meant
from spec_debug.playbook.run_folder_input import record_error, run_folder_error
from spec_debug.playbook.templating import (
    ATTEMPT_NAMES, CONTEXT_NAMES, JINJA_OWN_NAMES, STEP_RESULT_FIELDS, VAR_CONTEXT_NAMES, attributes_of, names_used, parse_template, step_result_attributes, template_texts, undefined_names, var_cycle,
    step_result_reads, var_references,
)
from spec_debug.playbook.unclosed_template import UnclosedExpression, unclosed_expression
from spec_debug.playbook.yaml_nodes import PositionedDocument, dotted_path, load_positioned
from spec_debug.store import packed_file

# Known field names per nested model, for "did you mean" hints on unknown keys.
_MODEL_AT_DEPTH: dict[str, type[BaseModel]] = {
    "": Playbook,
    "steps": Step,
    "capture": Capture,
    "expect": Expectation,
    "findings": FindingTemplate,
    "finding": FindingTemplate,
    "fetch": FetchSpec,
}


# Far above any written playbook (the shipped ones are under 10 KiB) and above a generated one
# of 10,000 steps (yaml_nodes.MAX_STEPS, ~1.2 MB); stops a mistyped path to a checkpoint or a
# log from being read whole. PyYAML's pure-Python reader: a 1 MB one-step playbook takes 2 s of
# CPU (16 MiB was the bound: a 5 MB one was read for ~10 s, 52 s on a busy machine), and 150,000
# two-line steps (5.3 MB) took 54 s of CPU to be refused at step 40,000 (MAX_VALUES).
MAX_PLAYBOOK_BYTES = 2 * 2**20


@dataclass(frozen=True)
class LoadedPlaybook:
    playbook: Playbook
    path: str
    sha256: str
    # The text as read: a playbook from a pipe (`distill -o - | spec-debug explain -`) cannot be
    # read a second time for what only its text holds (the comments beside its vars).
    text: str = field(default="", repr=False, compare=False)


def shipped_playbooks_dir() -> Path:
    return Path(str(resources.files("spec_debug") / "playbooks"))


def shipped_playbook_names() -> list[str]:
    return sorted(p.stem for p in shipped_playbooks_dir().glob("*.yaml"))


def find_playbook(name_or_path: str) -> Path:
    """A path, or the name of a shipped playbook (with or without .yaml), from any directory."""
    try:
        return _find_playbook(name_or_path)
    except (OSError, ValueError) as exc:  # a name too long for the file system, a NUL byte
        shown = name_or_path if len(name_or_path) <= 120 else name_or_path[:117] + "..."
        raise PlaybookError(f"not a usable playbook path: {getattr(exc, 'strerror', None) or exc}", path=shown) from None


def _find_playbook(name_or_path: str) -> Path:
    stdin = name_or_path == "-" and not Path("-").exists()
    if (stdin or name_or_path in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")) and not _stdin_open():
        # `explain - <&-`, a cron line: "/dev/stdin: cannot read playbook: No such file", or
        # "a symbolic link to /proc/self/fd/0, which does not exist" and `ln -sfn ... /dev/stdin`
        raise PlaybookError("no playbook on standard input (it is closed)", path=name_or_path,
                            hint="pipe the playbook in (cat check.yaml | spec-debug ... -), or pass its path")
    if stdin:
        return Path("/dev/stdin")  # the usual spelling of "read it from the pipe"
    if not name_or_path.strip() and not (name_or_path and Path(name_or_path).exists()):
        # `spec-debug run "$PLAYBOOK" --host gpu01` with PLAYBOOK unset: Path("") is ".", and the
        # error said "<playbook>: is a directory" and listed the current folder's YAML files.
        raise PlaybookError(
            "the playbook argument is empty (an unset shell variable?)", path="",
            hint=f"pass a playbook file or a shipped playbook: {', '.join(shipped_playbook_names()) or 'none'}",
        )
    candidate = Path(name_or_path).expanduser()
    record = run_folder_error(candidate, name_or_path, shipped_playbooks_dir())
    if record is not None:
        raise record
    if candidate.is_file():
        return candidate
    if candidate.exists() and not candidate.is_dir():
        # A pipe: `curl -s URL | spec-debug run /dev/stdin`, `validate <(kubectl exec ... cat p.yaml)`.
        return candidate
    shipped = shipped_playbooks_dir()
    stem = candidate.name[:-5] if candidate.name.endswith((".yaml", ".yml")) else candidate.name
    for suffix in (".yaml", ".yml"):
        if candidate.parent == Path(".") and (shipped / f"{stem}{suffix}").is_file():
            return shipped / f"{stem}{suffix}"
    if candidate.is_dir():
        yamls = sorted(p.name for p in candidate.glob("*.y*ml"))
        raise PlaybookError(
            "is a directory, not a playbook file", path=name_or_path,
            hint=f"playbooks in it: {', '.join(yamls[:8])}" if yamls else "pass a .yaml playbook file",
        )
    if candidate.is_symlink():
        raise _broken_link(candidate, name_or_path)
    names = shipped_playbook_names()
    # Lower-cased: difflib compares characters, so PERF_REGRESSION (caps lock, a shouting
    # runbook) matched nothing and got the bare list.
    close = difflib.get_close_matches(stem.lower(), names, n=1) or _named_by_start(stem, names)
    hint = f"did you mean {close[0]!r}?" if close else f"shipped playbooks: {', '.join(names) or 'none'}"
    code = _pasted_finding_code(stem)
    part_of = _shipped_part(code or stem) if candidate.parent == Path(".") else None
    if code is not None:
        hint = _finding_code_hint(code, hint, part_of)
    elif part_of is not None:
        hint = part_of
    elif (partial := _partial_code_hint(stem)) is not None:
        hint = partial
    elif candidate.parent == Path(".") and (mistyped := _mistyped_code(stem)) is not None:
        hint = f"did you mean the finding code {mistyped}? `spec-debug explain {mistyped}` explains it"
    elif candidate.parent == Path(".") and not close and (near_part := _near_shipped_part(stem)) is not None:
        hint = f"did you mean {near_part!r}? {_shipped_part(near_part)}"
    beside = [candidate.with_name(candidate.name + suffix) for suffix in (".yaml", ".yml")]
    written = next((path for path in beside if path.is_file() and candidate.name == stem), None)
    if written is not None:
        # `run SD101` with ./SD101.yaml there: the playbook file is named with its suffix (the
        # code hint alone sent its author to the finding catalog).
        hint = f"did you mean {str(written)!r}? a playbook file is named with its suffix"
    elif code is None and (near_file := _near_file(candidate)) is not None:
        hint = f"did you mean {str(near_file)!r}? (a playbook file in that folder)"
    raise PlaybookError(f"no playbook file {name_or_path!r} and no shipped playbook by that name", path=name_or_path, hint=hint)


def _stdin_open() -> bool:
    try:
        os.fstat(0)
    except OSError:
        return False
    return True


def _broken_link(link: Path, given: str) -> PlaybookError:
    """A link whose target is gone (`ln -s ~/incidents/perf.yaml current.yaml`, then the folder
    moved) or that leads back to itself: `ls` shows it, and "no playbook file" sent its author
    looking at a file that is plainly there."""
    relink = f"ln -sfn PATH/TO/playbook.yaml {shlex.quote(str(link))}"
    try:
        target = os.readlink(link)
    except OSError as exc:  # gone or replaced since is_symlink()
        return PlaybookError(f"cannot read the symbolic link: {exc.strerror}", path=given)
    try:
        os.stat(link)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return PlaybookError("is a symbolic link that leads back to itself (a loop of links)", path=given,
                                 hint=f"point it at the playbook file: {relink}")
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return PlaybookError(f"is a symbolic link to {target}, which does not exist", path=given,
                                 hint=f"the playbook was moved or deleted: pass its path, or point the link at it: {relink}")
        return PlaybookError(f"cannot follow the symbolic link: {exc.strerror}", path=given)
    return PlaybookError("cannot read the playbook this symbolic link points to", path=given)


_FINDING_CODE = re.compile(r"^SD-?\d{3}$", re.IGNORECASE)


def _pasted_finding_code(stem: str) -> str | None:
    """The finding code a playbook argument is, as `findings` reads one (`sd 901`, `[SD901]`
    pasted from a report): only `SD901` and `sd-901` got the finding-code hint, `explain 'sd
    901'` the bare list of playbooks."""
    from spec_debug.diagnose.findings_cli import normalize_code

    code = normalize_code(stem).upper()
    return code if _FINDING_CODE.match(code) and "SD" in stem.upper() else None


def _shipped_part(name: str) -> str | None:
    """`explain hidden_layout`, `explain drafter_eval`, `explain SD901`: a step, a probe or a
    playbook-defined finding code that the demo's and a run's output print, given where a
    playbook goes. The hint was "did you mean 'drafter_accuracy'?" or the list of playbooks,
    never the playbook that has it."""
    owners: dict[str, list[str]] = {}
    for playbook, step, codes in _shipped_steps():
        for what, value in (("step", step.get("id")), ("probe", step.get("probe"))):
            if value == name.lower():
                owners.setdefault(what, []).append(playbook)
        if name.upper().replace("-", "") in codes:
            owners.setdefault("finding code", []).append(playbook)
    if not owners:
        return None
    what, playbooks = next(iter(owners.items()))
    playbooks = list(dict.fromkeys(playbooks))
    shown = name.upper().replace("-", "") if what == "finding code" else name
    # a step is explained alone (`explain hidden_layout`, cli_extra._shipped_step_owner)
    explained = name.lower() if what == "step" else playbooks[0]
    return (f"{shown} is a {what} of the shipped playbook{'s' if len(playbooks) > 1 else ''} {', '.join(playbooks)}: "
            f"`spec-debug explain {explained}` says what it checks and why")


def _mistyped_code(stem: str) -> str | None:
    """The catalog code a word is with one slip: `explain SD2O1` (the letter O for a zero),
    `SD2011`, `SO201`, `5D201`. `findings` suggested SD201 for these (catalog._unknown_code_hint);
    as a playbook argument the hint was the list of shipped playbooks. Only a short word with
    digits in it is read as a code, so a host name or a playbook name is never one."""
    from spec_debug.diagnose.catalog import CATALOG

    key = re.sub(r"[\s_-]", "", stem.upper())
    if not 4 <= len(key) <= 7 or not key.isalnum() or sum(ch.isdigit() for ch in key) < 2:
        return None
    close = difflib.get_close_matches(key, list(CATALOG), n=1, cutoff=0.8)
    return close[0] if close else None


def _near_shipped_part(stem: str) -> str | None:
    """The step or probe of a shipped playbook a word is with a slip: `explain hidden-layout`
    (a dash, as in a command-line flag), `explain drafter_evl`. The exact names get their
    hint from _shipped_part; these got the list of playbooks, or a concept's name."""
    names: list[str] = []
    for _, step, _ in _shipped_steps():
        names += [str(value) for value in (step.get("id"), step.get("probe")) if value]
    key = re.sub(r"[\s-]+", "_", stem.strip().lower())
    close = difflib.get_close_matches(key, list(dict.fromkeys(names)), n=1, cutoff=0.8)
    return close[0] if close else None


def _named_by_start(stem: str, names: list[str]) -> list[str]:
    """`explain perf`, `run drafter`: the one shipped playbook whose name starts so. difflib
    finds none for a word this much shorter than the name (its ratio is under 0.6), and the
    hint was the bare list of playbooks."""
    starting = [name for name in names if len(stem) >= 3 and name.startswith(stem.lower())]
    return starting if len(starting) == 1 else []


def _shipped_steps() -> Iterator[tuple[str, dict, set[str]]]:
    """(playbook, step, the finding codes the step's own findings use) of each shipped step."""
    import yaml

    for playbook in shipped_playbook_names():
        try:
            data = yaml.safe_load((shipped_playbooks_dir() / f"{playbook}.yaml").read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        for step in (data or {}).get("steps") or []:
            if not isinstance(step, dict):
                continue
            templates = [e.get("finding") for e in step.get("expect") or [] if isinstance(e, dict)]
            templates += list(step.get("findings") or [])
            yield playbook, step, {str(t.get("code", "")).upper() for t in templates if isinstance(t, dict)}


def _partial_code_hint(stem: str) -> str | None:
    """`explain SD1`, `explain sd10`: the start of a finding code, remembered in part. The hint
    was the list of shipped playbooks, which named no code; now the codes it starts. `explain
    SD9` starts no catalog code but host_smoke's own SD901: that playbook is named."""
    from spec_debug.diagnose.catalog import near_codes, partial_code

    prefix = partial_code(stem)
    near = near_codes(prefix) if prefix is not None else []
    if not near and prefix is not None:
        owned: dict[str, str] = {}  # code -> the first shipped playbook that uses it
        for owner, _, codes in _shipped_steps():
            for code in sorted(codes):
                if code.startswith(prefix):
                    owned.setdefault(code, owner)
        if owned:
            playbook = next(iter(owned.values()))
            return (f"{stem.strip()} is the start of a finding code (SD and three digits): {', '.join(owned)}, "
                    f"of the shipped playbook {playbook}: `spec-debug explain {playbook}` says what it checks and why")
    if not near:
        return None
    return (f"{stem.strip()} is the start of a finding code (SD and three digits): {', '.join(near)}; "
            f"`spec-debug explain {near[0]}` explains one, `spec-debug findings` lists them all")


def _finding_code_hint(code: str, hint: str, part_of: str | None = None) -> str:
    """`run SD101`, `explain SD901`: a finding code where a playbook goes. `part_of`: the
    shipped playbook that defines it (_shipped_part)."""
    from spec_debug.diagnose.catalog import CATALOG

    if code in CATALOG:
        return f"{code} is a finding code: `spec-debug findings {code}` explains it; {hint}"
    if part_of is not None:
        return f"{code} is not in the finding catalog: {part_of}"
    # SD901 and the like are a playbook's own (host_smoke's free disk): its walkthrough has them.
    return (f"{code} is not in the finding catalog (`spec-debug findings` lists it); a code a playbook "
            f"defines is in that playbook's walkthrough (`spec-debug explain PLAYBOOK`); {hint}")


def _near_file(candidate: Path) -> Path | None:
    """`validate playbooks/kimi_regresion.yaml`, `run check.yml` for check.yaml: a playbook file
    with a typo in its name. The hint listed the shipped playbooks (or the nearest of them), never
    the file the user meant, which lies in the folder they named. Only YAML files of that one
    folder are listed: a folder of thousands is cut to its first 2000 names."""
    if not candidate.name.endswith((".yaml", ".yml")) and candidate.parent == Path("."):
        return None  # a bare word is a shipped playbook's name, as the hint already says
    folder = candidate.parent
    try:
        if not folder.is_dir():
            return None
        names = [p.name for _, p in zip(range(2000), folder.iterdir()) if p.name.endswith((".yaml", ".yml"))]
    except OSError:
        return None
    close = difflib.get_close_matches(candidate.name, names, n=1, cutoff=0.75)
    return folder / close[0] if close else None


def load_playbook(name_or_path: str | Path) -> LoadedPlaybook:
    path = find_playbook(str(name_or_path))
    try:
        size = path.stat().st_size
        if size > MAX_PLAYBOOK_BYTES:
            raise _too_big(path, size)
        # Read with a bound: a pipe's size is 0 until read, and /dev/zero never ends.
        with open(path, "rb") as handle:
            raw = handle.read(MAX_PLAYBOOK_BYTES + 1)
        if len(raw) > MAX_PLAYBOOK_BYTES:
            raise _too_big(path, len(raw))
    except OSError as exc:
        raise PlaybookError(f"cannot read playbook: {exc.strerror}", path=str(path)) from None
    record = record_error(raw[:4096], path, str(path), shipped_playbooks_dir())  # a run.json copied under another name
    if record is not None:
        raise record
    packed = packed_file(path, raw, "the playbook file in it")
    if packed is not None:
        # `run perf_regression.yaml.gz` as attached to a ticket: "not UTF-8 text" at 1:2 with a
        # hint to convert the file from latin1, which gives a file of garbage.
        raise PlaybookError(f"the playbook is {packed[0]}", path=str(path), hint=packed[1])
    encoding = text_encoding(raw)
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        if encoding != "utf-8":
            raise PlaybookError(f"playbook starts with a {encoding.upper()} byte order mark but is not {encoding.upper()} text",
                                path=str(path), hint="save the file as UTF-8") from None
        line, column = byte_position(raw, exc.start)
        raise PlaybookError(
            f"playbook is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
            path=str(path), line=line, column=column,
            hint=utf8_hint(raw, exc.start),
        ) from None
    playbook = load_playbook_text(text, str(path))
    return LoadedPlaybook(playbook=playbook, path=str(path), sha256=hashlib.sha256(raw).hexdigest(), text=text)


def utf8_hint(raw: bytes, start: int) -> str:
    """How to convert a file that is not UTF-8. Windows' "ANSI" text (Notepad, Word, Excel's CSV)
    is Windows-1252, whose bytes 0x80 to 0x9F are letters and punctuation (0x93 and 0x94 are the
    curly quotes “ ”); latin1 reads those as C1 control characters, so `iconv -f latin1` gave a
    file that YAML refuses again ("character U+0093 is not allowed"). ISO 8859-1 text has none
    of them: for it the two agree."""
    undecodable = raw.decode("utf-8", "surrogateescape")
    if any("\udc80" <= c <= "\udc9f" for c in undecodable):
        try:
            raw.decode("cp1252")
        except UnicodeDecodeError:  # 0x81, 0x8d, 0x8f, 0x90, 0x9d: no Windows-1252 either
            return "save the file as UTF-8"
        shown = bytes([raw[start]]).decode("cp1252")
        return (f"save the file as UTF-8 (e.g. iconv -f windows-1252 -t utf-8): byte 0x{raw[start]:02x} is "
                f"{shown} in Windows-1252, the encoding of Windows' ANSI text")
    return "save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)"


def text_encoding(raw: bytes) -> str:
    """UTF-8, or UTF-16/32 when the file starts with their byte order mark or with the NULs of
    their ASCII first character: YAML streams may be any of them (YAML 1.2 spec, 5.2 Character
    Encodings; PyYAML's reader honours the marks too), and Windows PowerShell 5's `>` and
    Out-File write UTF-16LE with a mark by default."""
    if raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "utf-32"
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    # No mark: YAML tells UTF-16/32 by the NUL bytes around the first character, which is ASCII
    # in any playbook (YAML 1.2.2, 5.2: `x 00` is UTF-16LE, ...). `Get-Content p.yaml | Set-Content
    # -Encoding Unicode` and iconv -t UTF-16LE write no mark; PyYAML knows only the marks, and
    # the load said "character U+0000 is not allowed" at 1:2, hint "remove it". Taken only when
    # the whole file is text in that encoding: a binary file keeps its "not UTF-8" error.
    nuls = tuple(byte == 0 for byte in raw[:4])
    codec = next((codec for codec, pattern in _UNMARKED if nuls[:len(pattern)] == pattern), None)
    if codec is not None:
        try:
            if "\0" not in raw.decode(codec):
                return codec
        except UnicodeDecodeError:
            pass
    return "utf-8"


# (codec, whether each of the first bytes is NUL), the longer patterns first (YAML 1.2.2, 5.2).
_UNMARKED = (
    ("utf-32-be", (True, True, True, False)),
    ("utf-32-le", (False, True, True, True)),
    ("utf-16-be", (True, False)),
    ("utf-16-le", (False, True)),
)


def _too_big(path: Path, size: int) -> PlaybookError:
    # One decimal: a 2.5 MiB file read as "a 2 MiB file ... (the limit is 2 MiB)"; in bytes
    # where that still reads as the limit (2,097,188 bytes is "2.0 MiB")
    limit = f"{MAX_PLAYBOOK_BYTES // 2**20} MiB"
    if not path.is_file():
        shown = f"stream of over {limit}"
    elif round(size / 2**20, 1) * 2**20 > MAX_PLAYBOOK_BYTES:
        shown = f"{size / 2**20:.1f} MiB file"
    else:
        shown, limit = f"{size:,}-byte file", f"{limit}, {MAX_PLAYBOOK_BYTES:,} bytes"
    return PlaybookError(f"a {shown} is not a playbook (the limit is {limit})",
                         path=str(path), line=1, column=1,
                         hint="keep data out of the playbook: a step reads a file on the host (run: cat PATH) or "
                              "fetches it (fetch:); a long list of steps is several playbooks")


def byte_position(raw: bytes, offset: int) -> tuple[int, int]:
    """1-based (line, column in characters) of a byte offset in almost-UTF-8 bytes."""
    line_start = raw.rfind(b"\n", 0, offset) + 1
    column = len(raw[line_start:offset].decode("utf-8", errors="replace")) + 1
    return raw.count(b"\n", 0, offset) + 1, column


def load_playbook_text(text: str, source: str = "<playbook>") -> Playbook:
    document = load_positioned(text, source)
    if not isinstance(document.value, dict):
        play = document.value[0] if isinstance(document.value, list) and document.value else None
        hint = None
        if isinstance(play, dict) and "import_playbook" in play:
            hint = include_hint(play["import_playbook"])
        elif isinstance(play, dict) and ("tasks" in play or "hosts" in play):
            # `- hosts: gpus\n  tasks: [...]`: an Ansible playbook is a list of plays.
            hint = ("this is an Ansible play list; a spec-debug playbook is one mapping: name: ..., steps: "
                    "(the tasks, each with an id: and a run:); hosts are given with --host or --inventory")
        raise PlaybookError("a playbook is a mapping with name, steps and optional vars", path=source, line=1, column=1,
                            hint=hint)
    try:
        playbook = Playbook.model_validate(document.value)
    except ValidationError as exc:
        raise _explain_validation_error(exc, document, source) from None
    _check_templates(playbook, document, source)
    return playbook


def _explain_validation_error(exc: ValidationError, document: PositionedDocument, source: str) -> PlaybookError:
    # Report the first error precisely; mention how many more there are.
    errors = exc.errors(include_url=False)
    # An unknown key usually explains a missing one (Ansible's `tasks:` for steps:, `- name:`
    # for a step's title and id): name the key the author wrote, not the one pydantic missed.
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = tuple(first["loc"])
    # pydantic reports union members and validator names in loc; keep only real keys/indexes.
    path = _real_path(loc, document.value)
    error_type = first["type"]
    hint = None
    if error_type == "extra_forbidden":
        key = path[-1] if path else "?"
        line_col = document.position(path + ("<key>",)) or document.position(path)
        allowed = _allowed_fields(path[:-1])
        close = difflib.get_close_matches(str(key), allowed, n=1)
        message = f"unknown key {key!r}"
        hint = habit_hint(str(key), path, _value_at(document.value, path[:-1])) or (
            f"did you mean {close[0]!r}?" if close else f"allowed keys: {', '.join(allowed)}")
        pasted = invisible_in_key(str(key))
        if pasted is not None:
            message, hint = pasted
        hint = _lookalike_hint(str(key), allowed) or hint
        if len(path) == 1 and line_col and _holds_anchor(document, line_col[0]) and hint == f"allowed keys: {', '.join(allowed)}":
            # `defaults: &d` at the top, merged into steps with `<<: *d`: the key is only there
            # for the anchor (as compose's x- keys are), which the allowed-keys list does not say.
            hint = ANCHOR_HINT
    elif error_type == "missing":
        line_col = document.position(path[:-1])
        message = f"missing required key {path[-1]!r}"
    else:
        line_col = document.position(path)
        value = _value_at(document.value, path)
        message = first["msg"].removeprefix("Value error, ")
        if error_type == "model_type":
            # "a valid dictionary or instance of Step": pydantic's words, not the author's.
            message = f"Input should be a mapping of keys ({model_word(path)})"
        if error_type == "string_pattern_mismatch":
            hint = pattern_hint(path, value)
        if error_type == "greater_than" and path and path[-1] == "timeout" and value == 0:
            # curl --max-time 0 and many tools read 0 as "no limit"; here that is leaving it out.
            hint = "for no time limit, leave timeout: out of the step"
        if error_type.endswith("_type"):
            message = f"{message} (got {type(value).__name__} {_short_repr(value)})"
            if isinstance(value, bool) and error_type == "string_type":
                hint = "YAML read this as a boolean; quote it if you meant text"
            else:
                # `steps: true` wants a list, not text: quoting it would fail the same way.
                hint = _shape_hint(error_type, path, value)
    if message.startswith("a step needs exactly one action") and "(got" not in message:
        step = _value_at(document.value, path)
        empty = [k for k in ("run", "probe", "fetch") if isinstance(step, dict) and k in step and step[k] is None]
        if empty:
            # `run:` with the command forgotten (or indented under the next key) reads as no run at all.
            line_col = document.position(path + (empty[0], "<key>")) or line_col
            message, hint = f"{empty[0]}: is empty", f"give it the {'command' if empty[0] == 'run' else 'value'} on the same line, or indented below it"
        elif hint is None:
            # A step with only id/title/why (a half-written step, or its run: lost to an indent).
            hint = "give the step one of: run: COMMAND, probe: NAME or fetch: PATH"
    duplicate = _duplicate_step_position(document) if message.startswith("duplicate step id") else None
    if duplicate is not None:
        path, line_col, hint = duplicate
    else:
        copied = document.alias_over(path)
        if copied is not None and line_col is not None:
            # `- *s1` reused where the anchored value does not fit: the copy is what to look at,
            # the original's line says where its text is.
            alias_line, alias_column, anchor = copied[1]
            message += f" (in the alias *{anchor} on line {alias_line}; the value it copies is on line {line_col[0]})"
            line_col = (alias_line, alias_column)
    if hint is None:
        hint = _fallback_hint(first, path, _value_at(document.value, path) if error_type != "missing" else None)
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    line, column = line_col if line_col else (None, None)
    return PlaybookError(message, path=source, line=line, column=column, key_path=dotted_path(path) or None, hint=hint)


def _fallback_hint(error: Any, path: tuple[Any, ...], value: Any) -> str | None:
    """What to write, for the pydantic errors no habit above explains (`retries: -1`,
    `on_failure: explode`, `fetch: /x`, `steps: []`, a missing name:): every playbook error
    gives a fix, not only where (the brief of every `playbooks validate` message)."""
    error_type, ctx = error["type"], error.get("ctx") or {}
    field = path[-1] if path and isinstance(path[-1], str) else None
    if error_type == "missing" and field:
        example = {"name": "my_playbook", "steps": "(a list: - id: ... and run: ...)"}.get(field, "...")
        where = "at the top of the file" if len(path) == 1 else f"under {dotted_path(path[:-1])}"
        return f"add {field}: {example} {where}"
    if error_type in ("greater_than", "greater_than_equal", "less_than", "less_than_equal") and field:
        limit = next(iter(ctx.values()), None)
        words = {"greater_than": "above", "greater_than_equal": "at least", "less_than": "below",
                 "less_than_equal": "at most"}[error_type]
        if not isinstance(limit, (int, float)):
            return None
        # 9223372036, not 9.22337e+09: a bound to write back into the playbook.
        shown = f"{int(limit)}" if float(limit).is_integer() else f"{limit:g}"
        # An example at the lower bound reads as a value to write (retries: 0); at the upper
        # one (retry_delay: 9223372036, 292 years) it does not.
        return f"{field} is a number {words} {shown}" + (f" (e.g. {field}: {shown})" if error_type == "greater_than_equal" else "")
    if error_type == "literal_error" and field and isinstance(value, str):
        options = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        close = difflib.get_close_matches(value, options, n=1)
        meant = _ON_FAILURE_WORDS.get(value.strip().lower()) if field == "on_failure" else None
        if meant is not None and not close:
            # `on_failure: abort` (a CI runner's word), `ignore` (Ansible's ignore_errors): the
            # same meaning, another word; "continue (or stop)" left the author to guess which.
            return f"write on_failure: {meant} ({'the rest of the steps on this host are skipped' if meant == 'stop' else 'the next steps run'})"
        if close:
            return f"write {field}: {close[0]}"
        return f"write {field}: {options[0]} (or {', '.join(options[1:])})" if options else None
    message = str(error.get("msg", "")).removeprefix("Value error, ")
    unobservable = re.match(r"exit code (-?\d+) is never observed", message)
    if unobservable:
        return _exit_code_hint(int(unobservable.group(1)))
    if message.startswith("'with' only applies to probe steps"):
        return "a run: step takes values in its command ({{ var }}): remove with:, or make the step a probe: NAME"
    if message.startswith("a regex capture needs named groups"):
        return "name the part to keep, (?P<fact>...), or add name: FACT to keep the first group (the whole match if none)"
    if message.startswith("invalid regex: ") and "position" in message:
        return "the regex is Python's re syntax (named groups are (?P<name>...)): fix it at that position of the pattern"
    if error_type in ("int_type", "float_type", "finite_number") and field and not isinstance(value, str):
        # `timeout: true` (a timeout wanted, its length left out) and `timeout: .inf` (no limit,
        # as YAML spells infinity) were refused naming no form the field takes.
        if error_type == "int_type" and isinstance(value, float) and math.isfinite(value):
            # `retries: 2.0`, `retries: 1.5`: a number, but no whole one (the hint said "YAML read
            # retries: as not-a-number", which is YAML's .nan).
            whole = [n for n in ([int(value)] if value.is_integer() else [math.floor(value), math.ceil(value)]) if n >= 0] or [0]
            return f"{field} is a whole number: write " + " or ".join(f"{field}: {n}" for n in whole)
        read = "a boolean" if isinstance(value, bool) else "infinity" if value in (float("inf"), float("-inf")) else "not-a-number"
        return f"YAML read {field}: as {read}; {number_forms(field)}"
    if error_type in ("int_type", "int_parsing", "float_type", "float_parsing") and field and isinstance(value, str) \
            and ("{{" in value or "{%" in value):
        # `retries: "{{ n }}"`, `timeout: "{{ timeout_s }}"`: Ansible templates these; here a
        # step's numbers are read when the playbook loads, before any var has a value.
        inner = re.fullmatch(r"\s*\{\{\s*(.+?)\s*\}\}\s*", value)
        compared = f", or compare it in an expectation: that: exit_code == {inner.group(1)}" if field == "exit_code" and inner else ""
        return (f"{field} is not a template: it is read when the playbook loads, before any var has a value: "
                f"write the number itself (e.g. {field}: {0 if field == 'exit_code' else 10}){compared}")
    if error_type in ("int_type", "int_parsing", "float_type", "float_parsing") and field and isinstance(value, str):
        return f"{field} is a number: write it in digits, without quotes (e.g. {field}: {0 if field == 'exit_code' else 10})"
    if error_type == "too_short" and field:
        return f"{field} needs at least one item" + (" (- id: ... with a run: below it)" if field == "steps" else "")
    if error_type == "list_type" and field and isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return f"{field} is a list, even of one: {field}: [{value}]"
    if error_type == "string_type" and field and isinstance(value, list):
        return f"{field} is one text, not a list: write it without [ ] (several lines: {field}: | and the text below)"
    if error_type == "model_type" and field == "fetch" and isinstance(value, str):
        return f"fetch is a mapping: write fetch: {{src: {value}}} (and dest: to name where it goes)"
    if error_type == "string_pattern_mismatch" and field == "code" and isinstance(value, str) \
            and re.fullmatch(r"[A-Z]{2,4}\d{3}", value.strip().upper()):
        return f"a finding code is upper case: code: {value.strip().upper()}"
    if error_type == "string_pattern_mismatch" and field == "code" and isinstance(value, str):
        # `SD-101`, `SD 101` (as a ticket writes it), `SD9999`, `GPU0001`: refused with the
        # pattern alone, a regex to decode.
        joined = re.sub(r"[\s_.-]+", "", value).upper()
        form = "a finding code is 2 to 4 capital letters and 3 digits (SD101; a playbook's own, e.g. GPU101)"
        return f"{form}: code: {joined}" if re.fullmatch(r"[A-Z]{2,4}\d{3}", joined) else form
    return None


def _holds_anchor(document: PositionedDocument, line: int) -> bool:
    """Whether the key on this line defines a YAML anchor (`defaults: &d`)."""
    lines = document.lines
    return 0 < line <= len(lines) and re.search(r":\s+&[^\s]+", lines[line - 1]) is not None


_ON_FAILURE_WORDS = {word: "stop" for word in ("abort", "halt", "fail", "exit", "end", "break", "fatal", "error", "quit")}
_ON_FAILURE_WORDS |= {word: "continue" for word in ("ignore", "skip", "proceed", "pass", "next", "warn", "keep_going")}


def _short_repr(value: Any, limit: int = 80) -> str:
    """The value as the author wrote it, cut: `steps:` written as a mapping of 5,000 steps would
    otherwise be echoed whole into a one-line error."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)\s*$")
_SECONDS_PER_UNIT = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
_GO_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(ms|h|m|s)")
_CLOCK = re.compile(r"\s*(\d+):([0-5]\d)(?::([0-5]\d))?\s*")
_GO_DURATION = re.compile(r"(?:\d+(?:\.\d+)?\s*(?:ms|h|m|s)\s*){2,}")


def _exit_code_hint(code: int) -> str:
    """What to write for an exit code no command reports (models.Expectation)."""
    if -64 <= code <= -1:
        # Python's subprocess gives a command killed by signal N returncode -N; a shell, ssh and
        # this runner say 128 + N.
        return f"a command killed by signal {-code} exits {128 - code} (Python's returncode says {code}): write exit_code: {128 - code}"
    if code > 255:
        return f"only the low 8 bits of a status reach the caller (exit {code} is seen as {code % 256}): write exit_code: {code % 256}"
    return "write a code from 0 to 255 (a command killed by signal N exits 128 + N)"


def _shape_hint(error_type: str, path: tuple[Any, ...], value: Any) -> str | None:
    """How to write what the author meant, for habits from other tools: a mapping where a list
    goes (Ansible's and GitHub Actions' lists start with '- '), "30s" for a number of seconds
    (docker-compose and Kubernetes durations), a list of commands under run:."""
    field = path[-1] if path else None
    if error_type == "list_type" and isinstance(value, dict):
        first = next(iter(value), "key")
        example = f"- {first}: ..." if field != "steps" else "- id: ..."
        if field in ("expect", "capture") and len(value) == 1:
            example = f"- {first}: {_short_repr(value[first], 30)}"
        return f"{field} is a list: start each item with '- ' (e.g. {example})"
    if error_type == "list_type" and isinstance(value, str) and field in ("requires", "references", "evidence"):
        # `requires: model` (one name, as Ansible's `tags: x` or a Makefile prerequisite is written).
        names = [n for n in re.split(r"[,\s]+", value) if n]
        if field == "requires" and names and all(n.isidentifier() for n in names) and len(value) <= 200:
            return f"{field} is a list of var names: {field}: [{', '.join(names)}]"  # `requires: model, tokenizer` too
        item = value if re.fullmatch(r"[^\s,\[\]{}#'\"]+", value) and len(value) <= 80 else _short_repr(value, 60)
        return f"{field} is a list, even of one: {field}: [{item}]"
    if error_type in ("float_type", "int_type") and isinstance(value, str):
        duration = _DURATION.match(value)
        if duration and field in ("timeout", "retry_delay"):
            unit = duration.group(2)[0] if duration.group(2) != "ms" else "ms"
            seconds = float(duration.group(1)) * _SECONDS_PER_UNIT[unit]
            return f"{field} is a number of seconds: write {field}: {seconds:g}"
        if _GO_DURATION.fullmatch(value.strip()) and field in ("timeout", "retry_delay"):
            # Go's and systemd's `1h30m`, `2m30s` (time.ParseDuration; systemd.time(7)).
            seconds = sum(float(n) * _SECONDS_PER_UNIT[u] for n, u in _GO_DURATION_PART.findall(value))
            return f"{field} is a number of seconds: write {field}: {seconds:g}"
        clock = _CLOCK.fullmatch(value) if field in ("timeout", "retry_delay") else None
        if clock:
            # `timeout: "10:00"` (quoted, as the sexagesimal refusal above asks for text): a clock
            # time. "write it in digits" did not say which number; two parts read either way.
            a, b, c = (int(part) if part else None for part in clock.groups())
            if c is not None:
                return f"{field} is a number of seconds: write {field}: {a * 3600 + b * 60 + c}"
            return (f"{field} is a number of seconds: write {field}: {a * 60 + b} ({value.strip()} as minutes:seconds) "
                    f"or {a * 3600 + b * 60} (as hours:minutes)")
        if re.fullmatch(r"\s*[-+]?\d+(\.\d*)?\s*", value):
            return "write the number without quotes"
        meant = number_meant(value)
        if meant is not None and (error_type == "float_type" or meant.lstrip("-+").isdigit()):
            # `timeout: 1e3`, `retries: 0o3`: numbers to YAML 1.2 and JSON, text to YAML 1.1.
            return f"YAML 1.1 reads {value.strip()} as text: write {field}: {meant}"
        return None
    if error_type == "string_type" and isinstance(value, list) and field in ("when", "until") and value \
            and all(isinstance(v, str) for v in value):
        # Ansible's `when:` list means all of them (docs.ansible.com, playbooks_conditionals,
        # "Conditions based on ... multiple conditions"): here it is one expression.
        joined = " and ".join(f"({v.strip()})" if len(value) > 1 else v.strip() for v in value)
        return f"{field} is one expression; for all of them: {field}: {_short_repr(joined, 120)}"
    if error_type == "string_type" and isinstance(value, list) and field == "that" and value \
            and all(isinstance(v, str) and v.strip() for v in value):
        # Ansible's `assert: that: [...]` (all must hold): "write it without [ ], several lines
        # under that: |" gave an expression of two lines, a syntax error. One expectation each
        # says which one failed.
        def written(text: str) -> str:
            text = text.strip()
            return text if text[0] not in "'\"[{!&*|>%@`" and ": " not in text and " #" not in text else _short_repr(text)

        each = ", then ".join(f"- that: {written(v)}" for v in value[:3]) + (", ..." if len(value) > 3 else "")
        joined = " and ".join(f"({v.strip()})" for v in value) if len(value) > 1 else value[0].strip()
        return (f"that is one expression: write one expectation per condition ({each}), "
                f"or all in one: that: {_short_repr(joined, 120)}")
    if error_type == "string_type" and isinstance(value, list) and field in ("contains", "not_contains", "matches") \
            and len(value) > 1 and all(isinstance(v, str) and v.strip() for v in value):
        # `contains: ["Uvicorn running", "ready"]` means each: a `contains: |` block of the two
        # (the old advice) looks for the two lines one after the other, and fails where both appear.
        each = ", then ".join(f"- {field}: {_yaml_single(v)}" for v in value[:3]) + (", ..." if len(value) > 3 else "")
        return f"{field} takes one text: write one expectation per text ({each})"
    if error_type == "string_type" and isinstance(value, list) and field == "run":
        return "run takes one command; for several, write a block: run: | (one command per line below it)"
    if error_type == "string_type" and isinstance(value, (int, float)) and not isinstance(value, bool):
        # `contains: 200` after curl -w '%{http_code}', `contains: 1.5` for a version: YAML
        # reads them as numbers, and the text the check looks for is a string.
        return f'YAML read this as a number; quote it if you meant the text: {field}: "{value}"'
    if error_type == "model_type" and isinstance(value, str) and value.strip() and len(path) == 2 and path[0] == "steps":
        # A bare command as a step, as GitHub Actions' `- run:` lists invite.
        return f"a step is a mapping: write '- id: step_{path[1] + 1}' and below it 'run: {_short_repr(value, 40)[1:-1]}'"
    if error_type == "model_type" and len(path) == 2 and path[0] == "steps" and value is not None:
        # `- 3`, `- true`, `- [a, b]`, `- ""`: a value where a step's keys go.
        return f"a step is a mapping of keys: write '- id: step_{path[1] + 1}' and below it 'run: <command>'"
    if error_type == "model_type" and value is None and len(path) == 2 and path[0] == "steps":
        # `-` alone on its line: an item left empty, or its keys indented under the next dash.
        return "this '-' has nothing after it: delete the line, or write the step on it ('- id: ...') with its keys below"
    if error_type == "list_type" and isinstance(value, str) and value.strip() and path == ("steps",):
        # `steps: nvidia-smi`: a command where the list of steps goes.
        return f"steps is a list of steps: below steps:, write '  - id: step_1' and under it '    run: {_short_repr(value, 40)[1:-1]}'"
    if error_type == "list_type" and path == ("steps",) and (isinstance(value, (int, float)) or
                                                           (isinstance(value, str) and not value.strip())):
        # `steps: 3` (a count, as a loop's `range:` or a training config's max_steps), `steps: true`,
        # `steps: ""`: the list of steps is what goes here.
        what = "not a count" if isinstance(value, (int, float)) and not isinstance(value, bool) else "not one value"
        return f"steps is the list of steps, {what}: below steps:, write '  - id: step_1' and under it '    run: <command>'"
    if error_type == "list_type" and isinstance(value, str) and field == "capture" and len(value) <= 200:
        # `capture: '(?P<n>\d+)'`: a capture is a mapping (regex or json), in a list.
        return f"capture is a list of {{regex: ...}} or {{json: ...}}: capture: [{{regex: {_yaml_single(value)}}}]"
    if error_type == "list_type" and isinstance(value, str) and field == "expect" and len(value) <= 200:
        # `expect: exit_code == 0`: an expression is one check, `that:`, in a list.
        return f"expect is a list of checks: expect: [{{that: {_yaml_single(value)}}}]"
    if error_type == "dict_type" and field == "vars" and isinstance(value, list) \
            and all(isinstance(v, dict) and len(v) == 1 for v in value) and value:
        # `vars: [- port: 1]`, as Ansible's vars_files or a GitHub Actions matrix include.
        first = next(iter(value[0]))
        return f"vars is a mapping, not a list: write '{first}: ...' under vars: without the '- '"
    if error_type == "dict_type" and isinstance(value, list) and value:
        # `vars:` / `with:` written as a list (`- model` or `- model: x`, Ansible's vars_prompt
        # and GitHub Actions' step lists invite it): a mapping has no '- ' before its keys.
        first = value[0]
        if isinstance(first, dict) and len(first) == 1:
            key, item = next(iter(first.items()))
            return f"{field} is a mapping: drop the '- ' before each key (e.g. {key}: {_short_repr(item, 30)})"
        if isinstance(first, str) and first.strip():
            return f"{field} is a mapping of names to values: write '{_short_repr(first.strip(), 30)[1:-1]}: VALUE', without '- '"
        return f"{field} is a mapping: write NAME: VALUE under it, one per line, without '- '"
    if error_type == "list_type" and value is None and field == "steps":
        return "steps: is empty: give it at least one step ('- id: ...' with a run: below it)"
    if error_type in ("list_type", "dict_type") and value is None and isinstance(field, str):
        # A key left with nothing under it (the entries deleted, or indented wrongly).
        return f"{field}: is empty: remove the key, or indent its entries below it"
    return None


def _yaml_single(text: str) -> str:
    """`text` as a YAML single-quoted scalar: backslashes kept, a ' doubled (YAML 1.2.2, 7.3.2)."""
    return "'" + text.replace("'", "''") + "'"


def _duplicate_step_position(document: PositionedDocument) -> tuple[tuple[Any, ...], tuple[int, int] | None, str] | None:
    """The playbook-level validator knows the id but not where: point at the second step, and
    say where the first is (a step copied to start the next one, its id left as it was)."""
    steps = document.value.get("steps") if isinstance(document.value, dict) else None
    seen: dict[str, int] = {}
    for index, step in enumerate(steps if isinstance(steps, list) else []):
        step_id = step.get("id") if isinstance(step, dict) else None
        if not isinstance(step_id, str):
            continue
        if step_id in seen:
            path = ("steps", index, "id")
            first = document.position(("steps", seen[step_id], "id"))
            taken = {s.get("id") for s in steps if isinstance(s, dict)}
            fresh = next(f"{step_id}_{n}" for n in range(2, len(steps) + 3) if f"{step_id}_{n}" not in taken)
            where = f"on line {first[0]}" if first else f"step {seen[step_id] + 1}"
            alias = document.aliases.get(("steps", index))
            if alias is not None:
                # `- *s1` to run a step again: the alias copies the anchored step, id and all, and
                # was reported at the original's id line (the copy's own line was never named).
                line, column, anchor = alias
                return ("steps", index), (line, column), (
                    f"the alias *{anchor} copies the step anchored &{anchor}, id {step_id!r} and all (the first step "
                    f"with that id is {where}); each id names one step (in run.json and in steps.ID): to run it "
                    f"again, merge it and give it its own id: - <<: *{anchor} then id: {fresh} below it")
            at, step_at = document.position(path), document.position(("steps", index))
            if at is not None and step_at is not None and at < step_at:
                # The id came with a merge key (`- <<: *first` copies the first step, id and all):
                # its position is the anchored step's; point at this step, which wrote none.
                return ("steps", index), step_at, (
                    f"this step takes id {step_id!r} from its merge key (<<), from the step {where}; each id names one "
                    f"step (in run.json and in steps.ID): give this one its own, e.g. id: {fresh}")
            return path, at, (f"the first step with id {step_id!r} is {where}; each id names one step "
                              f"(in run.json and in steps.ID): rename this one, e.g. id: {fresh}")
        seen[step_id] = index
    return None


def _real_path(loc: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
    path: list[Any] = []
    current = value
    for part in loc:
        if isinstance(current, dict) and part in current:
            path.append(part)
            current = current[part]
        elif isinstance(current, list) and isinstance(part, int) and part < len(current):
            path.append(part)
            current = current[part]
        elif isinstance(current, dict) and isinstance(part, str) and not part.startswith(("function-", "union", "list[", "dict[", "str", "int", "float", "bool", "none", "literal")):
            path.append(part)  # a missing or unknown key
            current = None
    return tuple(path)


def _value_at(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _lookalike_hint(key: str, allowed: list[str]) -> str | None:
    """A key spelt with a letter from another script that looks Latin (Cyrillic і in `іd`, а in
    `nаme`, from a keyboard layout or a pasted document): difflib finds no match for a two-letter
    key, and the one it finds for a longer key looks identical to what was written. Only letters
    drawn as Latin ones count: a key in Japanese or Russian (名前, тест) is no misspelt `id`."""
    name = key.translate(LATIN_LOOKALIKE)
    if name == key or name not in allowed:
        return None
    letter = next(a for a, b in zip(key, name) if a != b)
    return f"did you mean {name!r}? {key!r} is spelt with {character_name(letter)}, a look-alike of a Latin letter"


def _requires_hint(required: str, known: set[str]) -> str:
    """The fix for a `requires:` entry that names no declared var. "add 'draft_modle: \"\"'
    under vars:" was said for a misspelt var (a new var the step then required, always empty),
    and for `"{{ draft_model }}"` or `vars.draft_model` (the var named as a template reads it)
    it asked to declare a var named with braces."""
    written = required.strip()
    if written.startswith("{{") and written.endswith("}}"):
        written = written[2:-2].strip()
    named = written.removeprefix("vars.")
    if named.startswith("facts."):
        return f"requires names the playbook's vars; a step that needs a fact says so in when: {named} is defined"
    if named in known:
        return f"requires names vars as they are declared, not as a template reads them: requires: [{named}]"
    close = difflib.get_close_matches(named, sorted(known), n=1)
    if close:
        return f"did you mean {close[0]}? (requires: [{close[0]}]); a new var is declared under vars: ({named}: \"\")"
    return f"add '{required}: \"\"' under vars:"


def _allowed_fields(parent_path: tuple[Any, ...]) -> list[str]:
    named = [p for p in parent_path if isinstance(p, str)]
    model = _MODEL_AT_DEPTH.get(named[-1] if named else "", Playbook)
    return sorted(f.alias or name for name, f in model.model_fields.items())


def _check_templates(playbook: Playbook, document: PositionedDocument, source: str) -> None:
    """Undefined variables and template syntax errors are load-time errors (exit 2)."""
    known = set(playbook.vars)
    for name in sorted(known & CONTEXT_NAMES):
        # Templates see {**vars, "host": ..., "facts": ...}: the built-in silently wins, so a
        # var named host (a server address, say) would render as the inventory host name.
        line, column = document.position(("vars", name, "<key>")) or (None, None)
        raise PlaybookError(
            f"var {name!r} is hidden by the built-in template name {name!r}",
            path=source, line=line, column=column, key_path=f"vars.{name}",
            hint=f"rename it (e.g. server_{name}); built-in names: {', '.join(sorted(CONTEXT_NAMES))}",
        )
    for name in [n for n in playbook.vars if n in JINJA_OWN_NAMES]:  # the first as written
        # Jinja's parser reads true/false/none (and True/False/None) as its constants and passes
        # the template itself as `self` (jinja2/parser.py parse_primary; jinja2/runtime.py
        # Context): `{{ none }}` rendered None, `{{ self }}` "<TemplateReference None>", never the var.
        line, column = document.position(("vars", name, "<key>")) or (None, None)
        what = "the template itself" if name == "self" else f"Jinja's constant {name}"
        raise PlaybookError(
            f"var {name!r} is hidden by {what}: {{{{ {name} }}}} never renders this var",
            path=source, line=line, column=column, key_path=f"vars.{name}",
            hint=f"rename it (e.g. {name.lower()}_value); Jinja reads {', '.join(sorted(JINJA_OWN_NAMES))} as its own",
        )
    _check_var_templates(playbook, document, source)
    first_capture = first_captures(playbook)
    numeric_facts = number_facts(playbook.steps)
    step_ids = [s.id for s in playbook.steps]
    steps_by_id = {s.id: s for s in playbook.steps}
    for index, step in enumerate(playbook.steps):
        base = ("steps", index)
        earlier_ids = step_ids[:index]  # a slice of one list: rebuilt from the steps, 10,000 steps took 20 s
        if step.probe is not None:
            _check_probe_name(step.probe, base + ("probe",), document, source)
        if step.fetch is not None:
            _check_fetch_keys(step, base, document, source)
        elif step.retry_delay and not step.retries:
            _refuse_delay_without_retries(step, base, document, source)
        sites: list[tuple[tuple[Any, ...], str, bool]] = []
        if step.run is not None:
            sites.append((base + ("run",), step.run, False))
            _check_typographic_quotes(step.run, step.id, base + ("run",), document, source)
            _check_unclosed_quote(step.run, step.id, base + ("run",), document, source)
            _check_pasted_characters(step.run, step.id, base + ("run",), document, source)
        if step.when:
            sites.append((base + ("when",), step.when, True))
        if step.until:
            sites.append((base + ("until",), step.until, True))
        for key, value in step.with_.items():
            # A list or mapping value is rendered item by item too (templating.render_value): an
            # undefined name in one passed validation and failed the step on every host.
            sites += [(path, text, False) for path, text in _texts_in(value, base + ("with", key))]
        if step.fetch is not None:
            for i, src in enumerate(step.fetch.sources()):
                sites.append((base + ("fetch", "src") + ((i,) if isinstance(step.fetch.src, list) else ()), src, False))
            if step.fetch.dest:
                # Rendered for each host as src is (runner/engine.py, _fetch): `dest: "logs/{{ hots }}"`
                # passed validation and failed the step on every host.
                sites.append((base + ("fetch", "dest"), step.fetch.dest, False))
        for i, expectation in enumerate(step.expect):
            if expectation.that:
                sites.append((base + ("expect", i, "that"), expectation.that, True))
        for required in step.requires:
            if required not in known:
                line, column = document.position(base + ("requires",)) or (None, None)
                raise PlaybookError(
                    f"step {step.id!r} requires var {required!r}, which the playbook does not declare",
                    path=source, line=line, column=column, key_path=dotted_path(base + ("requires",)),
                    hint=_requires_hint(required, known),
                )
        for path, text, is_expression in sites:
            line, column = document.position(path) or (None, None)
            braces = is_expression and text.strip().startswith("{{")
            hint = (_braces_hint(path[-1], text) if braces else operator_hint(text) if is_expression else None)
            with _template_parse_errors(step.id, source, path, line, column, hint, text, document):
                missing = undefined_names(text, known, expression=is_expression)
            compared = comparisons(text, is_expression)
            _check_run_time_names(text, is_expression, compared, step.id, earlier_ids, path, source, line, column, step_ids)
            never_set = step_fact_never_set(steps_by_id, text, is_expression) if "facts" in text else None
            if never_set:
                # `steps.a.facts.y` for a fact step a never sets failed the step at run time (SD003,
                # "'dict object' has no attribute 'y'"), and the run PASSED with the check not made.
                raise _never_set_error(f"step {step.id!r}", never_set, source, line, column, path)
            _check_fact_number_text(compared, numeric_facts, step.id, path, source, line, column)
            _check_version_order(compared, step.id, path, source, line, column)
            _check_number_range(text, is_expression, step.id, path, source, line, column)
            if not is_expression:
                _check_actions_syntax(text, f"step {step.id!r}", path, document, source)
            too_early = fact_read_too_early(first_capture, index, path, text, is_expression)
            if too_early:
                name, at = too_early
                field = path[-1] if isinstance(path[-1], str) and path[-1] in ("run", "when", "until", "that") else path[2]
                if at == index:
                    # Its own capture: the hint was "move step 'c' above 'c'".
                    raise PlaybookError(
                        f"step {step.id!r} reads facts.{name} in {field}:, but {name} is this step's own capture, "
                        "set only after its command ran",
                        path=source, line=line, column=column, key_path=dotted_path(path),
                        hint="test it in this step's until: or expect: [{that: ...}], or capture it in an earlier step",
                    )
                raise PlaybookError(
                    f"step {step.id!r} reads facts.{name} in {field}:, but only a later step captures it "
                    f"({playbook.steps[at].id!r}, step {at + 1}): steps run in file order, so it is never set here",
                    path=source, line=line, column=column, key_path=dotted_path(path),
                    hint=f"move step {playbook.steps[at].id!r} above {step.id!r}, or test the fact in a step after it",
                )
            kept = fetch_fact_read(playbook, first_capture, index, text, is_expression,
                                   own_counts=path[-1] in ("until", "that"))
            if kept:
                # Before the typo check: `facts.fetched` is not misspelt, only read where it is not.
                name, fetch_step = kept
                field = path[-1] if isinstance(path[-1], str) and path[-1] in ("run", "when", "until", "that") else path[2]
                raise PlaybookError(
                    f"step {step.id!r} reads facts.{name} in {field}:, but a fetch step keeps {name} in its own record, "
                    "not among the host's facts: it is never set there",
                    path=source, line=line, column=column, key_path=dotted_path(path),
                    hint=f"write steps.{fetch_step}.facts.{name}",
                )
            misspelt = fact_misspelt(first_capture, index, path, text, is_expression)
            if misspelt:
                name, close = misspelt
                field = path[-1] if isinstance(path[-1], str) and path[-1] in ("run", "when", "until", "that") else path[2]
                raise PlaybookError(
                    f"step {step.id!r} reads facts.{name} in {field}:, but no step captures {name!r}, so it is never set",
                    path=source, line=line, column=column, key_path=dotted_path(path),
                    hint=f"did you mean facts.{close}? ({playbook.steps[first_capture.first[close]].id!r} captures it)",
                )
            if missing and not is_expression and go_call(text, missing[0]):
                # `{{json .Config}}` parses (as json's attribute Config): it is docker's, not ours.
                line, column = _template_error_position(text, None, (GO_TEMPLATE, ""), document, line, column) \
                    if line is not None else (line, column)
                raise PlaybookError(
                    f"step {step.id!r} passes a Go template to its command, which spec-debug would fill in as its own "
                    f"(and {missing[0]!r} is no var)",
                    path=source, line=line, column=column, key_path=dotted_path(path), hint=_go_template_hint(text),
                )
            if missing:
                # The names this field can read: `exit_cod`, `stdot`, `fact.x` are typos of
                # them, not text to quote (the hint said "quote it: 'exit_cod' == 0").
                readable = known | _field_context_names(path)
                line, column = _name_position(text, missing[0], document, line, column)
                raise PlaybookError(
                    f"undefined variable {missing[0]!r} in step {step.id!r}",
                    path=source, line=line, column=column, key_path=dotted_path(path),
                    # A word like a var is a typo of it; any other word compared with something is text.
                    hint=_result_word_hint(missing[0], path) or (
                        None if difflib.get_close_matches(missing[0], sorted(readable), n=1) or missing[0] in _ANSIBLE_NAMES
                        else unquoted_word_hint(text, missing, is_expression)) or _undefined_hint(missing[0], readable),
                )
        _check_literal_expectations(step, base, known, document, source)
        _check_literal_captures(step, base, known, document, source)
        for path, text in _finding_texts(step, base):
            # Facts are only known when the finding fires; syntax, names and a fact spelt like a
            # captured one are known now. Without this, a typo in a title shows up mid-incident
            # as "[template error: ...]" in the finding the on-call reads.
            line, column = document.position(path) or (None, None)
            with _template_parse_errors(step.id, source, path, line, column, None, text, document):
                parse_template(text)
                missing = undefined_names(text, known)
            where = f"{path[-2] if isinstance(path[-1], int) else path[-1]} of the finding"
            if missing and go_call(text, missing[0]):
                # "check it with docker inspect --format '{{json .State}}'" in a fix: docker's template.
                raise PlaybookError(
                    f"the {where} of step {step.id!r} quotes a Go template, which spec-debug would fill in as its own "
                    f"(and {missing[0]!r} is no var)",
                    path=source, line=line, column=column, key_path=dotted_path(path), hint=_go_template_hint(text),
                )
            if missing:
                close = difflib.get_close_matches(missing[0], sorted(known | CONTEXT_NAMES), n=1)
                line, column = _name_position(text, missing[0], document, line, column)
                raise PlaybookError(
                    f"undefined variable {missing[0]!r} in the {where} of step {step.id!r}",
                    path=source, line=line, column=column, key_path=dotted_path(path),
                    hint=f"did you mean {close[0]!r}?" if close else _undefined_hint(missing[0], known),
                )
            kept = fetch_fact_read(playbook, first_capture, index, text, False, own_counts=True)
            if kept:
                raise PlaybookError(
                    f"step {step.id!r} reads facts.{kept[0]} in the {where}, but a fetch step keeps {kept[0]} in its own "
                    "record, not among the host's facts: it is never set there",
                    path=source, line=line, column=column, key_path=dotted_path(path),
                    hint=f"write steps.{kept[1]}.facts.{kept[0]}",
                )
            never_set = step_fact_never_set(steps_by_id, text, False) if "facts" in text else None
            if never_set:
                # As in run:, that: and the rest (above): `title: "{{ steps.bench.facts.speeed }}"`
                # validated ok and the finding read "[template error: ... no attribute 'speeed']".
                line, column = _name_position(text, f"steps.{never_set[0]}.facts.{never_set[1]}", document, line, column)
                raise _never_set_error(f"the {where} of step {step.id!r}", never_set, source, line, column, path)
            misspelt = fact_misspelt(first_capture, index, path, text, False, in_finding=True)
            if misspelt:
                name, close_fact = misspelt
                raise PlaybookError(
                    f"step {step.id!r} reads facts.{name} in the {where}, but no step captures {name!r}, so it is never set",
                    path=source, line=line, column=column, key_path=dotted_path(path),
                    hint=f"did you mean facts.{close_fact}? ({playbook.steps[first_capture.first[close_fact]].id!r} captures it)",
                )
    for index, step in enumerate(playbook.steps):  # after the templates: an undefined name in a with: value first
        if step.probe is not None:
            _check_probe_args(step, ("steps", index), document, source)
    check_numbers_as_text(playbook, document, source)
    check_text_numbers(playbook, document, source, numeric_facts)


# What a fetch step leaves out (runner/engine.py, _fetch): it copies files and runs no command,
# so it has no output to check or capture and no attempt to repeat; these keys were accepted and
# never used, and `expect:` on a fetch step could not fail.
_NOT_FOR_FETCH = {
    "expect": "its expectations are never checked",
    "capture": "it captures nothing",
    "findings": "its findings are never raised",
    "until": "it is not retried",
    "retries": "it is not retried",
    "retry_delay": "it is not retried",
}


def _check_fetch_keys(step: Step, base: tuple[Any, ...], document: PositionedDocument, source: str) -> None:
    for key, said in _NOT_FOR_FETCH.items():
        if key not in step.model_fields_set or not getattr(step, key):
            continue  # `retries: 0`, `expect: []`: nothing that would not happen
        line, column = document.position(base + (key, "<key>")) or document.position(base + (key,)) or (None, None)
        raise PlaybookError(
            f"{key}: does not apply to a fetch step (it copies files and runs no command): {said}",
            path=source, line=line, column=column, key_path=dotted_path(base + (key,)),
            hint=f"check what it copied in a later step, e.g. that: \"steps.{step.id}.facts.fetched | length > 0\" "
                 "(its facts: fetched, fetch_skipped, fetch_cut, fetch_timed_out); or remove the key",
        )


def _refuse_delay_without_retries(step: Step, base: tuple[Any, ...], document: PositionedDocument, source: str) -> None:
    """`retry_delay: 5` (with or without `until:`) and no `retries:`: the step runs once
    (runner/engine.py: it is run again only while attempts <= retries), so the delay an author
    wrote to poll a loading server was never waited and the step failed on its first try."""
    path = base + ("retry_delay",)
    line, column = document.position(path + ("<key>",)) or document.position(path) or (None, None)
    delay = f"{step.retry_delay:g}"
    raise PlaybookError(
        f"retry_delay: {delay} waits between attempts, but step {step.id!r} has no retries: it runs once "
        "and the delay is never waited",
        path=source, line=line, column=column, key_path=dotted_path(path),
        hint=f"give the attempts after the first: retries: 10 (then retry_delay: {delay} waits between them), "
             "or remove retry_delay",
    )


def _texts_in(value: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every string in a value (lists and mappings walked), with its path."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _texts_in(item, path + (i,))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts_in(item, path + (key,))


def _check_literal_expectations(step: Step, base: tuple[Any, ...], known: set[str], document: PositionedDocument,
                                source: str) -> None:
    """contains:, not_contains: and matches: are compared as written (literal_texts.py): one that
    reads a var or a fact in {{ }} checked the braces, not the value."""
    for i, expectation in enumerate(step.expect):
        for key in EXPECTATION_TEXTS:
            text = getattr(expectation, key)
            if text is None or "{{" not in text:
                continue
            if not names_filled_in(text, known):
                continue
            path = base + ("expect", i, key)
            line, column = document.position(path) or (None, None)
            expression = first_expression(text)
            shown = _short_repr(expression, 40)[1:-1]
            meant = expectation_as_expression(key, text)
            if key == "matches":
                said = f"is a regex used as written, not a template: it matches {_short_repr(text, 60)} itself, not the value of {shown}"
                hint = f"a regex takes no value here: to look for the value itself, write the expectation as that: {json.dumps(meant)}"
            else:
                said = f"is text used as written, not a template: it looks for {_short_repr(text, 60)} itself, not for the value of {shown}"
                hint = f"to check for the value, write the expectation as that: {json.dumps(meant)}"
            raise PlaybookError(f"{key}: in step {step.id!r} {said}", path=source, line=line, column=column,
                                key_path=dotted_path(path), hint=hint)


def _check_literal_captures(step: Step, base: tuple[Any, ...], known: set[str], document: PositionedDocument,
                            source: str) -> None:
    """A capture's regex, json path, name and default are used as written (runner/capture.py): `default: "{{ port }}"`
    gave the fact the braces, which the next command then used, and `regex: '{{ model }} loaded'`
    looked for the braces, so the fact was None on every host."""
    for i, capture in enumerate(step.capture):
        if capture.regex is not None and names_filled_in(capture.regex, known):
            path = base + ("capture", i, "regex")
            line, column = document.position(path) or (None, None)
            expression = first_expression(capture.regex)
            raise PlaybookError(
                f"the regex of a capture in step {step.id!r} is used as written, not a template: it matches "
                f"{_short_repr(capture.regex, 60)} itself, not the value of {_short_repr(expression, 40)[1:-1]}, "
                "so the capture finds nothing",
                path=source, line=line, column=column, key_path=dotted_path(path),
                hint=f"a regex takes no value here: capture that part with a group in place of the {{{{ }}}} "
                     f"((?P<name>\\S+){', in a capture of its own: its type: applies to every group' if capture.type != 'auto' else ''}) "
                     f"and compare the fact in an expectation: that: {json.dumps(f'facts.name == {expression}')}",
            )
        for key, text in (("json", capture.json_path), ("name", capture.name)):
            if text is None or not names_filled_in(text, known):
                continue
            path = base + ("capture", i, key)
            line, column = document.position(path) or (None, None)
            what = "it reads the path" if key == "json" else "the fact is named"
            raise PlaybookError(
                f"the {key}: of a capture in step {step.id!r} is used as written, not a template: {what} "
                f"{_short_repr(text, 60)} itself, not the value of {_short_repr(first_expression(text), 40)[1:-1]}",
                path=source, line=line, column=column, key_path=dotted_path(path),
                hint=("write the path itself (e.g. json: models[0].id); to pick by a var, capture the whole value "
                      "(type: json) and index it where it is read: facts.NAME[vars.KEY]") if key == "json"
                else "write the fact's name itself, one word (e.g. name: load_s)",
            )
        for text in template_texts(capture.default):
            if not names_filled_in(text, known):
                continue
            path = base + ("capture", i, "default")
            line, column = document.position(path) or (None, None)
            fact = capture.name or next(iter(re.compile(capture.regex or "").groupindex), "NAME")
            expression = first_expression(text)
            raise PlaybookError(
                f"the default of a capture in step {step.id!r} is a value as written, not a template: where nothing "
                f"matches, facts.{fact} would be {_short_repr(text, 60)} itself, not the value of {_short_repr(expression, 40)[1:-1]}",
                path=source, line=line, column=column, key_path=dotted_path(path),
                hint=f"write the value itself, or leave the default out and give it where the fact is read: "
                     f"{{{{ facts.{fact} | default({expression}) }}}}",
            )


def _check_run_time_names(text: str, is_expression: bool, compared: list[Comparison], step_id: str, earlier_ids: list[str],
                          path: tuple[Any, ...], source: str, line: int | None, column: int | None,
                          step_ids: list[str] | None = None) -> None:
    """Names that pass the undefined check but do not exist where they are written: `steps.X`
    for a step that has not run yet, and stdout/exit_code before the step's command ran."""
    field = path[-1] if path[-1] in ("run", "when", "until", "that") else path[2]
    used = [n for n in names_used(text, expression=is_expression) if n in ATTEMPT_NAMES]
    if used and field not in ("until", "that"):
        raise PlaybookError(
            f"{used[0]} is not defined in {field}: of step {step_id!r}: it is this step's result, known once its command ran",
            path=source, line=line, column=column, key_path=dotted_path(path),
            hint=f"test it in until: or expect: [{{that: ...}}]; an earlier step's is steps.STEP_ID.{used[0]}",
        )
    _check_attempt_attributes(text, is_expression, step_id, path, source, line, column)
    _check_step_result_fields(text, is_expression, step_id, earlier_ids, path, source, line, column)
    _check_status_words(compared, step_id, path, source, line, column)
    for name in attributes_of(text, "steps", expression=is_expression):
        if name not in earlier_ids:
            if step_ids is not None and name != step_id and name in step_ids:
                # `run: echo {{ steps.b.stdout }}` in step a, with b written below it: "no earlier
                # step has that id" and "none yet" sent its author looking for a step that is there.
                raise PlaybookError(
                    f"step {step_id!r} uses steps.{name}, but step {name!r} runs after it (steps run in the order written)",
                    path=source, line=line, column=column, key_path=dotted_path(path),
                    hint=f"move step {name!r} above step {step_id!r}, or read steps.{name} in a step below {name!r}",
                )
            close = difflib.get_close_matches(name, earlier_ids, n=1)
            why = "it is this step" if name == step_id else "no earlier step has that id"
            raise PlaybookError(
                f"step {step_id!r} uses steps.{name}, but {why}",
                path=source, line=line, column=column, key_path=dotted_path(path),
                hint=f"did you mean steps.{close[0]}?" if close else
                ("steps.ID names a step that ran before this one: " + (", ".join(earlier_ids[-8:]) or "none yet")),
            )


# Ansible's registered-result tests and keys (docs.ansible.com, playbooks_tests "Task results";
# the command module's rc) and what a step's result says instead.
_RESULT_HABITS = {"ok": "status == 'passed'", "succeeded": "status == 'passed'", "success": "status == 'passed'",
                  "failed": "status == 'failed'", "skipped": "status == 'skipped'", "rc": "exit_code",
                  "returncode": "exit_code", "output": "stdout"}


# What this attempt's names hold (runner/engine.py): stdout/stderr the text printed, exit_code
# an int. An attribute neither has (`stdout.lines`, `stderr.length`) failed at run time on every
# host as SD003 "'str object' has no attribute 'lines'", and nothing was checked.
_ATTEMPT_TYPES: dict[str, type] = {"stdout": str, "stderr": str, "exit_code": int}
_TEXT_ATTRIBUTE_HABITS = {"lines": "{n}.splitlines()", "stdout_lines": "{n}.splitlines()", "stderr_lines": "{n}.splitlines()",
                          "length": "{n} | length", "len": "{n} | length", "size": "{n} | length", "count": "{n} | length"}


def _check_attempt_attributes(text: str, is_expression: bool, step_id: str, path: tuple[Any, ...], source: str,
                              line: int | None, column: int | None) -> None:
    """`stdout.lines[0]`, `steps.a.stdout.lines`: refused here with what to write, not SD003
    on every host."""
    reads: list[tuple[str, str, str]] = []  # (name as written, field, attribute)
    for name in _ATTEMPT_TYPES:
        if name in text:
            reads += [(name, name, attr) for attr in attributes_of(text, name, expression=is_expression)]
    if "steps" in text:
        reads += [(f"steps.{other}.{field}", field, attr)
                  for other, field, attr in step_result_attributes(text, expression=is_expression) if field in _ATTEMPT_TYPES]
    for name, field, attr in reads:
        kind = _ATTEMPT_TYPES[field]
        if not attr.startswith("_") and hasattr(kind, attr):
            continue  # stdout.splitlines(), stdout.startswith('x'): the sandbox allows str's methods
        what = "the text the command printed" if kind is str else "the number the command exited with"
        habit = _TEXT_ATTRIBUTE_HABITS.get(attr) if kind is str else None
        raise PlaybookError(
            f"step {step_id!r} reads {name}.{attr}, but {name} is {what}, which has no {attr!r}",
            path=source, line=line, column=column, key_path=dotted_path(path),
            hint=(f"write {habit.format(n=name)}" if habit else
                  f"test the text itself, e.g. 'ready' in {name}, {name} | length, {name}.splitlines()[-1]; "
                  "capture: [{json: PATH}] reads printed JSON into facts" if kind is str else
                  f"compare the number itself, e.g. {name} == 0"),
        )


def _field_context_names(path: tuple[Any, ...]) -> set[str]:
    """Context names a step's field reads: this attempt's exit_code/stdout/stderr only in
    until: and expect: that: (the others run before the command)."""
    field = path[-1] if path[-1] in ("run", "when", "until", "that") else path[2]
    return set(CONTEXT_NAMES if field in ("until", "that") else CONTEXT_NAMES - ATTEMPT_NAMES)


def _result_word_hint(name: str, path: tuple[Any, ...]) -> str | None:
    """`rc == 0` in that: (Ansible's registered result: docs.ansible.com, playbooks_tests "Task
    results"; the command module's rc) -> "write exit_code"; quoting it, as the word hint said,
    compares the text 'rc' with 0: false on every host."""
    if not _field_context_names(path) >= ATTEMPT_NAMES:
        meant = _RESULT_HABITS.get(name)
        if meant not in ATTEMPT_NAMES or path[-1] != "when":
            return None
        # `when: rc == 0` gates on the step before: its result is steps.ID.exit_code.
        return f"{name} is Ansible's; an earlier step's result here is steps.STEP_ID.{meant} (this step has not run yet)"
    if name in ("stdout_lines", "stderr_lines"):
        # Ansible's list of lines; "did you mean 'stdout'?" led to stdout[0], its first character.
        return f"{name} is Ansible's; the lines here are {name[:6]}.splitlines(): write {name[:6]}.splitlines()[0] for the first"
    meant = _RESULT_HABITS.get(name)
    if meant not in ATTEMPT_NAMES:
        return None
    return f"this step's result is exit_code, stdout and stderr here (Ansible's rc is exit_code): write {meant}"


def _check_step_result_fields(text: str, is_expression: bool, step_id: str, earlier_ids: list[str],
                              path: tuple[Any, ...], source: str, line: int | None, column: int | None) -> None:
    """`steps.a.ok` (an Ansible habit) names no field of a step's result: every host failed
    at run time. Refused here with the field meant."""
    for other, field in step_result_reads(text, expression=is_expression):
        if other not in earlier_ids or field in STEP_RESULT_FIELDS or field in MAPPING_METHODS:
            continue  # a result is a dict: `steps.a.get('status')`, `steps.a.items()` read it
        meant = _RESULT_HABITS.get(field)
        raise PlaybookError(
            f"step {step_id!r} reads steps.{other}.{field}, but a step's result has no {field!r}",
            path=source, line=line, column=column, key_path=dotted_path(path),
            hint=(f"write steps.{other}.{meant}" if meant else
                  f"a step's result has {', '.join(STEP_RESULT_FIELDS)} (e.g. steps.{other}.status == 'passed')"),
        )


def _check_status_words(compared: list[Comparison], step_id: str, path: tuple[Any, ...], source: str,
                        line: int | None, column: int | None) -> None:
    """`steps.a.status == 'pass'`: false on every host, the step skipped everywhere, unsaid;
    `exit_code == "0"`: a number against text, false on every host (a false SD001)."""
    quoted = number_compared_with_text(compared)
    if quoted is not None:
        field, word = quoted
        raise PlaybookError(
            f"step {step_id!r} compares {field}, a number, with the text {word!r}: no host's {field.rsplit('.', 1)[-1]} is text",
            path=source, line=line, column=column, key_path=dotted_path(path), hint=number_hint(field, word),
        )
    found = unknown_status_word(compared)
    if found is None:
        return
    other, word, meant = found
    raise PlaybookError(
        f"step {step_id!r} compares steps.{other}.status with {word!r}, which no step's status is: "
        f"the test is the same on every host",
        path=source, line=line, column=column, key_path=dotted_path(path),
        hint=(f"write {meant!r}; " if meant else "") + f"a step's status is one of {', '.join(STATUSES)}",
    )


def _check_version_order(compared: list[Comparison], step_id: str, path: tuple[Any, ...], source: str,
                         line: int | None, column: int | None) -> None:
    """`that: facts.v >= '0.4'` orders text character by character: '0.10' >= '0.4' is False.
    After _check_fact_number_text and number_compared_with_text: '0.4' against a number (a
    fact an auto capture makes one, duration_s) is a quoted number, and said so."""
    found = version_ordered_as_text(compared)
    if found is not None:
        word, operator = found
        raise PlaybookError(
            f"step {step_id!r} compares with the version {word!r} by {operator}: texts are ordered character "
            f"by character, so '0.10' {operator} '0.4' is {_as_text(operator)} and releases are ordered wrongly",
            path=source, line=line, column=column, key_path=dotted_path(path), hint=version_hint(word, operator),
        )


def _as_text(operator: str) -> bool:
    return {"<": "0.10" < "0.4", "<=": "0.10" <= "0.4", ">": "0.10" > "0.4", ">=": "0.10" >= "0.4"}[operator]


def _check_fact_number_text(compared: list[Comparison], facts: set[str], step_id: str, path: tuple[Any, ...],
                            source: str, line: int | None, column: int | None) -> None:
    """`that: facts.n == "5"`: a regex capture of 5 is the number 5, never the text "5" (a
    false SD001 on every host)."""
    found = fact_compared_with_number_text(compared, facts)
    if found is not None:
        name, word = found
        raise PlaybookError(
            f"step {step_id!r} compares facts.{name}, a number once captured, with the text {word!r}: "
            f"no host's facts.{name} is that text",
            path=source, line=line, column=column, key_path=dotted_path(path),
            hint=f"write the number without quotes: {word.strip()}, not {word!r} (or give the capture type: str)",
        )


def _check_number_range(text: str, is_expression: bool, step_id: str, path: tuple[Any, ...], source: str, line: int | None,
                        column: int | None) -> None:
    """`that: facts.kl < 1e-400` is `< 0` and `when: n < 1e400` `< inf` to Jinja, on every host, unsaid."""
    found = literal_past_float_range(text, expression=is_expression)
    if found is not None:
        written, what = found
        raise PlaybookError(f"step {step_id!r} has the number {written}, which is {what}",
                            path=source, line=line, column=column, key_path=dotted_path(path),
                            hint="write a number between 1e-300 and 1e300 (or 0)")


def _check_typographic_quotes(command: str, step_id: str, path: tuple[Any, ...], document: PositionedDocument,
                              source: str) -> None:
    found = typographic_quote(command)  # up to a heredoc's body (pasted_characters.checked_part)
    if found is None:
        return
    line, column = _command_position(command, found.start(), path, document)
    raise PlaybookError(
        f"the command of step {step_id!r} has a typographic quote {found.group(0)} (pasted from a chat or a document?): "
        f"the shell reads it as a letter, not a quote",
        path=source, line=line, column=column, key_path=dotted_path(path),
        hint='replace \u201c \u201d with " and \u2018 \u2019 with \'',
    )


def _never_set_error(reader: str, never_set: tuple[str, str, list[str]], source: str, line: int | None,
                     column: int | None, path: tuple[Any, ...]) -> PlaybookError:
    """`steps.OTHER.facts.NAME` read where step OTHER never sets NAME (fact_order.step_fact_never_set)."""
    other, name, sets = never_set
    close = difflib.get_close_matches(name, sets, n=1)
    return PlaybookError(
        f"{reader} reads steps.{other}.facts.{name}, but step {other!r} never sets {name!r}",
        path=source, line=line, column=column, key_path=dotted_path(path),
        hint=(f"did you mean steps.{other}.facts.{close[0]}?" if close else
              f"step {other!r} sets {', '.join(sets)}" if sets else
              f"step {other!r} captures nothing: give it a capture: that sets {name}"),
    )


def _check_unclosed_quote(command: str, step_id: str, path: tuple[Any, ...], document: PositionedDocument,
                          source: str) -> None:
    """`run: echo "abc`: the shell fails it on every host before it runs (shell_quotes.py)."""
    found = unclosed_quote(command)
    if found is None:
        return
    index = found.index
    if found.shell_line is not None and command.count("\n", 0, index) + 1 != found.shell_line:
        # The shell's line, where it differs from the scanner's: its first character.
        starts = [0] + [m.end() for m in re.finditer("\n", command)]
        line_start = starts[min(found.shell_line, len(starts)) - 1]
        index = line_start + len(command[line_start:]) - len(command[line_start:].lstrip(" \t"))
    line, column = _command_position(command, index, path, document)
    raise PlaybookError(
        f"the command of step {step_id!r} opens a quote {found.quote} that never closes: the shell reads on to the end "
        f"of the script and fails before running anything ({found.shell_said})",
        path=source, line=line, column=column, key_path=dotted_path(path),
        hint=("close the quote; a ' meant as text inside '...' is written '\\''" if found.quote != '"' else
              'close the quote; a " meant as text is written \\"'),
    )


def _check_pasted_characters(command: str, step_id: str, path: tuple[Any, ...], document: PositionedDocument,
                             source: str) -> None:
    """`—model-path` (an editor's em dash for --), `nvidia\u2011smi`, a no-break space: the shell
    reads each as a letter, and the step fails on the host mid-run (pasted_characters.py)."""
    found = pasted_character(command)
    if found is None:
        return
    line, column = _command_position(command, found.index, path, document)
    raise PlaybookError(f"the command of step {step_id!r} {found.message}", path=source, line=line, column=column,
                        key_path=dotted_path(path), hint=found.hint)


def _command_position(command: str, index: int, path: tuple[Any, ...], document: PositionedDocument
                      ) -> tuple[int | None, int | None]:
    """The file's line and column of command[index]: its line of text found among the lines the
    value spans (a `|` block starts on the line after its key)."""
    line_start = command.rfind("\n", 0, index) + 1
    raw_line = command[line_start:].split("\n", 1)[0]
    line_text = raw_line.strip()
    offset = index - line_start - (len(raw_line) - len(raw_line.lstrip()))
    line, column = document.position(path) or (None, None)
    for number in range(line or 1, min(len(document.lines), (line or 1) + command.count("\n") + 1) + 1):
        at = document.lines[number - 1].find(line_text) if line_text else -1
        if at >= 0:
            line, column = number, at + offset + 1
            break
    return line, column


def _check_actions_syntax(text: str, where: str, path: tuple[Any, ...], document: PositionedDocument,
                          source: str) -> None:
    """`${{ gpu }}` from a GitHub Actions habit: the shell would get `$0...` (actions_syntax.py)."""
    snippet = dollar_before_template(text)
    if snippet is None:
        return
    line, column = document.position(path) or (None, None)
    # The line of the file that holds it: a `run: |` block's own line, not the key's.
    for number in range(line or 1, min(len(document.lines), (line or 1) + text.count("\n") + 1) + 1):
        at = document.lines[number - 1].find(snippet)
        if at >= 0:
            line, column = number, at + 1
            break
    expr = expression_of(snippet)
    raise PlaybookError(
        f"{where} writes {snippet} (GitHub Actions' expression syntax): here {{{{ {expr} }}}} alone fills in the "
        f"value, and the $ left before it makes the shell expand $<value> ($0 is the shell's own name, $3 an "
        f"argument it was not given)",
        path=source, line=line, column=column, key_path=dotted_path(path),
        hint=f"drop the $: write {{{{ {expr} }}}}",
    )


def _check_var_templates(playbook: Playbook, document: PositionedDocument, source: str) -> None:
    """A var default may use other vars (`model_dir: "{{ model }}/draft"`, rendered per host
    before the steps run: runner/engine.py): its syntax, its names and circles are checked now."""
    known = set(playbook.vars)
    dependencies: dict[str, list[str]] = {}
    for name, value in playbook.vars.items():
        path = ("vars", name)
        line, column = document.position(path) or (None, None)
        for text in template_texts(value):
            with _template_parse_errors("", source, path, line, column, None, text, document, where=f"var {name!r}"):
                missing = undefined_names(text, known)
            _check_actions_syntax(text, f"var {name!r}", path, document, source)
            used = [n for n in names_used(text) if n in CONTEXT_NAMES - VAR_CONTEXT_NAMES]
            if used:
                raise PlaybookError(
                    f"var {name!r} uses {used[0]!r}, which only a step's templates have (vars are set before any step runs)",
                    path=source, line=line, column=column, key_path=dotted_path(path),
                    hint=f"use {{{{ {used[0]}... }}}} in the step's run:, when: or expect: instead",
                )
            if missing and go_call(text, missing[0]):
                raise PlaybookError(
                    f"var {name!r} holds a Go template, which spec-debug would fill in as its own (and {missing[0]!r} is no var)",
                    path=source, line=line, column=column, key_path=dotted_path(path), hint=_go_template_hint(text),
                )
            if missing:
                raise PlaybookError(
                    f"undefined variable {missing[0]!r} in var {name!r}",
                    path=source, line=line, column=column, key_path=dotted_path(path),
                    hint=_undefined_hint(missing[0], known - {name}),
                )
        dependencies[name] = var_references(value, known)
    cycle = var_cycle(dependencies)
    if cycle:
        line, column = document.position(("vars", cycle[0])) or (None, None)
        raise PlaybookError(
            f"var {cycle[0]!r} refers to itself" if len(cycle) == 2 else f"vars refer to each other in a circle: {' -> '.join(cycle)}",
            path=source, line=line, column=column, key_path=f"vars.{cycle[0]}",
            hint="give it a plain value (a var cannot build on its own default)" if len(cycle) == 2 else "give one of them a plain value",
        )


def _braces_hint(field: Any, text: str) -> str:
    """`when: "{{ x == 1 }}"` (Ansible's habit): the field is an expression already, so the braces
    go. The text without them is offered as the fix only when it parses as one expression itself:
    `{{ x ==  }}` was told "write 'x ==' without {{ }}", still a syntax error, and
    `{{ a }} and {{ b }}` was told to write 'a }} and {{ b'."""
    bare = _TEMPLATE_BRACES.sub(lambda m: m.group(1) or " ", text).strip()  # quoted text stays as written
    if not bare or _TEMPLATE_MARKS.search(_TEMPLATE_BRACES.sub(lambda m: " " if m.group(1) else m.group(0), bare)):
        return f"{field} is an expression already: drop the {{{{ }}}} and write the expression itself (e.g. facts.NAME == 3)"
    try:
        undefined_names(bare, set(), expression=True)
    except TemplateSyntaxError as exc:
        rest = operator_hint(bare) or _incomplete_hint(bare, exc.message or "")
        return f"{field} is an expression already: drop the {{{{ }}}}" + (f"; then {rest}" if rest else
               f", and write the expression itself (without them Jinja reads: {exc.message})")
    except RecursionError:
        return f"{field} is an expression already: drop the {{{{ }}}}"
    return f"{field} is an expression already: write {bare!r} without {{{{ }}}}"


_TEMPLATE_BRACES = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|\s*\{\{-?\s*|\s*-?\}\}\s*""")
_TEMPLATE_MARKS = re.compile(r"\{[{%#]|[}%#]\}")


@contextmanager
def _template_parse_errors(step_id: str, source: str, path: tuple[Any, ...], line: int | None,
                           column: int | None, hint: str | None = None, text: str = "",
                           document: PositionedDocument | None = None, where: str | None = None) -> Iterator[None]:
    """A template that does not parse, as a PlaybookError at the place in the file where it
    goes wrong (inside a multi-line script when it can be found there)."""
    where = where or f"step {step_id!r}"
    try:
        yield
    except TemplateSyntaxError as exc:
        shell_hint = _shell_syntax_hint(text, exc.message or "")
        unclosed = unclosed_expression(text) if shell_hint is None else None
        if document is not None and line is not None and (shell_hint is not None or "\n" in text.strip()):
            line, column = _template_error_position(text, exc.lineno, shell_hint, document, line, column)
        if unclosed is not None:
            if document is not None and line is not None:
                line, column = _unclosed_position(text, unclosed, document, line, column)
            hint = "; ".join(h for h in (hint, (
                f"Jinja reads '{{{{' as the start of a value; to give the command '{{{{' as text: {unclosed.fixed} "
                f"(or wrap the text in {{% raw %}}...{{% endraw %}})" if unclosed.literal
                else f"this '{{{{' is not closed: write {unclosed.fixed}")) if h)
        hint = "; ".join(h for h in (hint, shell_hint and shell_hint[1]) if h) or _incomplete_hint(text, exc.message or "")
        raise PlaybookError(f"template syntax error in {where}: {exc.message}", path=source, line=line,
                            column=column, key_path=dotted_path(path), hint=hint) from None
    except RecursionError:  # Jinja parses recursively: thousands of nested parentheses
        raise PlaybookError(f"template in {where} nests too deeply to parse", path=source, line=line,
                            column=column, key_path=dotted_path(path)) from None


# Shell text that Jinja reads as its own syntax: bash writes the length of a variable as
# ${#name}, and `{#` opens a Jinja comment; Go templates are in go_templates.py.
_RAW_FIX = "wrap that text in {% raw %}...{% endraw %} so it reaches the command as written"


def _incomplete_hint(text: str, message: str) -> str | None:
    """`until: facts.x ==`, `that: 1 +`: Jinja's "unexpected 'end of print statement'" names its
    own token, not the author's cut-off expression; `when: yes please` is two words where one
    expression goes (Jinja: "expected token 'end of print statement', got 'please'")."""
    stripped = text.strip()
    number = _number_form_hint(stripped, message)
    if number is not None:
        return number
    if "unexpected 'end of print statement'" in message or "unexpected end of template" in message:
        last = stripped.split()[-1] if stripped.split() else ""
        return f"the expression ends after '{last}': finish it (e.g. facts.NAME == 3), or remove the operator"
    extra = re.fullmatch(r"expected token 'end of print statement', got '([^']*)'", message)
    if extra is not None:
        return (f"Jinja read one expression and then '{extra.group(1)}': join the parts with and / or / an operator, "
                f"or quote text: '{_short_repr(stripped, 40)[1:-1]}'")
    return None


# Numbers Python and YAML read but Jinja's lexer does not (jinja2/lexer.py: float_re wants a
# digit before the point; integer_re reads `017` as 0, then 17). Outside quotes only.
_POINT_FIRST = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(?<![\w.\])\]])\.(\d+)""")
_LEADING_ZERO = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(?<![\w.])0(\d+)(?![\w.])""")


def _number_form_hint(text: str, message: str) -> str | None:
    """`.5` ("unexpected '.'") and `017` ("got 'integer'"): the number Jinja reads in their place."""
    if message == "unexpected '.'":
        found = next((m for m in _POINT_FIRST.finditer(text) if m.group(2)), None)
        if found is not None:
            return f"Jinja reads a number with a digit before its point: write 0.{found.group(2)} for .{found.group(2)}"
    if message.endswith("got 'integer'"):
        found = next((m for m in _LEADING_ZERO.finditer(text) if m.group(2)), None)
        if found is not None:
            digits = found.group(2)
            return (f"Jinja reads 0{digits} as 0 and then {digits}: write {int(digits)} (or 0o{digits} for an octal "
                    "number)")
    return None


def _shell_syntax_hint(text: str, message: str) -> tuple[re.Pattern[str], str] | None:
    """(what to look for on the line, hint) when shell text was read as Jinja syntax."""
    if "comment" in message and "{#" in text:
        return re.compile(r"\{#"), f"Jinja reads '{{#' as the start of a comment (bash's ${{#name}} is one): {_RAW_FIX}"
    if GO_TEMPLATE.search(text):
        return GO_TEMPLATE, _go_template_hint(text)
    return None


def _go_template_hint(text: str) -> str:
    wrapped = raw_wrapped(text)
    fix = f"write {wrapped}" if wrapped else _RAW_FIX
    return f"'{{{{.Field}}}}' is a Go template for the command (docker/kubectl --format), not for spec-debug: {fix}"


def _template_error_position(text: str, template_line: int | None, shell_hint: tuple[re.Pattern[str], str] | None,
                             document: PositionedDocument, line: int, column: int | None) -> tuple[int, int | None]:
    """The file position of the failing template line: Jinja knows the line within the
    template; find that line's text in the file at or after where the value starts. Falls
    back to the value's own position when it cannot be found (quoted escapes, folding)."""
    template_lines = text.splitlines() or [""]
    index = min(max((template_line or 1) - 1, 0), len(template_lines) - 1)
    if shell_hint is not None:  # Jinja reports the end of an unclosed comment: find its start
        index = next((i for i, t in enumerate(template_lines) if shell_hint[0].search(t)), index)
    wanted = template_lines[index].strip()
    if not wanted:
        return line, column
    marker = shell_hint[0] if shell_hint is not None else re.compile(r"\{[{%#]")
    for number in range(line, min(len(document.lines), line + len(template_lines) + 1) + 1):
        found_at = document.lines[number - 1].find(wanted)
        if found_at < 0:
            continue
        trigger = marker.search(wanted)
        return number, found_at + (trigger.start() if trigger else 0) + 1
    return line, column


def _name_position(text: str, name: str, document: PositionedDocument, line: int | None,
                   column: int | None) -> tuple[int | None, int | None]:
    """The file position of the first `{{ ... name` in a value written over several lines (a
    `|` or `>` block scalar, a quoted value folded over lines): the error named the key's line, and
    the typo was ten lines down a script. Only the lines of the value are read (each file line
    after the first holds text of the value); the value's own position where the name is not
    found on one line of it (an expression over two lines, quoting that changed the text)."""
    if line is None or line > len(document.lines):
        return line, column
    first = document.lines[line - 1][(column or 1) - 1:]
    if "\n" not in text and not first.lstrip().startswith(("|", ">")) and text.strip() in first:
        return line, column  # a one-line value keeps its own position
    used = re.compile(r"\{[{%][^}]*?(?<![\w.])" + re.escape(name) + r"\b")
    for number in range(line, len(document.lines) + 1):
        file_line = document.lines[number - 1]
        if number > line and file_line.strip(" \t'\"") and file_line.strip(" \t'\"") not in text:
            break  # past the value
        found = used.search(file_line, (column or 1) - 1 if number == line else 0)
        if found is not None:
            return number, found.end() - len(name) + 1
    return line, column


def _unclosed_position(text: str, unclosed: UnclosedExpression, document: PositionedDocument, line: int,
                       column: int | None) -> tuple[int, int | None]:
    """The file position of an unclosed `{{`: the first place, at or after where the value
    starts, where its line of the template ends a line of the file (a closed `{{ host }}` earlier
    on does not count for `{{ host }`); the value's own position when quoting changed the text."""
    value_lines = text.count("\n") + 2  # a block scalar starts on the line after its key
    for number in range(line, min(len(document.lines), line + value_lines) + 1):
        file_line = document.lines[number - 1]
        found_at = file_line.find(unclosed.line_text, (column or 1) - 1 if number == line else 0)
        while found_at >= 0:
            after = file_line[found_at + len(unclosed.line_text):].strip()
            if after in ("", "'", '"') or after.startswith("#"):
                return number, found_at + 1
            found_at = file_line.find(unclosed.line_text, found_at + 1)
    return line, column


def _check_probe_name(name: str, path: tuple[Any, ...], document: PositionedDocument, source: str) -> None:
    """A misspelt probe would only fail at run time, as a warning on every host, and the run
    would still pass: name it now, where it is written."""
    from spec_debug.probes.registry import all_probes  # the registry imports the diagnose checks

    known = sorted(all_probes())
    if name in known:
        return
    line, column = document.position(path) or (None, None)
    close = difflib.get_close_matches(name, known, n=1)
    raise PlaybookError(
        f"unknown probe {name!r}", path=source, line=line, column=column, key_path=dotted_path(path),
        hint=f"did you mean {close[0]!r}?" if close else f"known probes: {', '.join(known)}",
    )


def _check_probe_args(step: Step, base: tuple[Any, ...], document: PositionedDocument, source: str) -> None:
    """`with: {draft_modle: /ckpt}`: a probe reads its arguments by name, and one it does not
    read was dropped without a word: vocab_maps said "SD004 Not checked: --var draft_model=DIR"
    to an author who had given it, and the run PASSED. Any key the probe does not read
    (ProbeSpec.args) is refused where it is written, as an unknown key of the step is, with the
    name meant where one is spelt alike. A key spelt like none (`with: {checkpoint: /ckpt}` for
    model_configs' draft_model) was left alone, as the author's own note: the same checkpoint
    was never read, and the run PASSED with "Not checked"."""
    from spec_debug.probes.registry import all_probes

    spec = all_probes().get(step.probe or "")
    if spec is None or spec.args is None:
        return
    taken = sorted({*spec.args, "python"})
    for key in step.with_:
        if key in taken:
            continue
        path = base + ("with", key)
        line, column = document.position(path + ("<key>",)) or document.position(path) or (None, None)
        close = difflib.get_close_matches(key, taken, n=1) or difflib.get_close_matches(key.lower(), taken, n=1)
        raise PlaybookError(
            f"probe {step.probe!r} takes no argument {key!r} in step {step.id!r}", path=source, line=line, column=column,
            key_path=dotted_path(path),
            hint=(f"did you mean {close[0]!r}? ({step.probe} takes {', '.join(taken)})" if close else
                  f"{step.probe} takes {', '.join(taken)}; it never reads {key!r} (a note of your own goes in the step's why:)"),
        )


# Ansible's special variables and lookups (docs.ansible.com, reference_appendices/special_variables),
# as a playbook here writes them: an Ansible user's first template is often {{ inventory_hostname }}.
_HOST_NAME_HINT = "the host's name is host here: {{ host }} in a command, host in when:"
_ANSIBLE_NAMES = {
    "inventory_hostname": _HOST_NAME_HINT,
    "inventory_hostname_short": _HOST_NAME_HINT,
    "ansible_hostname": _HOST_NAME_HINT,
    "ansible_fqdn": _HOST_NAME_HINT,
    "ansible_host": _HOST_NAME_HINT,
    "item": "steps have no loops (loop:, with_items:): write one step per value, or loop in the shell: for x in a b; do ...; done",
    "lookup": "there are no lookups: pass the value with --var NAME=VALUE (e.g. --var home=$HOME), declared under vars:",
    "hostvars": "a step sees its own host only: its name is host, its values vars.NAME and facts.NAME",
    "ansible_facts": "facts are what earlier steps capture: capture: [{regex: ...}], then facts.NAME",
    # `--tp {{ tp | default(omit) }}`: omit leaves a module's option out; a command has none
    "omit": "it leaves a module's option out, and a command has none: write the flag where the value is set, "
            "{% if NAME %}--flag {{ NAME }}{% endif %}",
    "ansible_env": "the host's environment is the shell's here: write $HOME, $PATH in the command",
}


def _undefined_hint(missing: str, known: set[str]) -> str:
    bare = missing.removeprefix("vars.")
    if bare in _ANSIBLE_NAMES and bare not in known:
        return f"{bare} is Ansible's; {_ANSIBLE_NAMES[bare]}"
    dashed = sorted(k for k in known if k.startswith(f"{bare}-"))
    if dashed:
        # {{ model-path }} parses as model minus path.
        return f"Jinja reads {dashed[0]!r} as a subtraction: rename the var to {dashed[0].replace('-', '_')!r} (or write vars[{dashed[0]!r}])"
    close = difflib.get_close_matches(bare, sorted(known), n=1)
    return f"did you mean {close[0]!r}?" if close else "declare it under vars: (or use facts.NAME for a captured fact)"


def _finding_texts(step: Step, base: tuple[Any, ...]) -> list[tuple[tuple[Any, ...], str]]:
    templates: list[tuple[tuple[Any, ...], FindingTemplate]] = [
        (base + ("findings", i), template) for i, template in enumerate(step.findings)
    ]
    templates += [
        (base + ("expect", i, "finding"), e.finding) for i, e in enumerate(step.expect) if e.finding is not None
    ]
    texts: list[tuple[tuple[Any, ...], str]] = []
    for path, template in templates:
        for field in ("title", "remediation"):
            value = getattr(template, field)
            if value:
                texts.append((path + (field,), value))
        texts += [(path + ("evidence", i), e) for i, e in enumerate(template.evidence)]
    return texts
