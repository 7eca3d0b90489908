"""CLI wiring for ``spec-debug analyze`` and ``spec-debug distill`` (issue #6).

The lead's ``cli.py`` calls :func:`register`. The issue names ``--format`` both ways: the
output (``--format md|html|json``) and the transcript format it forces ("detected
automatically (and forced with --format)"). The names do not overlap, so ``--format`` takes
either (:func:`split_format`); ``--input-format`` forces the transcript format alone.
"""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from spec_debug.cli_common import (complete_analyze_formats, complete_input_formats, complete_output_path, dash_is_stdout,
                                   output_format)
from spec_debug.counted import counted
from spec_debug.errors import SpecDebugError, UsageError
from spec_debug.session.format_names import INPUT_FORMATS
from spec_debug.stdout_document import write_document
from spec_debug.store import RecordWriteError, write_output

if TYPE_CHECKING:
    from spec_debug.session.analysis import SessionAnalysis

# The analyzer's modules (readers, extractors, their compiled patterns: about 40% of the
# CLI's start-up) are imported when analyze or distill runs, not for every spec-debug command.


# The playbook model's name pattern (spec_debug/playbook/models.py, Playbook.name)
_PLAYBOOK_NAME = re.compile(r"[A-Za-z0-9_.-]+")


class OutputFormat(str, Enum):
    md = "md"
    html = "html"
    json = "json"


_INPUT_FORMAT_HELP = (f"Transcript format: {', '.join(INPUT_FORMATS)} (default auto: detected from the first lines; "
                      "a source with no name here, such as Aider, Cline, Roo Code or a CI job log, is read "
                      "by one of them and detected: docs/analyze.md lists which).")
"""Every format detection finds can be forced; a wrong name is a usage error that lists them
(sources.input_format_name, which also takes any case, _ for - and a few aliases)."""


def split_format(value: str | None, input_format: str) -> tuple[str | None, str]:
    """``--format`` as (output format or None, transcript format): an output's name (md, html,
    json) is the output's, a transcript format's name (``--format codex``) forces the input.
    Both ways at once (``--format codex --input-format text``) is a usage error."""
    if value is None or value.strip().lower() in (f.value for f in OutputFormat):
        return value, input_format
    from spec_debug.session.format_names import input_format_name, source_read_as

    try:
        forced = input_format_name(value)
    except UsageError:
        read_as = source_read_as(value)
        raise UsageError(f"--format {value!r}: choose an output ({', '.join(f.value for f in OutputFormat)}) "
                         f"or a transcript format to force ({', '.join(INPUT_FORMATS)})",
                         hint=f"{read_as}; leave the format out and auto detects it" if read_as else None) from None
    if input_format.strip().lower() != "auto" and input_format_name(input_format) != forced:
        raise UsageError(f"--format {value} and --input-format {input_format} force different transcript formats",
                         hint="give one of them")
    return None, forced or "auto"


def _session_path(text: str) -> Path:
    """PATH as given; an empty one is an error, not the current directory (Path("") == Path("."))."""
    if not text.strip():
        typer.echo("error: PATH is empty: pass a transcript file, a session folder or a directory of sessions", err=True)
        raise typer.Exit(2)
    return Path(text).expanduser()


def analyze_command(path: Path, fmt: str = "md", input_format: str | None = None, output: Path | None = None,
                    redact: bool = True) -> int:
    """Analyze PATH and write the postmortem (md/html) or the JSON analysis; returns the exit code.

    Secrets the session quoted (``export HF_TOKEN=hf_...``, a Bearer header, a password in a
    URL) are masked in every format, as in run.json: a JSON analysis is attached to tickets
    and fed to other tools as often as a postmortem is pasted. ``redact=False`` keeps them."""
    from spec_debug.session.postmortem import render_postmortem

    _writable(output, {"md": "postmortem.md", "html": "postmortem.html"}.get(fmt, "analysis.json"), path)
    analysis = _analyze_input(path, input_format)
    if fmt == "json":
        text = analysis_json(analysis, redact)
    else:
        text = render_postmortem(analysis, fmt, redact=redact)  # type: ignore[arg-type]
    _emit(text, output)
    typer.echo(_read_summary(analysis.stats) + (f"; wrote {output}" if output else ""), err=True)
    return 0


