"""`spec-debug findings [CODE] [--json]`: the catalog for people and machines (typer-free)."""

from __future__ import annotations

import json
import re

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from spec_debug.diagnose.catalog import (
    CATALOG,
    UnknownFindingCode,
    doc_as_dict,
    get_doc,
    render_entry_markdown,
)

_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


# How people paste a code: "[SD201]" from a log line, "SD-201", "sd 201", "201", "#SD201" as a
# chat message or an issue tags it (refused before: "unknown finding code '#SD201'").
_PASTED = re.compile(r"^[\s\[(`'\"#]*(?:SD)?[\s_-]*(\d{3})[\s\])`'\".:,]*$", re.IGNORECASE)


def normalize_code(code: str) -> str:
    match = _PASTED.match(code)
    return f"SD{match.group(1)}" if match else code


# Several codes in one word: "SD201,SD202", "SD201 SD202" (quoted), "sd201/sd202", "[SD201] [SD202]"
# as pasted from a report's list. Each piece must look like a code; what lies between them only
# separators, so "sd 201" (one code, spaced) stays one code.
_ONE_CODE = re.compile(r"SD[\s_-]*\d{3}\b|\b\d{3}\b", re.IGNORECASE)
_BETWEEN_CODES = re.compile(r"^(?:[\s,;/|&+\[\]()`'\".:#]|\band\b)*$", re.IGNORECASE)


def several_codes(text: str) -> list[str]:
    """The codes in TEXT when it is a list of two or more (else []), normalized (SD201)."""
    pieces = _ONE_CODE.findall(text)
    if len(pieces) < 2 or not _BETWEEN_CODES.match(_ONE_CODE.sub(" ", text)):
        return []
    return [normalize_code(piece).upper() for piece in pieces]


def several_codes_error(text: str, command: str) -> UnknownFindingCode | None:
    """`findings 'SD201,SD202'` was "unknown finding code 'SD201,SD202'" with a hint that named
    both codes as known; `explain` said "no playbook file". Each command takes one code: the
    refusal names the codes it read and the command for each."""
    codes = several_codes(text)
    if not codes:
        return None
    each = "; ".join(f"`spec-debug {command} {code}`" for code in dict.fromkeys(codes))
    return UnknownFindingCode(f"{text.strip()!r} is {len(codes)} finding codes; `spec-debug {command}` takes one at a time",
                              hint=f"one command each: {each}")


def findings_command(code: str | None, as_json: bool, console: Console | None = None) -> int:
    """Print the catalog (or one entry). Returns the exit code: 0, or 2 for an unknown code."""
    to_stdout = console is None
    console = console or Console(emoji=False)  # ":100:" in a path or host is no emoji
    try:
        listed = several_codes_error(code, "findings") if code else None
        if listed is not None:
            raise listed
        docs = [get_doc(normalize_code(code))] if code else list(CATALOG.values())
    except UnknownFindingCode as exc:
        # Escaped: the message quotes what was typed, and "[/x]" in it was a MarkupError traceback.
        # Never folded (soft_wrap), as cli_common.print_error: at 80 columns the fold split the
        # hint's `spec-debug findings` command in a log or a redirected stderr.
        Console(stderr=True, emoji=False).print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        return 2
    if as_json:
        payload = doc_as_dict(docs[0]) if code else [doc_as_dict(d) for d in docs]
        console.print_json(json.dumps(payload))
        return 0
    if code:
        text = render_entry_markdown(docs[0])
        if console.is_terminal:
            # imported here: rich.markdown brings markdown-it (~70 ms), needed only on a terminal
            from rich.markdown import Markdown

            console.print(Markdown(text))
        else:
            # `findings SD101 > notes.txt`, a pipe: the Markdown itself, as `explain` writes it;
            # rendered, it was folded at 80 columns, the Sources URLs cut in two. In UTF-8 as
            # `explain` writes it: through the console, under LANG=C or PYTHONIOENCODING=ascii
            # the "·" and "→" of the entry came out as \xb7 and \u2192 in the file
            if to_stdout:
                from spec_debug.stdout_document import write_document

                write_document(text + "\n")
            else:
                console.print(text, markup=False, highlight=False, emoji=False, soft_wrap=True)
        return 0
    table = Table(title="spec-debug finding codes", show_lines=False)
    table.add_column("code", style="bold")
    table.add_column("severity")
    table.add_column("area")
    table.add_column("title", overflow="fold")  # "max_position_embeddings" in a 60-column terminal
    for d in docs:
        style = _SEVERITY_STYLE[d.severity]
        table.add_row(d.code, f"[{style}]{d.severity}[/{style}]", d.area, d.title)
    # One print, so one write: a second one, after `| head -1` had left, was a broken pipe
    # (click's exit 1) where every other command's one write exits 0.
    console.print(Group(table, Text("`spec-debug findings CODE` explains one code.")))
    return 0
