"""The `spec-debug` command line: thin. Parses options, calls the library, prints with rich."""

from __future__ import annotations

import atexit
import errno
import io
import json
import os
import re
import signal
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spec_debug import __version__, cli_help
from spec_debug.cli_common import (complete_hosts, complete_output_path, complete_playbooks, complete_report_formats, complete_run_vars,
                                   complete_validate_formats, dash_is_stdout, err_console, fail, output_format,
                                   print_error, shown_text)
from spec_debug.counted import counted
from spec_debug.errors import PlaybookError, SignalInterrupt, SpecDebugError, UsageError, stop_reason
from spec_debug.store import write_output

if TYPE_CHECKING:
    from spec_debug.playbook.var_file import VarFile

cli_help.install()  # --help folds a word too wide for its cell instead of cutting it
app = typer.Typer(
    name="spec-debug",
    help="Diagnose slow EAGLE-3 speculative decoding (SGLang, vLLM): playbooks over SSH, coded findings, reports.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
)
playbooks_app = typer.Typer(help="List, show and validate playbooks.", no_args_is_help=True)
app.add_typer(playbooks_app, name="playbooks")

out_console = Console(emoji=False)  # as err_console: ':100:' in a path is no emoji


def parse_var_assignments(assignments: list[str]) -> dict[str, Any]:
    """--var K=V: the value is a string unless it is JSON-looking (numbers, true/false, lists).
    The guess for a var whose default has no type; the others take their default's type
    (playbook.var_types, from var_texts)."""
    from spec_debug.playbook.yaml_nodes import MAX_DEPTH, nests_too_deep

    values: dict[str, Any] = {}
    for key, text in var_texts(assignments).items():
        try:
            values[key] = _scalar(text)
        except RecursionError:  # json.loads gives up about 1,000 levels in
            values[key] = None
            too_deep = True
        else:
            too_deep = nests_too_deep(values[key])
        if too_deep:
            # A --var-file that deep is refused (yaml_nodes.MAX_DEPTH); 500 levels given here were
            # a RecursionError traceback from the masking of secrets, which walks every var.
            shown = text if len(text) <= 80 else f"{text[:80]}... ({len(text)} characters)"
            raise UsageError(f"--var {key}={shown}: the value nests lists and objects within each other more than "
                             f"{MAX_DEPTH} levels deep")
    return values


def var_texts(assignments: list[str]) -> dict[str, str]:
    """--var K=V as typed: K to the text V."""
    result: dict[str, str] = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--var {item!r} is not KEY=VALUE", hint=_not_key_value_hint(item))
        result[key.strip()] = _unquoted(value)
    return result


def _unquoted(value: str) -> str:
    """`-e "model='/models/Qwen 7B'"`, Ansible's way to give a value with spaces: Ansible reads
    the value without the quotes around it (ansible/ansible: lib/ansible/parsing/splitter.py,
    parse_kv, `unquote(v.strip())`; lib/ansible/parsing/quoting.py, is_quoted). They were kept
    here, so the command got the path with its quote marks ("No such file: '/models/Qwen 7B'").
    The same test as is_quoted: one pair of the same quote around it, the last not escaped."""
    if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'" and value[-2] != "\\":
        return value[1:-1]
    return value


def _not_key_value_hint(item: str) -> str:
    """Ansible's `-e @vars.yml` and `-e '{"model": "/x"}'`, typed here by habit (-e is --var's
    short name), were told only "e.g. --var python=...": the option that reads them is named."""
    if item.startswith("@") and len(item) > 1:
        return f"a file of vars is --var-file {item[1:]} (Ansible's -e @FILE)"
    if item.lstrip()[:1] == "{":
        return "write each var as --var KEY=VALUE, or put them in a YAML file: --var-file FILE"
    return "e.g. --var python=~/ml-env/bin/python"