def _read_summary(stats: dict) -> str:
    """The one line analyze prints on stderr: what was read and what was not."""
    skipped = (f"{counted(stats['lines_skipped'], 'line')} skipped (broken JSON {stats['broken_json']}, not an object "
               f"{stats['non_object']}, too long {stats['too_long']}, binary {stats['binary']})")
    missing = f", {counted(stats['missing_files'], 'sub-agent file')} missing" if stats["missing_files"] else ""
    if stats["damaged_files"]:
        missing += f", {counted(stats['damaged_files'], 'file')} cut short or corrupt"
    if stats.get("copies_skipped"):
        missing += f", {counted(stats['copies_skipped'], 'identical copy', 'identical copies')} of a session skipped"
    return f"{counted(stats['events'], 'event')} in {counted(stats['sessions'], 'session')}; {skipped}{missing}"


def analysis_json(analysis: SessionAnalysis, redact: bool = True) -> str:
    """What ``analyze --format json`` writes. orjson writes the records (dataclasses) itself, in
    one pass; redacting replaces only the records that may hold a secret by masked dicts."""
    from spec_debug.redact import redact_value
    from spec_debug.session.json_text import json_text
    from spec_debug.session.records import redacted_all

    doc = analysis.to_json(plain=False)
    if redact:
        doc = {key: redacted_all(value) if isinstance(value, list) else redact_value(value)
               for key, value in doc.items()}
    return json_text(doc)


def distill_command(path: Path, output: Path | None, input_format: str | None = None, name: str | None = None) -> int:
    """Distill PATH into a playbook at OUTPUT (None: standard output), checked with the playbook
    loader first."""
    from spec_debug.playbook import load_playbook_text
    from spec_debug.session.distill import changes_text, distill_playbook, dump_playbook, select_commands
    from spec_debug.session.records import MAX_COMMAND_CHARS

    if name and not _PLAYBOOK_NAME.fullmatch(name):
        # Before reading the session (a long transcript takes a while), and about the option: the
        # loader's message pointed at line 2 of an OUTPUT file it never wrote.
        from spec_debug.playbook.habits import playbook_name_like

        # the loader's rule for `name:`, so `--name débit` is told `debit`, not `d_bit`
        raise UsageError(f"--name {name!r} is not a playbook name",
                         hint=f"one word of letters, digits, _ . - (it names the run folders): --name {playbook_name_like(name)}")
    _writable(output, "playbook.yaml", path)
    analysis = _analyze_input(path, input_format)
    doc = distill_playbook(analysis, name)
    text = dump_playbook(doc)
    # never write a playbook `playbooks validate` would refuse
    load_playbook_text(text, "standard output" if output is None else str(output))
    _emit(text, output)
    typer.echo(f"wrote {'standard output' if output is None else output}: {counted(len(doc['steps']), 'step')}, "
               f"{counted(len(doc['vars']), 'var')}", err=True)
    changing = select_commands(analysis, keep_changes=True)
    if changing:  # said, not silently dropped: the reader may want them in a runbook
        verb = "changes" if len(changing) == 1 else "change"
        typer.echo(f"left out {counted(len(changing), 'command')} that {verb} the host: {changes_text(changing)}",
                   err=True)
    stopped = select_commands(analysis, stopped=True)
    if stopped:  # a test server beside the one reported: a step would find nothing listening
        typer.echo(f"left out {counted(len(stopped), 'benchmark')} of a server the session started and stopped again: "
                   f"{changes_text(stopped, reason=False)}", err=True)
    cut = select_commands(analysis, cut=True)
    if cut:
        typer.echo(f"left out {counted(len(cut), 'command')} longer than {MAX_COMMAND_CHARS} characters, kept only in "
                   f"part: {changes_text(cut, reason=False)}", err=True)
    unclosed = select_commands(analysis, unclosed=True)
    if unclosed:  # the shell failed it before it ran; the loader refuses it as a step
        typer.echo(f"left out {counted(len(unclosed), 'command')} with a quote that never closes (the shell failed "
                   f"{'it' if len(unclosed) == 1 else 'them'} before {'it' if len(unclosed) == 1 else 'they'} ran): "
                   f"{changes_text(unclosed, reason=False)}", err=True)
    return 0


