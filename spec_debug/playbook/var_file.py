"""Read a --var-file with the playbook's YAML rules.

`yaml.safe_load` builds aliases as shared objects, so a ten-line "billion laughs" file loads at
once and then hangs whoever walks it (rendering the vars into run.json pinned a core for over a
minute before this); it also turns `date: 2024-05-01` into a datetime that JSON cannot hold and
`vllm_version: 0.10` into 0.1. The playbook loader (playbook/yaml_nodes.py) already bounds
depth and alias expansion, refuses YAML 1.1 surprises with a "quote it" hint, and gives every
error a line and column; a var file goes through the same path.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spec_debug.errors import PlaybookError, UsageError
from spec_debug.playbook.literal_texts import first_expression, names_filled_in
from spec_debug.playbook.loader import MAX_PLAYBOOK_BYTES, byte_position, text_encoding, utf8_hint
from spec_debug.playbook.templating import template_texts
from spec_debug.playbook.yaml_nodes import PositionedDocument, dotted_path, load_positioned
from spec_debug.store import packed_file


@dataclass(frozen=True)
class VarFile:
    """A --var-file read once: its vars and its text (for the line of a var the playbook lacks).
    A second read of `--var-file <(sops -d vars.yaml)` (a pipe) found it empty: the unknown var
    was then refused as "--var NAME", naming the playbook and an option the user never passed."""
    path: Path
    text: str
    values: dict[str, Any]


def load_var_file(path: Path) -> dict[str, Any]:
    """{var name: value} from a YAML mapping; an empty file is no vars. Raises PlaybookError
    (file:line:column) for bad YAML and UsageError for a file that cannot be read."""
    return read_var_file(path).values


def read_var_file(path: Path) -> VarFile:
    """load_var_file's vars with the text they came from."""
    try:
        with open(path, "rb") as handle:  # bounded: `--var-file /dev/zero`, or a checkpoint by mistake
            raw = handle.read(MAX_PLAYBOOK_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read --var-file {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_PLAYBOOK_BYTES:
        raise UsageError(f"--var-file {path} is over {MAX_PLAYBOOK_BYTES // 2**20} MiB: not a var file")
    packed = packed_file(path, raw, "the var file in it")
    if packed is not None:
        # `--var-file vars.yaml.gz` as attached to a ticket was "not UTF-8 text" at 1:2, with a
        # hint to save the file as UTF-8: the playbook loader names the compression, so does this.
        raise PlaybookError(f"--var-file is {packed[0]}", path=str(path), hint=packed[1])
    # PowerShell 5's `echo "model: x" > vars.yaml` writes UTF-16LE with a mark, which the
    # playbook loader reads (loader.text_encoding); the var file beside it was "not UTF-8 text".
    encoding = text_encoding(raw)
    try:
        text = raw.decode("utf-8-sig" if encoding == "utf-8" else encoding)  # a Windows editor's BOM
    except UnicodeDecodeError as exc:
        if encoding != "utf-8":
            raise PlaybookError(f"--var-file starts with a {encoding.upper()} byte order mark but is not "
                                f"{encoding.upper()} text", path=str(path), hint="save the file as UTF-8") from None
        line, column = byte_position(raw, exc.start)
        raise PlaybookError("--var-file is not UTF-8 text", path=str(path), line=line, column=column,
                            hint=utf8_hint(raw, exc.start)) from None
    if not _has_content(text):
        return VarFile(path, text, {})
    document = load_positioned(text, str(path), kind="var file")
    if not isinstance(document.value, dict):
        # `FOO=bar` lines (a .env file, docker's --env-file) are one YAML string.
        dotenv = isinstance(document.value, str) and all(_DOTENV_LINE.match(line) for line in text.splitlines()
                                                         if line.strip() and not line.lstrip().startswith("#"))
        raise PlaybookError("--var-file must be a mapping of var names to values", path=str(path), line=1, column=1,
                            hint="this reads like a .env file (NAME=value): write name: value, one var per line, "
                                 "or pass --var NAME=value" if dotenv
                            else "e.g. model_path: /models/llama (one var per line)")
    _refuse_playbook_layout(document.value, document, path)
    for key_path, written in document.reshaped_numbers.items():
        # Whether the playbook uses the var as text or as a number is not known here: say both.
        line, column = document.position(key_path) or (None, None)
        raise PlaybookError(f"{written} would be read as the number {_value_at(document.value, key_path)}",
                            path=str(path), line=line, column=column, key_path=dotted_path(key_path),
                            hint=f'quote it ("{written}") if it is a version or other text; '
                                 f"write {_value_at(document.value, key_path)} if it is a number")
    return VarFile(path, text, document.value)


_DOTENV_LINE = re.compile(r"^\s*(export\s+)?[A-Za-z_][A-Za-z0-9_]*=")


def _refuse_playbook_layout(value: dict[str, Any], document: PositionedDocument, path: Path) -> None:
    """A var file in a playbook's layout: its vars under `vars:` (copied from a playbook, or a
    playbook given as --var-file). No var can be named vars, steps or host (loader.py refuses
    the template names), so the run said "--var vars is not a var of playbook ...", naming
    neither the file nor the nesting."""
    if "steps" in value and "name" in value:
        raise PlaybookError("this is a playbook, not a var file", path=str(path), line=1, column=1,
                            hint=f"run it: spec-debug run {path}; a var file lists var names and values: python: /usr/bin/python3")
    nested = value.get("vars")
    if isinstance(nested, dict):
        line, column = document.position(("vars", "<key>")) or (None, None)
        names = list(nested)[:2]
        raise PlaybookError("the vars are nested under 'vars:' (a playbook's layout); a var file lists them at the top level",
                            path=str(path), line=line, column=column, key_path="vars",
                            hint="remove the 'vars:' line and indent its vars to the left"
                                 + (f" ({', '.join(f'{n}: ...' for n in names)})" if names else ""))


def _has_content(text: str) -> bool:
    """Anything but blank lines, comments and document markers (an emptied group_vars file)."""
    return any(line.strip() and not line.lstrip().startswith("#") and line.strip() not in ("---", "...")
               for line in text.splitlines())


def _value_at(value: Any, key_path: tuple[Any, ...]) -> Any:
    for part in key_path:
        value = value[part]
    return value


def closest_var(name: str, known: Any) -> str | None:
    """The declared var an unknown name most likely means, else None: the same name in another
    case or with `-` for `_` (`SERVER_LOG`, the shell's habit for settings, `server-log`, the
    CLI's), else the closest spelling (`modle`). difflib compares characters as they are: the
    ratio of SERVER_LOG to server_log is 0, and no var was suggested for it."""
    folded = {str(var).lower().replace("-", "_"): str(var) for var in known}
    key = name.lower().replace("-", "_")
    if key in folded:
        return folded[key]
    close = difflib.get_close_matches(key, list(folded), n=1)
    return folded[close[0]] if close else None


def check_var_file_names(var_file: VarFile, known: dict[str, Any], playbook_name: str) -> None:
    """Refuse a var in the file that the playbook does not declare, at its line in the file
    (read_var_file has read and checked the file already: this only finds the position)."""
    path = var_file.path
    unknown = [name for name in var_file.values if name not in known]
    if not unknown:
        return
    line, column = load_positioned(var_file.text, str(path), kind="var file").position((unknown[0], "<key>")) or (None, None)
    close = closest_var(str(unknown[0]), known)
    raise PlaybookError(
        f"{unknown[0]} is not a var of playbook {playbook_name!r}",
        path=str(path), line=line, column=column, key_path=unknown[0],
        hint=(f"did you mean {close}? " if close else "")
        + f"its vars: {', '.join(sorted(known)) or 'none'} (remove the line, or use a var file made for this playbook)",
    )


def check_var_file_templates(var_file: VarFile, known: dict[str, Any], used: set[str]) -> None:
    """Refuse a value in the file (of the vars `used`, those no --var replaces) that reads a var
    in {{ }}: a var file's values are data, as --var's are (runner/engine.py renders only the
    playbook's defaults and an inventory's values), so `draft_dir: "{{ model_dir }}/eagle3"` went
    to the host as those characters, where Ansible's `-e @vars.yml` renders it."""
    document: PositionedDocument | None = None
    for name, value in var_file.values.items():
        if name not in used:
            continue
        for text in template_texts(value):
            if not names_filled_in(text, set(known)):
                continue
            document = document or load_positioned(var_file.text, str(var_file.path), kind="var file")
            line, column = document.position((name,)) or (None, None)
            shown = text if len(text) <= 60 else text[:57] + "..."
            raise PlaybookError(
                f"{name} is {shown!r} as written: a --var-file value is used as given, not as a template "
                f"(the command would get the braces, not the value of {first_expression(text)})",
                path=str(var_file.path), line=line, column=column, key_path=name,
                hint=f"write the value itself, as a --var takes it; a value built from other vars is a default "
                     f"in the playbook's vars: ({name}: {json.dumps(text)}), rendered for each host",
            )