def _scalar(value: str) -> Any:
    if value in ("true", "false", "null") or (value[:1] in "[{" and value[-1:] in "]}"):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    # Only a number YAML and JSON would write the same way: `rev=0123`, `gpus=08` and `n=1_000`
    # stay text (int() reads them as 123, 8 and 1000, losing what the user typed).
    if _INT.fullmatch(value):
        return int(value)
    if _FLOAT.fullmatch(value) and not _past_float_range(value):
        number = float(value)
        # `--var vllm_version=0.10` or `python_version=3.10`: as a float they print as 0.1 and 3.1
        # (the step ran `pip install vllm==0.1`); such a value stays as typed, and a var the
        # playbook declares as a number takes it back as one (runner.engine.Run).
        if _TRAILING_ZERO.fullmatch(value) and repr(number) != value:
            return value
        return number
    return value


def _past_float_range(value: str) -> bool:
    """`--var min_kl=1e-400` was the number 0.0 and 1e400 infinity, unsaid: such a value stays as
    typed, and a var the playbook declares as a number refuses it in one line
    (number_text.number_given_with_unit). Imported here only for an exponent of three digits:
    the playbook package brings Jinja, which a plain `spec-debug run` imports later."""
    if not re.search(r"[eE][-+]?[0-9]{3}", value):
        return False
    from spec_debug.playbook.float_range import past_float_range

    return past_float_range(value) is not None