def _analyze_input(path: Path, input_format: str | None) -> SessionAnalysis:
    """PATH, or ``-``: standard input, saved to a temporary file first (see stdin_input)."""
    from spec_debug.session.analysis import analyze_path
    from spec_debug.session.stdin_input import relabel, spooled_stdin, wants_stdin

    if not wants_stdin(str(path)):
        return analyze_path(path, input_format)
    with spooled_stdin() as spooled:
        try:
            analysis = analyze_path(spooled, input_format)
        except UsageError as exc:
            # "--input-format codex does not fit" names the file: standard input, not the
            # temporary copy that is removed when the command ends
            exc.message = exc.message.replace(str(spooled), "standard input")
            raise
    relabel(analysis, spooled)
    return analysis


def _writable(output: Path | None, example: str, source: Path) -> None:
    """-o naming a folder fails before the session is read (a long transcript takes a while),
    with a file name for what this command writes (store.write_atomic suggests report.md); -o
    naming the transcript itself is refused (see store.refuse_overwriting)."""
    if output is not None and output.is_dir():
        raise RecordWriteError(f"cannot write {output}: it is a folder", hint=f"name a file, e.g. {output / example}")
    if output is not None:
        from spec_debug.store import refuse_overwriting

        refuse_overwriting((source,), output, "the transcript", example)


def _emit(text: str, output: Path | None) -> None:
    if output is None:
        # A stdout that is not UTF-8 (PYTHONIOENCODING=ascii, a latin-1 locale, a Windows
        # console) cannot take "·", "→" or a session's own non-ASCII text: the postmortem goes
        # out as UTF-8 bytes (what `> postmortem.md` wants), not a traceback or escapes.
        write_document(text)
        return
    write_output(output, text)  # a folder, /sys or a full disk: one line, not a traceback


def _run(fn, *args) -> None:
    try:
        code = fn(*args)
    except SpecDebugError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt as exc:
        # Ctrl-C, or SIGTERM/SIGHUP (SignalInterrupt): the worker processes are stopped, and
        # nothing was written, since the output is written whole at the end.
        reason = getattr(exc, "reason", "Ctrl-C")
        typer.echo(f"stopped: {reason}; nothing written", err=True)
        raise typer.Exit(130) from None
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add ``analyze`` and ``distill`` to the spec-debug app."""

    @app.command("analyze")
    def analyze(
        path: str = typer.Argument(..., help="A transcript file, a session folder, a directory of sessions, "
                                              "or - for standard input."),
        format: Optional[str] = typer.Option(None, "--format", "-f", metavar="md|html|json|FORMAT",
                                             help="Output: md or html postmortem, or json (default: from -o's "
                                                  "suffix, else md); or a transcript format to force, as "
                                                  "--input-format takes it.",
                                             autocompletion=complete_analyze_formats),
        input_format: str = typer.Option("auto", "--input-format", help=_INPUT_FORMAT_HELP,
                                         autocompletion=complete_input_formats),
        output_to: Optional[str] = typer.Option(None, "--output", "-o", help="Write here instead of stdout.",
                                                autocompletion=complete_output_path),
        as_json: bool = typer.Option(False, "--json", help="Same as --format json."),
        no_redact: bool = typer.Option(False, "--no-redact",
                                       help="Keep the secrets the session quoted (masked by default, in every format)."),
    ) -> None:
        """Turn an agent or shell debugging session into a timeline and a blameless postmortem."""
        # a str, the text as typed: a Typer Path made `-o ./-` into `-` (cli_common.dash_is_stdout)
        output = dash_is_stdout(output_to)
        try:
            format, input_format = split_format(format, input_format)
        except UsageError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(exc.exit_code) from None
        fmt = output_format(format, as_json, output)
        _run(analyze_command, _session_path(path), fmt, input_format, output, not no_redact)

    @app.command("distill")
    def distill(
        path: str = typer.Argument(..., help="A transcript file, a session folder, a directory of sessions, "
                                              "or - for standard input."),
        output_to: str = typer.Option(..., "--output", "-o", help="Playbook YAML to write (- for stdout).",
                                      autocompletion=complete_output_path),
        input_format: str = typer.Option("auto", "--input-format", help=_INPUT_FORMAT_HELP,
                                         autocompletion=complete_input_formats),
        name: Optional[str] = typer.Option(None, "--name", help="Playbook name (default: from the session id)."),
    ) -> None:
        """Write a playbook from the diagnostic commands that led to a finding or a change of approach."""
        _run(distill_command, _session_path(path), dash_is_stdout(output_to), input_format, name)