_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_TRAILING_ZERO = re.compile(r"-?[0-9]+\.[0-9]*0")
_FLOAT = re.compile(r"-?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


@app.command()
def run(
    playbook: str = typer.Argument(..., help="A playbook file, or a shipped playbook's name (perf_regression)", autocompletion=complete_playbooks),
    host: list[str] = typer.Option([], "--host", "-H", help="A host: 'local', an ssh_config alias, or user@host:port. Repeatable, or a list (gpu01,gpu02; spaces and one a line too).",
                                   autocompletion=complete_hosts),
    hosts: list[str] = typer.Option([], "--hosts", help="A host range pattern such as gpu[01-16]. Repeatable."),
    inventory: Optional[Path] = typer.Option(None, "--inventory", "-i", help="An Ansible inventory: an INI or YAML file, or a folder with group_vars/ and host_vars/."),
    limit: Optional[str] = typer.Option(None, "--limit", "-l", help="Limit inventory hosts: names, groups, globs, !exclusions."),
    forks: int = typer.Option(16, "--forks", "-f", min=1, help="Hosts run in parallel."),
    var: list[str] = typer.Option([], "--var", "-e", help="Set a playbook var: KEY=VALUE. Repeatable.",
                                autocompletion=complete_run_vars),
    var_file: list[Path] = typer.Option([], "--var-file", help="A YAML file of vars. Repeatable; --var wins."),
    out: Path = typer.Option(Path("runs"), "--out", "-o", help="Parent directory of run folders."),
    as_json: bool = typer.Option(False, "--json", help="Print the final run.json to stdout."),
    ssh_config: Optional[Path] = typer.Option(None, "--ssh-config", "-F", help="ssh_config file (default: ~/.ssh/config, then /etc/ssh/ssh_config, as ssh reads them)."),
    accept_new: bool = typer.Option(False, "--accept-new", help="Trust unknown host keys on first connect (like StrictHostKeyChecking=accept-new); changed keys are still refused."),
    batch: bool = typer.Option(False, "--batch", help="Never prompt (encrypted keys fail with a clear error)."),
    connect_timeout: Optional[str] = typer.Option(None, "--connect-timeout", help="Seconds (or an ssh time: 1m, 1m30s) to wait for a host (default: ConnectTimeout from ssh_config, else 15; else 120 for the SSH handshake through a ProxyCommand, which may wait on a browser login). 0, as ConnectTimeout 0 to ssh: as long as the system's own TCP connect waits (127 s on Linux)."),
    known_hosts: Optional[Path] = typer.Option(None, "--known-hosts", help="Use this known_hosts file instead of ~/.ssh/known_hosts."),
    retry_failed: Optional[Path] = typer.Option(None, "--retry-failed", help="Re-run only the hosts that failed or were unreachable in RUN_DIR, or had a step that timed out or could not run."),
    step: bool = typer.Option(False, "--step", help="Step through interactively: run / skip / quit before each step."),
    junit: Optional[Path] = typer.Option(None, "--junit", help="Also write JUnit XML (host x step = test case)."),
    capture_limit: int = typer.Option(256 * 1024, "--capture-limit", help="Bytes of each stream kept in run.json (the rest goes to artifacts)."),
    artifact_limit: str = typer.Option("256M", "--artifact-limit", help="Bytes of each stream an artifact keeps at most (its head and end), e.g. 1G; 0 keeps all; also the bytes a fetch step copies in all. A step's artifact_limit overrides it."),
    show_output: bool = typer.Option(False, "--show-output", "-v", help="Stream the steps' output lines live."),
    no_redact: bool = typer.Option(False, "--no-redact", help="Keep secrets in run.json and reports (redacted by default)."),
) -> None:
    """Run a playbook on one or many hosts and write runs/<run-id>/ (run.json, report.md, report.html)."""
    from spec_debug.cli_run import execute_run, stopped_before_start
    from spec_debug.record import recorded_argv

    # `--inventory=~/hosts.ini` reaches us with the ~ (a shell expands it only at the start of
    # a word): expanded here as ssh and ansible do for their own options.
    inventory, ssh_config, known_hosts = _home(inventory), _home(ssh_config), _home(known_hosts)
    var_file = [path.expanduser() for path in var_file]
    try:
        try:
            var_files = _read_var_files(var_file)
        except KeyboardInterrupt as stop:
            raise stopped_before_start(stop) from None
        code = execute_run(
            playbook=playbook, host=host, hosts=hosts, inventory=inventory, limit=limit, forks=forks,
            cli_vars=_collect_vars(var, var_files), var_texts=var_texts(var), out=out, as_json=as_json, ssh_config=ssh_config,
            accept_new=accept_new, batch=batch, connect_timeout=connect_timeout, known_hosts=known_hosts, retry_failed=retry_failed, step=step, junit=junit,
            capture_limit=capture_limit, artifact_limit=artifact_limit, show_output=show_output, redact=not no_redact,
            console=err_console, argv=recorded_argv(sys.argv), var_files=var_files,
        )
    except SpecDebugError as exc:
        fail(exc)
    raise typer.Exit(code)


def _home(path: Optional[Path]) -> Optional[Path]:
    return path.expanduser() if path is not None else None


def _read_var_files(paths: list[Path]) -> list[VarFile]:
    # The playbook's YAML rules (bounded aliases, `0.10` and dates refused with a "quote it"
    # hint, file:line:column errors); imported here, as the CLI imports no YAML to start. Each
    # file is read once: `--var-file <(sops -d vars.yaml)` is a pipe.
    from spec_debug.playbook.var_file import read_var_file

    return [read_var_file(path) for path in paths]


def _collect_vars(var: list[str], var_files: list[VarFile]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for var_file in var_files:
        merged.update(var_file.values)
    merged.update(parse_var_assignments(var))
    return merged


@app.command()
def report(
    run_dir: Path = typer.Argument(..., help="A run folder (runs/<run-id>; a bare run id means ./runs/<run-id>) or its run.json."),
    fmt: Optional[str] = typer.Option(None, "--format", help="md | html | json (default: from -o's suffix, else md)",
                                      autocompletion=complete_report_formats),
    template: Optional[Path] = typer.Option(None, "--template", help="A Jinja2 template to render run.json with."),
    output_to: Optional[str] = typer.Option(None, "--output", "-o", help="Write here instead of stdout.",
                                            autocompletion=complete_output_path),
    as_json: bool = typer.Option(False, "--json", help="Same as --format json."),
) -> None:
    """Render a run record again (any time later, with any template)."""
    from spec_debug.report import render_report
    from spec_debug.store import load_record

    run_dir, template, output = run_dir.expanduser(), _home(template), _home(dash_is_stdout(output_to))
    try:
        fmt = output_format(fmt, as_json, output)
        if template is not None and template.is_dir():
            raise UsageError(f"--template {template}: is a folder", hint="name the template file, e.g. a .md.j2 or .html.j2 file in it")
        if template is not None and not template.is_file():
            raise UsageError(f"--template {template}: no such file")
        if output:
            from spec_debug.store import refuse_overwriting

            # the record may be named as its folder, its run.json, or a bare run id under ./runs
            refuse_overwriting((run_dir, run_dir / "run.json", Path("runs") / run_dir / "run.json"), output,
                               "the run record", f"report.{fmt}")
        record = load_record(run_dir)
        text = render_report(record, fmt, template, run_dir=_record_folder(run_dir))  # type: ignore[arg-type]
    except SpecDebugError as exc:
        fail(exc)
    if output:
        try:
            # as analyze, distill, explain and schema -o: the folder is made (`-o incidents/r.md`
            # was "the folder does not exist" here alone), a read-only file is kept
            write_output(output, text if text.endswith("\n") else text + "\n", example=f"report.{fmt}")
        except SpecDebugError as exc:
            fail(exc)
        # The path as text: `-o "[bold]x.md"` read "wrote x.md", and a "[/x]" in it raised MarkupError.
        err_console.print(f"wrote {escape(str(output))}", highlight=False)
    else:
        from spec_debug.stdout_document import write_document

        write_document(text if text.endswith("\n") else text + "\n")


def _record_folder(given: Path) -> Path | None:
    """The run folder `report` read, for the footer's re-render line; None for a bare run id
    (read from runs/<run-id>), which the footer names as is."""
    try:
        if given.is_dir():
            return given
        return given.parent if given.is_file() else None
    except OSError:
        return None


@playbooks_app.command("list")
def playbooks_list(as_json: bool = typer.Option(False, "--json", help="Print the list as JSON.")) -> None:
    """The shipped playbooks."""
    from spec_debug.playbook.loader import find_playbook, load_playbook, shipped_playbook_names

    rows = []
    for name in shipped_playbook_names():
        try:
            loaded = load_playbook(name)
            rows.append({"name": name, "steps": len(loaded.playbook.steps), "description": loaded.playbook.description, "path": str(find_playbook(name))})
        except SpecDebugError as exc:
            rows.append({"name": name, "steps": 0, "description": f"INVALID: {exc.message}", "path": ""})
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    table = Table("name", "steps", "description")
    for row in rows:
        table.add_row(row["name"], str(row["steps"]), row["description"].strip().splitlines()[0] if row["description"] else "")
    out_console.print(table)


@playbooks_app.command("show")
def playbooks_show(name: str = typer.Argument(..., help="A shipped playbook's name or a playbook file.",
                                         autocompletion=complete_playbooks)) -> None:
    """Print a playbook's YAML."""
    from spec_debug.playbook.loader import find_playbook

    try:
        path = find_playbook(name)
    except SpecDebugError as exc:
        fail(exc)
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        fail(SpecDebugError(f"{name}: cannot read it: {exc.strerror or exc}"))
    except UnicodeDecodeError as exc:
        # A binary file given by mistake: a playbook is YAML text, and printing the bytes raw
        # would leave the terminal in whatever mode they happen to switch on.
        fail(SpecDebugError(f"{name}: not a text file (byte {exc.start} is not UTF-8), not a playbook",
                            hint="pass a .yaml playbook file, or a shipped name from `spec-debug playbooks list`"))
    from spec_debug.stdout_document import write_document

    # the file's own text, in UTF-8 whatever the locale: through the console streams (which
    # escape what an ASCII one cannot encode) `playbooks show x > copy.yaml` under LANG=C wrote
    # "acc\xe9pt" where the playbook said "accépt", a changed playbook
    write_document(text)


@playbooks_app.command("validate")
def playbooks_validate(
    files: list[str] = typer.Argument(..., help="Playbook files or shipped names."),
    fmt: str = typer.Option("text", "--format", help="text | json: json prints one JSON document on stdout "
                            "(each file, and each error and warning with file, line, column, message, hint, severity).",
                            autocompletion=complete_validate_formats),
) -> None:
    """Validate playbooks; exit 2 with file:line:column on the first problem of each."""
    from spec_debug.playbook.loader import load_playbook
    from spec_debug.playbook.none_guard import none_guard_warnings

    fmt = fmt.lower()  # `--format JSON`, as the report commands take it (cli_common.output_format)
    if fmt not in ("text", "json"):
        fail(UsageError(f"--format {fmt!r} is not a format of playbooks validate", hint="--format text (the default) or --format json"))
    as_json = fmt == "json"
    checked: list[dict[str, Any]] = []
    problems: list[dict[str, Any]] = []
    bad = 0
    for done, name in enumerate(files):
        try:
            loaded = load_playbook(name)
            warnings = none_guard_warnings(loaded.playbook, loaded.text, loaded.path)
            if as_json:
                checked.append({"file": str(loaded.path), "ok": True, "steps": len(loaded.playbook.steps)})
                problems.extend(_validate_problem(w.error or SpecDebugError(w.located), str(loaded.path), "warning", w.hint)
                                for w in warnings)
                continue
            out_console.print(f"[green]ok[/] {escape(shown_text(loaded.path))} ({counted(len(loaded.playbook.steps), 'step')})",
                              highlight=False)
            # Loads and runs, but a guard will not guard: said, not refused (exit 0).
            for warned in warnings:
                err_console.print(f"[bold yellow]warning:[/] {escape(shown_text(warned.located))}", highlight=False, soft_wrap=True)
                err_console.print(f"  [dim]hint:[/] {escape(shown_text(warned.hint))}", highlight=False, soft_wrap=True)
        except SpecDebugError as exc:
            bad += 1
            if as_json:
                problem = _validate_problem(exc, name, "error", exc.hint)
                checked.append({"file": problem["file"], "ok": False, "steps": None})
                problems.append(problem)
            else:
                print_error(exc)
        except KeyboardInterrupt as stop:
            # Ctrl-C, SIGTERM or SIGHUP while a file is read (a FIFO, a stalled NFS mount): Typer
            # exited 130 and printed nothing, and a CI log showed no reason and no file.
            err_console.print(f"stopped: {escape(stop_reason(stop))} while reading {escape(name)}; "
                              f"{done} of {counted(len(files), 'playbook')} checked", highlight=False)
            raise typer.Exit(130) from None
    if as_json:
        # One document, for CI annotations and editors: the text form's lines are for people
        # (file:line:column: message (at key) and a hint line apart), and parsing them back broke on
        # a message holding ": ".
        print(json.dumps({"ok": not bad, "files": checked, "problems": problems}, indent=2))
    raise typer.Exit(2 if bad else 0)


def _validate_problem(exc: SpecDebugError, name: str, severity: str, hint: str | None) -> dict[str, Any]:
    """An error or warning of `playbooks validate --format json`: its parts apart, the message
    without the file:line:column the text form puts first."""
    if isinstance(exc, PlaybookError):
        return {"file": exc.path or name, "line": exc.line, "column": exc.column, "key_path": exc.key_path,
                "message": exc.bare_message, "hint": hint, "severity": severity}
    return {"file": name, "line": None, "column": None, "key_path": None, "message": exc.message, "hint": hint,
            "severity": severity}


@app.command()
def schema(output_to: Optional[str] = typer.Option(None, "--output", "-o", help="Write here instead of stdout.",
                                                   autocompletion=complete_output_path)) -> None:
    """The playbook JSON Schema (for yaml-language-server: `# yaml-language-server: $schema=...`)."""
    from spec_debug.playbook.models import playbook_json_schema

    text = json.dumps(playbook_json_schema(), indent=2)
    output = dash_is_stdout(output_to)
    if output:
        from spec_debug.store import write_output

        try:
            write_output(output.expanduser(), text + "\n", example="playbook.schema.json")  # a folder, a read-only mount: one line
        except SpecDebugError as exc:
            fail(exc)
    else:
        print(text)


@app.command()
def version() -> None:
    """Print the version."""
    print(__version__)


def _print_version(value: bool) -> None:
    if value:
        print(__version__)
        raise typer.Exit()


@app.callback()
def _main_options(
    _version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                  help="Print the version and exit (as `spec-debug version`)."),
) -> None:
    # `spec-debug --version`, what a new user types first (pip, git, ssh, sglang all take it),
    # was "No such option: --version" and exit 2: the version lived in a subcommand alone.
    pass


def _mount_optional_commands() -> None:
    """Commands from the diagnostics, drafter and analyzer packages."""
    try:
        from spec_debug.eagle3.commands import drafter_app
    except ImportError:
        pass
    else:
        app.add_typer(drafter_app, name="drafter", help="The standalone EAGLE-3 drafter: exact forward, evaluation, layout probe.")
    try:
        from spec_debug.session.commands import register as register_session
    except ImportError:
        pass
    else:
        register_session(app)
    try:
        from spec_debug.cli_extra import register as register_extra
    except ImportError:
        pass
    else:
        register_extra(app)


_mount_optional_commands()


def _raise_interrupt(reason: str):
    def handler(signum, frame) -> None:
        raise SignalInterrupt(reason)
    return handler


def _escape_what_the_terminal_cannot_show() -> None:
    """Reports and tables hold "—", "·", "µ" and whatever a host printed: on an ASCII stdout
    (PYTHONIOENCODING=ascii, a serial console, an old LANG=C Python) each was a
    UnicodeEncodeError traceback. They are written as \\u escapes instead."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # absent on a replaced stream (pytest capture)
        if reconfigure is not None and stream.errors == "strict":
            reconfigure(errors="backslashreplace")


def main() -> None:
    # SIGTERM (a CI runner cancelling us) and SIGHUP (the terminal or SSH session we ran in went
    # away) abort like Ctrl-C: the hosts are stopped and the record is still written.
    # One the process was started with ignored is left ignored: `nohup spec-debug run ... &`
    # (nohup(1) sets SIGHUP to SIG_IGN so that the command outlives its terminal) was aborted
    # "hung up" at logout, the very signal it was started to survive. Python leaves an ignored
    # SIGINT ignored the same way (a background job of a script).
    for signum, reason in ((signal.SIGTERM, "terminated (SIGTERM)"),
                           (signal.SIGHUP, "hung up (SIGHUP: the terminal or SSH session went away)")):
        if signal.getsignal(signum) != signal.SIG_IGN:
            signal.signal(signum, _raise_interrupt(reason))
    _stdout_if_closed()
    _escape_what_the_terminal_cannot_show()
    # Python's re warns that `[[]` or `[a--b]` may mean a set operation one day (a FutureWarning
    # per compile, printed raw with a source line of ours in the middle of a run's progress):
    # the playbook's regex matches as written today, which is what it is run with.
    warnings.filterwarnings("ignore", message=r"Possible (nested set|set (difference|intersection|symmetric "
                            r"difference|union))", category=FutureWarning)
    try:
        app(prog_name=_completion_program(sys.argv[1:]))
    except SystemExit as exc:
        _exit_at_once_on_signals(exc.code)
        raise
    except SpecDebugError as exc:  # raised outside a command's own handling
        print_error(exc)
        _exit_at_once_on_signals(exc.exit_code)
        sys.exit(exc.exit_code)
    except OSError as exc:
        # Writing the output failed (stdout on a full disk, `> /dev/full`, an NFS home gone
        # away): one line that says so, not a traceback. The exit code is the one of a record
        # that cannot be written.
        _quiet_stdout()
        what = f"{exc.filename}: " if exc.filename else "writing the output: "
        print_error(SpecDebugError(f"{what}{exc.strerror or exc}"))
        _exit_at_once_on_signals(3)
        sys.exit(3)


def _completion_program(args: list[str]) -> str | None:
    """"spec-debug" where the command line asks for the shell completion script, else None
    (click's own name for the program). Typer names the script's function, its environment
    variable and the command `complete` binds after the program: under `python -m spec_debug`
    that was "_PYTHON _M SPEC_DEBUG_COMPLETE" (a variable with spaces, which bash runs as a
    command) and `complete ... python -m spec_debug`, written to "~/.bash_completions/python -m
    spec_debug.sh": completion never worked. It is the `spec-debug` command's completion (the
    console script the shell runs); usage lines keep "python -m spec_debug", what was typed."""
    for word in args:
        if not word.startswith("-"):
            return None  # a command: the completion options belong to the top level only
        if word.split("=", 1)[0] in ("--install-completion", "--show-completion"):
            return "spec-debug"
    return None


def _exit_at_once_on_signals(code: object) -> None:
    """The command is over and its exit code decided; what is left is the interpreter winding
    down (the host threads joined, then a fleet's record freed: half a second after a 60-host
    run). A second Ctrl-C there (the first stopped the reports) killed the process with SIGINT
    (status 130 in a shell, no word) instead of the 3 that says the run was aborted, with
    run.json complete. A signal now ends the process at once with the code decided while
    threads are joined; once they are (atexit runs after that), the last teardown ignores
    signals: CPython puts a handler of ours back to SIG_DFL before it frees the objects
    (_PySignal_Fini), and an ignored one it leaves."""
    status = code if isinstance(code, int) else 0 if code is None else 1

    def end(signum, frame) -> None:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # a closed or broken stream: nothing more can be said on it
                pass
        os._exit(status)

    _set_stop_signals(end)
    atexit.register(_set_stop_signals, signal.SIG_IGN)


def _set_stop_signals(handler: Any) -> None:
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        try:
            signal.signal(signum, handler)
        except (ValueError, OSError):  # not the main thread (an embedding caller): left as it is
            pass


class _ClosedStdout(io.TextIOBase):
    """sys.stdout for a process started with file descriptor 1 closed (`spec-debug run ... --json
    >&-`, a job runner that closes it): Python sets sys.stdout to None, and the first document
    written to it (run --json after the whole run, report, explain) was a traceback,
    "AttributeError: 'NoneType' object has no attribute 'write'". A write now fails as one to a
    broken disk does: main() says "writing the output: standard output is closed", exit 3."""

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def fileno(self) -> int:
        return 1


def _stdout_if_closed() -> None:
    if sys.stdout is not None:
        return
    try:
        # /dev/null holds descriptor 1: else the next file opened (run.json's temporary file)
        # would get it, and anything written to "stdout" would land in that file.
        devnull = os.open(os.devnull, os.O_WRONLY)
        if devnull != 1:
            os.dup2(devnull, 1)
            os.close(devnull)
    except OSError:
        pass
    sys.stdout = _ClosedStdout()


def _quiet_stdout() -> None:
    """Point stdout at /dev/null: the interpreter flushes it on exit, and a second failure
    there would print Python's own "Exception ignored" lines after our message."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # a replaced stream without a file descriptor
        pass


if __name__ == "__main__":
    main()
