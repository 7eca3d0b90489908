"""`spec-debug run`: from options to hosts, a run, its reports and its exit code."""

from __future__ import annotations

import json
import math
import os
import shlex
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from spec_debug.cli_common import shown_text
from spec_debug.cli_progress import ConsoleReporter
from spec_debug.errors import RunAborted, SpecDebugError, UsageError, stop_reason
from spec_debug.playbook.loader import LoadedPlaybook, load_playbook
from spec_debug.playbook.var_file import VarFile, check_var_file_names, check_var_file_templates
from spec_debug.playbook.literal_texts import refuse_var_templates
from spec_debug.playbook.none_guard import none_guard_warnings
from spec_debug.playbook.var_types import typed_like_defaults, typed_var_file_values
from spec_debug.playbook.models import parse_size
from spec_debug.record import RunRecord, given_var_names, shell_word, some_names, split_program, unshown_bytes
from spec_debug.redact import MASK, redact_with_values, secret_values
from spec_debug.report import write_reports
from spec_debug.report.views import not_reached_words, nothing_checked
# Imported before the run, not when the outputs are written: ElementTree's C accelerator links
# pyexpat through PyCapsule_Import, which turns any failure of that import, a Ctrl-C's
# KeyboardInterrupt included, into an ImportError that ElementTree swallows. A signal landing
# there was lost and the CLI waited on a --junit FIFO until kill -9.
from spec_debug.report.github import append_step_summary
from spec_debug.report.junit import write_junit
from spec_debug.runner.engine import SKIPPED_BY_USER, HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.runner.runner_findings import checks_not_evaluated, said_checks_not_evaluated
from spec_debug.store import RecordWriteError, RunStore, load_record, report_commands


def resolve_targets(
    host: list[str],
    hosts: list[str],
    inventory: Path | None,
    limit: str | None,
    *,
    ssh_config: Path | None,
    accept_new: bool,
    batch: bool,
    connect_timeout: float | None = None,
    known_hosts: Path | None = None,
    only: set[str] | None = None,
    prompt_guard: Callable[[], AbstractContextManager[object]] | None = None,
) -> list[HostTarget]:
    if not host and not hosts and inventory is None:
        raise UsageError("no host given", hint="pass --host local, --host gpu01, --hosts gpu[01-08] or --inventory FILE")
    # --limit goes through the selection as for any host: `--host local --limit gpu01` ran on
    # this machine anyway, where `--host gpu02 --limit gpu01` says there is nothing to run on.
    if all(h == "local" for h in host) and not hosts and inventory is None and limit is None:
        targets = [HostTarget(name="local", connect=LocalTransport, transport="local")]
    else:
        try:
            from spec_debug.runner.hosts import ConnectOptions, open_transport, resolve_hosts
        except ImportError as exc:
            # Said as Python said it: a paramiko whose cryptography cannot load its OpenSSL
            # ("libssl.so.3: cannot open shared object file") read as "not installed".
            raise UsageError(f"the SSH transport cannot be loaded ({type(exc).__name__}: {exc}); only --host local works",
                             hint="install or repair it: pip install 'paramiko>=3.4' (and its cryptography)") from None
        if ssh_config is not None:
            # Read once here: a mistyped -F was found only when each host connected, as a host
            # error (exit 3, "host unreachable", a run folder per try) for what is a usage error.
            from spec_debug.runner.ssh_config import load_ssh_config

            load_ssh_config(ssh_config)
        options = ConnectOptions(
            ssh_config_path=ssh_config, accept_new=accept_new, batch=batch,
            connect_timeout_s=connect_timeout, known_hosts=known_hosts, prompt_guard=prompt_guard,
        )
        specs = resolve_hosts(host, hosts, inventory, limit, warn=_warn_on_stderr, ssh_config=ssh_config)
        targets = [
            HostTarget(
                name=spec.name,
                connect=(lambda spec=spec: open_transport(spec, options)),
                vars=dict(spec.vars),
                transport=spec.transport,
                address=getattr(spec, "address", None),
                warnings=tuple(spec.warnings),
                var_sources=dict(getattr(spec, "var_sources", {})),
            )
            for spec in specs
        ]
    if only is not None:
        selected = [t.name for t in targets]
        targets = [t for t in targets if t.name in only]
        if not targets:
            # `--retry-failed RUN -i hosts.ini --limit gpu02` where gpu01 failed: "no host of
            # that run failed" sent the reader to a run whose report said gpu01 failed.
            raise UsageError(
                f"--retry-failed: no host selected here ({some_names(selected)}) failed or went unanswered in that run; "
                f"those that did: {some_names(sorted(only))}",
                hint="leave out --limit and the hosts given (--host, --hosts, -i: the run's own are reused) to re-run them all",
            )
    names = [t.name for t in targets]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise UsageError(f"host {sorted(duplicates)[0]!r} is given twice")
    return targets


def _warn_on_stderr(message: str) -> None:
    sys.stderr.write(f"warning: {shown_text(message)}\n")


# The files of a recorded run that say where its hosts are and how they are reached: its hosts
# are inventory names or ssh_config aliases (lab08), which only those files turn into addresses,
# ports, users and keys, and a lab's own known_hosts says whose keys they are. Retrying them by
# name alone failed with "cannot resolve host name" (or reached another machine of that name).
_REACH_FILES = {
    "inventory": (("-i", "--inventory"), "ran on the inventory"),
    "ssh_config": (("-F", "--ssh-config"), "ran with the ssh_config"),
    "known_hosts": (("--known-hosts",), "ran with the known_hosts file"),
}


def _previous_file(command_line: list[str], option: str, run_dir: Path) -> Path | None:
    """The file a recorded run was given for option (`-i FILE`, `--inventory FILE`,
    `--inventory=FILE`), as it is found from here; None when that run was given none."""
    names, ran_with = _REACH_FILES[option]
    given = None
    for i, arg in enumerate(command_line):
        name, eq, value = arg.partition("=")
        if arg in names and i + 1 < len(command_line):
            given = command_line[i + 1]
        elif eq and name.startswith("--") and name in names:
            given = value
        elif not arg.startswith("--") and len(arg) > 2 and arg[:2] in names:
            # `-ihosts.ini`, `-Fnone`: a short option with its value attached, as click (and
            # ssh(1)'s -F) take it. Missed, the retry ran without the file: "cannot resolve
            # host name 'lab08'" for a host the inventory had reached.
            given = arg[2:]
    if given is None:
        return None
    if option == "ssh_config" and given.lower() == "none":
        return Path(given)  # `-F none`: no config at all, as ssh(1) reads it
    path = Path(given).expanduser()
    if not path.exists():
        # relative to where that run was started, which may not be here
        raise UsageError(f"--retry-failed: {run_dir} {ran_with} {given}, which is not found from here",
                         hint=f"pass it again: --retry-failed {run_dir} {names[0]} PATH/TO/{path.name}")
    return path


# How far back a chain of retries is followed for a file (each run a retry of the one before).
_RETRY_CHAIN_LIMIT = 20


def _inherited_file(command_line: list[str], option: str, run_dir: Path, depth: int = 0) -> Path | None:
    """_previous_file, or where the recorded run was itself a retry given no such file, the file
    it took from the run it retried (as this retry does), and so on back. A retry typed without
    -i (`run PB --retry-failed RUN`) records no -i: retried in turn, its failed hosts' inventory
    names were taken for host names ("cannot resolve host name 'gone'"). A run given hosts of
    its own (--host, --hosts) took no inventory from before: the chain stops there."""
    found = _previous_file(command_line, option, run_dir)
    if found is not None or depth >= _RETRY_CHAIN_LIMIT:
        return found
    if option == "inventory" and any(arg.partition("=")[0] in ("--host", "-H", "--hosts") or
                                     (arg[:2] == "-H" and not arg.startswith("--")) for arg in command_line):
        return None
    earlier = _retried_run(command_line)
    if earlier is None:
        return None
    try:
        record = load_record(Path(earlier), warn=lambda _: None, pass_as="--retry-failed")
    except SpecDebugError:
        return None  # moved or removed since: the file stays unknown, as before
    return _inherited_file(split_program(list(record.command_line))[1], option, Path(earlier), depth + 1)


def _retried_run(command_line: list[str]) -> str | None:
    """The run folder a recorded command line's --retry-failed named, if any (its last)."""
    given = None
    for i, arg in enumerate(command_line):
        if arg == "--retry-failed" and i + 1 < len(command_line):
            given = command_line[i + 1]
        elif arg.startswith("--retry-failed="):
            given = arg.partition("=")[2]
    return given


_INT_MAX = 2**31 - 1  # ssh(1) keeps a time as an int of seconds


def _value_text(seconds: float) -> str:
    """1e12 as `1000000000000`, 2.5 as `2.5`: the number as a user would write it back."""
    return f"{seconds:.0f}" if seconds.is_integer() else repr(seconds)


def _connect_timeout_seconds(value: float | str | None) -> float | None:
    """--connect-timeout as seconds. `-o ConnectTimeout=1m` took ssh(1)'s time forms (1m, 1m30s;
    openssh-portable: misc.c, convtime) while `--connect-timeout 1m` was refused by the option
    parser as "not a valid number"; both now read the same way (ssh_config_values._seconds).
    A plain number (`15`, `2.5`, `nan`) stays a float, checked by the caller."""
    if value is None or isinstance(value, (int, float)):
        return value
    try:
        return float(value)
    except ValueError:
        pass
    if value.strip().lower() == "none":
        return None  # as `-o ConnectTimeout=none`: ConnectTimeout from ssh_config, else 15 s
    refusal = f"--connect-timeout {value}: must be a number of seconds, e.g. 15, or an ssh time such as 1m30s"
    hint = "leave it out to use ConnectTimeout from ssh_config, else 15 s"
    try:
        # Here only for a time with units: the SSH modules (paramiko) stay unloaded for `15`.
        from spec_debug.runner.ssh_config_values import _seconds
    except ImportError:
        raise UsageError(refusal, hint=hint) from None
    try:
        return _seconds(value, "ConnectTimeout", 0.0)
    except UsageError as exc:
        over = " (over 2147483647 seconds, as ssh(1) refuses it)" if "2147483647" in exc.message else ""
        raise UsageError(refusal + over, hint=hint) from None


def execute_run(
    *,
    playbook: str,
    host: list[str],
    hosts: list[str],
    inventory: Path | None,
    limit: str | None,
    forks: int,
    cli_vars: dict[str, Any],
    out: Path,
    as_json: bool,
    ssh_config: Path | None,
    accept_new: bool,
    batch: bool,
    connect_timeout: float | str | None,
    known_hosts: Path | None,
    retry_failed: Path | None,
    step: bool,
    junit: Path | None,
    capture_limit: int,
    artifact_limit: str,
    show_output: bool,
    redact: bool,
    console: Console,
    argv: list[str],
    var_files: list[VarFile] | None = None,
    var_texts: dict[str, str] | None = None,
) -> int:
    if capture_limit < 0:
        # A negative limit kept a few bytes of the tail's end and cut everything else.
        raise UsageError(f"--capture-limit {capture_limit}: must be a number of bytes, 0 or more",
                         hint="0 keeps no output in run.json (the stream goes to artifacts/, up to the artifact limit)")
    connect_timeout = _connect_timeout_seconds(connect_timeout)
    if connect_timeout is not None and not (math.isfinite(connect_timeout) and connect_timeout >= 0):
        # nan and inf reached the socket: "internal error: ValueError: Invalid value NaN" and
        # "OverflowError: timestamp out of range" on every SSH host, after the run started.
        raise UsageError(f"--connect-timeout {connect_timeout}: must be a number of seconds, e.g. 15",
                         hint="leave it out to use ConnectTimeout from ssh_config, else 15 s")
    if connect_timeout is not None and connect_timeout > _INT_MAX:
        # `--connect-timeout 1e12` reached the socket: "internal error: OverflowError: timestamp
        # out of range for platform time_t" on every SSH host after the run started. ssh(1)
        # refuses a time past INT_MAX (openssh-portable: misc.c, convtime), as `-o` does here.
        raise UsageError(f"--connect-timeout {_value_text(connect_timeout)}: over 2147483647 seconds, as ssh(1) refuses it",
                         hint="write at most 2147483647 seconds (e.g. 3000w), or 0 for the system's own TCP wait")
    try:
        artifact_bytes = parse_size(artifact_limit)
    except ValueError as exc:
        raise UsageError(f"--artifact-limit {artifact_limit}: {exc}",
                         hint="bytes or a number with a unit: 512M, 2GiB; 0 keeps all") from None
    # `--out=~/incident-runs` reaches us with the ~ (a shell expands it only at the start of a
    # word), and a folder named "~" in the current one is a trap for the `rm -rf ~` that follows.
    out = out.expanduser()
    junit = junit.expanduser() if junit is not None else None
    if junit is not None:
        _check_junit_target(junit)
    retry_failed = retry_failed.expanduser() if retry_failed is not None else None
    try:
        store, run = _prepare_run(
            playbook=playbook, host=host, hosts=hosts, inventory=inventory, limit=limit, forks=forks,
            cli_vars=cli_vars, out=out, ssh_config=ssh_config, accept_new=accept_new, batch=batch,
            connect_timeout=connect_timeout, known_hosts=known_hosts, retry_failed=retry_failed, step=step,
            capture_limit=capture_limit, artifact_bytes=artifact_bytes, show_output=show_output, redact=redact,
            console=console, argv=argv, var_files=var_files, var_texts=var_texts,
        )
    except KeyboardInterrupt as exc:
        raise stopped_before_start(exc) from None
    done: set[str] = set()  # the outputs finish_outputs wrote whole, as a stop finds them
    try:
        # execute() answers a Ctrl-C during the steps itself (an aborted record); it raises one
        # only after the last record is written, when the reports are what it stops.
        record = run.execute()
        finish_outputs(record, store.run_dir, junit=junit, console=console,
                       planned=[s.id for s in run.playbook.steps], done=done)
    except RecordWriteError:
        if as_json:
            # A full or read-only runs folder: `run --json > run.json` got nothing, and the
            # results were in no file at all. stdout gets the record as it stands (aborted, the
            # steps run so far); the error still goes to stderr, exit 3.
            _write_stdout(run.record.model_dump_json(indent=2) + "\n")
        raise
    except KeyboardInterrupt as exc:
        if not run.recorded:
            # The stop came before execute() queued signals (between the folder's mkdir and the
            # run's first write): "run.json is complete" was said of a folder left empty, which
            # `ls runs | tail -1` then picked as the latest run.
            store.discard_if_empty()
            raise stopped_before_start(exc) from None
        # Ctrl-C or SIGTERM while the reports are written (a slow --junit pipe, a large record):
        # run.json is complete. Exit as aborted, not click's "Aborted!" 1 (which reads as
        # "error findings"), and say how to get the reports.
        said, complete = _interrupted_outputs(store.run_dir, junit, done, as_json=as_json)
        if not complete:
            _say(console, said)
            return 3
        # Stopped once every output was written (while the verdict was printed): nothing is
        # left undone, and the exit code is the run's own, as for a step summary it cannot
        # append. It was 3, "aborted", for a run that passed with every file in place.
        code = exit_code_for(run.record)
        _say(console, f"{said}; the run {escape(run.record.status)} (exit {code})")
        return code
    if as_json:
        try:
            _write_stdout(record.model_dump_json(indent=2) + "\n")
        except KeyboardInterrupt as exc:
            # Ctrl-C or SIGTERM while --json waited on a slow or stalled reader: it reached Typer
            # as a silent exit 130, and the reader got part of a JSON document with no word why.
            _say(console, escape(f"{stop_reason(exc)} while --json wrote the record to stdout, which holds part of it; "
                                 f"{store.run_dir / 'run.json'} is complete"))
            return 3
    return exit_code_for(record)


def stopped_before_start(exc: KeyboardInterrupt) -> RunAborted:
    """Ctrl-C, SIGTERM or SIGHUP while the playbook, a var file or an inventory was read (a
    FIFO, a stalled NFS mount) or a host's address resolved reached Typer, which exits 130 and
    prints nothing: a CI job cancelled there logged no reason. Aborted (3) like every other
    stop, saying what stopped it. No run folder is left: RunStore.create, _prepare_run and
    execute_run remove the one made, up to the run's first record."""
    return RunAborted(f"stopped before the run started: {stop_reason(exc)}; nothing was run or recorded")


def _prepare_run(
    *,
    playbook: str,
    host: list[str],
    hosts: list[str],
    inventory: Path | None,
    limit: str | None,
    forks: int,
    cli_vars: dict[str, Any],
    out: Path,
    ssh_config: Path | None,
    accept_new: bool,
    batch: bool,
    connect_timeout: float | None,
    known_hosts: Path | None,
    retry_failed: Path | None,
    step: bool,
    capture_limit: int,
    artifact_bytes: int,
    show_output: bool,
    redact: bool,
    console: Console,
    argv: list[str],
    var_files: list[VarFile] | None,
    var_texts: dict[str, str] | None = None,
) -> tuple[RunStore, Run]:
    """The playbook, vars and hosts read, the run folder made and the Run built: all that comes
    before the first record."""
    loaded = load_playbook(playbook)
    # A guard that will not guard (none_guard.py): `playbooks validate` warned, `run` said
    # nothing and the host missing the flag came back SD003, "nothing was checked". Said before
    # the first host is touched, not refused: the guard is right where the capture is skipped.
    load_warnings = tuple(none_guard_warnings(loaded.playbook, loaded.text, loaded.path))
    for warned in load_warnings:
        _say(console, f"[bold yellow]warning:[/] {escape(warned.located)}")
        _say(console, f"  [dim]hint:[/] {escape(warned.hint)}")
    # Each --var as the type of its default, refused in one line before any host is touched.
    refuse_var_templates(var_texts or {}, loaded.playbook.vars)  # the braces would reach the host
    cli_vars = {**cli_vars, **typed_like_defaults(var_texts or {}, cli_vars, loaded.playbook.vars)}
    # The --var names of this command; cli_vars holds its --var-file values too (cli._collect_vars).
    typed_now = set(var_texts) if var_texts is not None else set(cli_vars)
    from_files: dict[str, str] = {}  # RunOptions.var_files
    for var_file in var_files or []:
        # A var the file holds and the playbook does not declare was refused by Run as
        # "--var NAME is not a var of playbook ...", naming the playbook: the user, who passed
        # no such --var, looked there. Name the var file and the line instead.
        check_var_file_names(var_file, loaded.playbook.vars, loaded.playbook.name)
        # --var wins over the file, so a value it replaces is not checked either.
        kept = {name: value for name, value in var_file.values.items() if name not in (var_texts or {})}
        check_var_file_templates(var_file, loaded.playbook.vars, set(kept))
        cli_vars.update(typed_var_file_values(kept, loaded.playbook.vars, str(var_file.path), var_file.text))
        from_files.update(dict.fromkeys(kept, str(var_file.path)))
    only: set[str] | None = None
    if retry_failed is not None:
        # `--retry-failed runs` (the folder of runs): the hint named the latest run as
        # "spec-debug report runs/<id>", another command than the one being typed.
        previous = load_record(retry_failed, pass_as="--retry-failed")
        previous_args = split_program(list(previous.command_line))[1]
        if previous_args[:1] == ["demo"]:
            # The demo's host is built on this machine by `spec-debug demo`; over SSH it is no host.
            raise UsageError(f"--retry-failed: {retry_failed} is a demo run; its host exists only inside the demo",
                             hint="run `spec-debug demo` again")
        only = _hosts_to_retry(previous)
        if not only:
            # With no -i in that run the hosts to retry become --host NAMEs: none said "no host
            # given, pass --host local", as if the run directory had not been read.
            raise UsageError("--retry-failed: no host of that run failed; nothing to re-run")
        notice = _other_playbook_notice(previous, loaded, retry_failed)
        if notice is not None:
            _say(console, f"[yellow]notice:[/] {escape(notice)}")
        if not host and not hosts and inventory is None:
            inventory = _inherited_file(previous_args, "inventory", retry_failed)
            if inventory is None:
                host = [h.name for h in previous.hosts if h.name in only]
        over_ssh = any(h.transport != "local" for h in previous.hosts if h.name in only)
        if ssh_config is None and over_ssh:
            ssh_config = _inherited_file(previous_args, "ssh_config", retry_failed)
        if known_hosts is None and over_ssh:
            known_hosts = _inherited_file(previous_args, "known_hosts", retry_failed)
        reused = {k: v for k, v in previous.vars.items() if k in loaded.playbook.vars and loaded.playbook.vars[k] != v}
        for name in _masked_defaults(reused, loaded.playbook.vars, previous_args):
            del reused[name]
        for name in _won_over_var_files(reused, cli_vars, typed_now, previous_args):
            # That run's --var won over its --var-file; the file, given again (as the report's
            # retry command gives it), took the var back, and the retry ran with another value.
            from_files.pop(name, None)
            if cli_vars.pop(name) != reused[name] and MASK not in json.dumps(reused[name]):
                # Said: a file given to change the value would otherwise lose to it unsaid.
                _say(console, f"[yellow]notice:[/] --retry-failed: {escape(name)}: the value that run was given by --var "
                              f"is used over the --var-file's, as it was then; pass --var {escape(name)}=... to give it otherwise")
        masked = sorted(k for k, v in reused.items() if k not in cli_vars and MASK in json.dumps(v))
        if masked:
            # The record keeps secrets masked: reusing the value would run with the mask as the key.
            # A run that read its secrets from a --var-file: that file first, not a token typed
            # on the command line (and into shell history).
            files = [shell_word(f) for f in _previous_var_files(previous_args)]  # a Latin-1 path as $'\xe9'
            if set(masked) <= (given_var_names(previous_args, files_unknown=False) or set()):
                files = []  # that run took them from --var, over its file: the file has another value
            raise UsageError(
                f"--retry-failed: the value of {masked[0]} was masked in {retry_failed}; pass it again",
                hint=" ".join(f"--var {k}=..." for k in masked) if not files else
                f"{' '.join('--var-file ' + f for f in files)} (that run read it), or {' '.join(f'--var {k}=...' for k in masked)}",
            )
        # run.json shows a byte that is no UTF-8 (a Latin-1 folder name typed as --var) as the
        # text `\xe8` (record.shown_surrogate): reused as written, the retry named a file the
        # host does not have. It is sent back as the byte; said, as a value's own `\xe8` text
        # (rare: a regex) would be read so too.
        for name, value in list(reused.items()):
            restored = unshown_bytes(value) if name not in cli_vars and isinstance(value, str) else value
            if restored != value:
                reused[name] = restored
                shown = sorted({f"0x{ord(c) - 0xDC00:02x}" for c in restored if 0xDC80 <= ord(c) <= 0xDCFF})
                _say(console, f"[yellow]notice:[/] --retry-failed: {escape(name)}: its \\x.. in run.json read as the "
                              f"byte(s) {', '.join(shown)} typed for it; pass --var {escape(name)}=... to give it otherwise")
        cli_vars = {**reused, **cli_vars}
    reporter = ConsoleReporter(console, show_output=show_output, spinner=not step)
    targets = resolve_targets(host, hosts, inventory, limit, ssh_config=ssh_config, accept_new=accept_new, batch=batch,
        connect_timeout=connect_timeout, known_hosts=known_hosts, only=only, prompt_guard=reporter.paused,
    )
    gate = None
    if step:
        from spec_debug.explain import _piped, _run_argument
        from spec_debug.stepthrough import TerminalGate

        gate = TerminalGate(console, stdin=_answers_from([Path(loaded.path), *(f.path for f in var_files or [])]),
                            fleet=len(targets) > 1, playbook=None if _piped(loaded) else _run_argument(loaded))
        reporter.gate = gate  # the step-through's account of a step is the one said (ConsoleReporter)
        forks = 1  # one conversation at a time
    _quiet_on_broken_pipe(console)
    store = RunStore.create(out, loaded.playbook.name)
    try:
        options = RunOptions(
            forks=forks, capture_limit=capture_limit, artifact_limit=artifact_bytes or None, redact=redact,
            reporter=reporter, gate=gate, command_line=list(argv), load_warnings=load_warnings, var_files=from_files,
        )
        run = Run(loaded, targets, store, cli_vars, options)
        return store, run
    except BaseException:  # a refused --var, or a stop (Ctrl-C, SIGTERM) before the first record
        store.discard_if_empty()
        raise


def _other_playbook_notice(previous: RunRecord, loaded: LoadedPlaybook, run_dir: Path) -> str | None:
    """What to say when --retry-failed names a run of another playbook. Its failed hosts are
    run with this one, as Ansible runs a .retry file's hosts with any playbook (`--limit
    @site.retry`), and that can be meant (a deeper check on the hosts the smoke test failed);
    but a mistyped playbook ran on the failed hosts without a word. The same file edited in
    place (a raised timeout) or copied unchanged is the same playbook."""
    before = previous.playbook
    if before.sha256 == loaded.sha256 or _same_file(before.path, loaded.path):
        return None
    return (f"--retry-failed {run_dir} was a run of playbook {before.name!r} ({before.path}); "
            f"this run is playbook {loaded.playbook.name!r} ({loaded.path}) on its failed hosts")


def _same_file(recorded: str, given: str) -> bool:
    # The record keeps the path as typed: a relative one is read from the current folder, which
    # is the run's own in the usual case (the same shell, `--retry-failed runs/...`).
    if recorded == given:
        return True
    try:
        return Path(recorded).resolve() == Path(given).resolve()
    except (OSError, ValueError):
        return False


def _previous_var_files(args: list[str]) -> list[str]:
    """The --var-file paths a recorded run was given (`--var-file F`, `--var-file=F`)."""
    return [args[i + 1] if arg == "--var-file" else arg.partition("=")[2]
            for i, arg in enumerate(args)
            if (arg == "--var-file" and i + 1 < len(args)) or arg.startswith("--var-file=")]


def _won_over_var_files(reused: dict[str, Any], cli_vars: dict[str, Any], typed_now: set[str],
                        previous_args: list[str]) -> list[str]:
    """The vars the recorded run was given by --var that this run has from a --var-file alone:
    the recorded value is the one that run used (--var wins over the file), so it wins again;
    a masked one is then asked for (the masked check), not read from the file unsaid."""
    given = given_var_names(previous_args, files_unknown=False) or set()
    return [name for name in reused if name in given and name in cli_vars and name not in typed_now]


def _masked_defaults(reused: dict[str, Any], defaults: dict[str, Any], previous_args: list[str]) -> list[str]:
    """The reused vars whose recorded value is the playbook default's own mask, for a var the
    recorded run gave no --var: a playbook with `api_key: sk-...` among its vars ran with it,
    run.json masked it, and --retry-failed asked the user to pass a key they never passed."""
    given = given_var_names(previous_args)
    if given is None:
        return []
    return [name for name, value in reused.items()
            if name not in given and MASK in json.dumps(value)
            and redact_with_values(defaults[name], secret_values({name: defaults[name]})) == value]


def _hosts_to_retry(previous: RunRecord) -> set[str]:
    """The hosts of a recorded run that --retry-failed runs again: those that did not pass, and
    those whose checks did not all complete. A step that timed out (SD002) or could not run
    (SD003) is a warning, so its host "passed" and was never retried, though the check it stands
    for never gave an answer (docs/findings.md: "its absence of findings means nothing")."""
    # "running"/"pending": the controller was killed mid-run (SIGKILL, power), the host never finished.
    unfinished = {h.name for h in previous.hosts if h.status in ("error", "failed", "aborted", "running", "pending")}
    unanswered = {s.host for s in previous.steps if s.status in ("timeout", "error")}
    return unfinished | (unanswered & {h.name for h in previous.hosts})


def _check_junit_target(junit: Path) -> None:
    """--junit naming a folder, or a path under a file, failed only after the run, when the
    XML was written: exit 3 with the steps all passed, and no way to write it again (`report`
    renders md, html and json). Said before anything runs."""
    if junit.is_dir():
        raise UsageError(f"--junit {junit} is a folder", hint=f"name a file, e.g. --junit {junit / 'junit.xml'}")
    for parent in junit.parents:
        if parent.exists():
            if not parent.is_dir():
                raise UsageError(f"--junit {junit}: {parent} is a file, not a folder",
                                 hint="name a file in a folder, e.g. --junit junit.xml")
            _refuse_kernel_file_system(junit, parent)
            return


def _refuse_kernel_file_system(junit: Path, folder: Path) -> None:
    """--junit /proc/junit.xml: the whole run, then "cannot write" and exit 3 (store.py names
    the kernel file system); said before anything runs, as for a folder."""
    from spec_debug.store import device_folder, kernel_file_system

    kernel = kernel_file_system(folder)
    if kernel is not None:
        raise UsageError(f"--junit {junit}: {kernel[0]} is the kernel's {kernel[1]} file system, which holds no files of yours",
                         hint="name a file on a disk, e.g. --junit junit.xml")
    in_dev = None if junit.exists() else device_folder(folder)  # --junit /dev/stdout is written in place
    if in_dev is not None:
        raise UsageError(f"--junit {junit}: {in_dev}", hint="name a file on a disk, e.g. --junit junit.xml")


def _write_stdout(text: str) -> None:
    """--json to a reader that left (`| head`): the run and its record are done; the exit code
    must still say how it went, not "broken pipe"."""
    from spec_debug.stdout_document import write_document

    try:
        # UTF-8 whatever the locale: through the console stream, which escapes what an ASCII one
        # (LANG=C, PYTHONIOENCODING=ascii) cannot encode, a var "équipe" came out as "\xe9quipe",
        # which is no JSON string escape: the reader's json.load failed on the whole record
        write_document(text)
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        # Python would report the unflushed rest again at exit (and exit 120): point stdout at
        # /dev/null (https://docs.python.org/3/library/signal.html#note-on-sigpipe).
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass


def _answers_from(read_paths: list[Path]) -> Any:
    """Where --step reads its answers: stdin (None), unless the playbook or a var file was read
    from it (`curl -s URL | spec-debug run /dev/stdin --step`, as docs/playbooks.md shows for a
    run): stdin is then at its end, and the first prompt read "end of input" and quit the run
    before its first step. The terminal (/dev/tty) answers instead, as ssh asks a password there
    when its stdin is a pipe; without one the run is refused before a run folder is made."""
    try:
        stdin = os.fstat(0)
    except OSError:
        return None  # no stdin at all: TerminalGate reads that as end of input
    if not any(_same_file_as(path, stdin) for path in read_paths):
        return None
    try:
        return open("/dev/tty", encoding="utf-8", errors="replace")  # noqa: SIM115 - read until the process ends
    except OSError:
        raise UsageError(
            "--step reads its answers from standard input, and the playbook (or a --var-file) was read from it: "
            "no answer is left to read, and there is no terminal to ask",
            hint="save the playbook to a file first (e.g. curl -s URL -o playbook.yaml) and run that with --step",
        ) from None


def _same_file_as(path: Path, stat: os.stat_result) -> bool:
    try:
        other = path.stat()
    except OSError:
        return False
    return (other.st_dev, other.st_ino) == (stat.st_dev, stat.st_ino)


def _quiet_on_broken_pipe(console: Console) -> None:
    """rich answers a broken pipe by pointing *stdout* at /dev/null and exiting 1
    (rich/console.py, Console.on_broken_pipe, there to be overridden): the progress on stderr
    going away (`2>&1 | head`) ended the run unrecorded, "running" with nothing run, and would
    swallow --json. The console goes quiet instead; the run, its record and exit code go on."""
    def on_broken_pipe() -> None:
        console.quiet = True
    console.on_broken_pipe = on_broken_pipe  # type: ignore[method-assign]


def _say(console: Console, text: str) -> None:
    # Never folded (soft_wrap), as cli_common.print_error: each line names paths and commands to
    # paste, and rich's fold at 80 columns put a newline inside a long --out path in a CI log or
    # a redirected stderr ("...2026/20261\n201T163020772Z-okp-b5c4552b/report.md").
    try:
        console.print(shown_text(text), highlight=False, soft_wrap=True)
    except (OSError, ValueError):
        pass  # stderr is gone: the record and reports are written


def exit_code_for(record: RunRecord) -> int:
    """Like a linter: 3 a host unreachable or the run aborted (or never finished), 1 error
    findings, else 0."""
    if record.status in ("aborted", "running") or any(h.status in ("error", "pending", "running")
                                                      for h in record.hosts):
        return 3
    return 1 if any(f.severity == "error" for f in record.findings) else 0


def finish_outputs(record: RunRecord, run_dir: Path, *, junit: Path | None, console: Console,
                   planned: list[str] | None = None, done: set[str] | None = None) -> None:
    """Write the reports, the --junit file and the step summary, then say the verdict.
    ``done`` gets "reports" and "junit" as each is written whole: a stop (Ctrl-C, SIGTERM)
    tells from it what is left, where a --junit file from an earlier run is no sign."""
    done = set() if done is None else done
    try:
        written = write_reports(record, run_dir)
    except RecordWriteError as exc:
        raise _reports_not_written(record, run_dir, exc, console) from None
    done.add("reports")
    if junit is not None:
        write_junit(record, junit, planned)
    done.add("junit")
    summary_path = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        try:
            append_step_summary(record, Path(summary_path), run_dir)
        except RecordWriteError as exc:
            # The variable came with the environment (a container or an ssh session started
            # from a workflow, act), not from the user: its file missing must not turn a clean
            # run into exit 3, "aborted", with the verdict unsaid.
            _say(console, f"[yellow]warning:[/] {escape(exc.message)} (the run, run.json and the reports are complete)")
        except KeyboardInterrupt as exc:
            # Ctrl-C or SIGTERM while the summary was appended (a stalled file system): as a
            # summary it cannot write, a warning, and the verdict and exit code of the run. It
            # said "interrupted while writing the reports ...: every output was written", exit
            # 3, with the summary not (or in part) appended.
            _say(console, f"[yellow]warning:[/] {escape(stop_reason(exc))} while appending to GITHUB_STEP_SUMMARY "
                          f"{escape(summary_path)}, which may hold none or part of this run's summary "
                          "(the run, run.json and the reports are complete)")
    # The paths as text: `-o '[/x]'` raised MarkupError after the run (a traceback, exit 1 as
    # if errors were found) and `-o '[bold]y'` read "report: y/...".
    _say_verdict(record, console, f"report: {escape(str(written['md']))} · {escape(str(written['html']))}")


def _say_verdict(record: RunRecord, console: Console, where: str) -> None:
    errors = sum(1 for f in record.findings if f.severity == "error")
    warnings = sum(1 for f in record.findings if f.severity == "warning")
    style = {"passed": "green", "failed": "red", "error": "red", "aborted": "yellow"}.get(record.status, "white")
    # Steps all skipped, or none ran to an answer (each could not run, timed out or was skipped):
    # "PASSED" in green over a host whose Python is missing read as a clean bill.
    nothing = nothing_checked(record)
    if nothing and record.status == "passed":
        style = "yellow"
    # A stop that came as the last steps ended cut nothing, and the run ends as its hosts did
    # (engine.Run._finish): said, so a Ctrl-C followed by PASSED does not read as unheeded.
    stopped = record.abort_reason if record.abort_reason and record.status not in ("aborted", "running") else None
    # stderr gone (a closed terminal, `| head`) is quiet: the record and reports are written
    # A `that:` that raised (text compared with a number, a fact no step sets) is a warning, and
    # the run said PASSED with no word that the playbook's own checks went unanswered.
    broken = checks_not_evaluated(record.findings)
    _say(console, f"[{style}]{record.status.upper()}[/]: {errors} error(s), {warnings} warning(s)"
         + (f" · {escape(nothing)}" if nothing else "")
         + (f" · {said_checks_not_evaluated(broken)} (fix {'them as each' if broken > 1 else 'it as its'} step's line says)"
            if broken else "")
         + (f" · {escape(stopped)} after every step had run" if stopped else "")
         + f" · {where}")
    # The steps skipped at the --step prompt, as `demo --step` lists them (demo._say_result): the
    # verdict read as the whole playbook's, with the steps the user chose not to run unnamed.
    chosen = [s for s in list(record.steps) if s.status == "skipped" and s.message == SKIPPED_BY_USER]
    if chosen:
        several = len({h.name for h in record.hosts}) > 1
        names = [f"{s.host}/{s.id}" if several else s.id for s in chosen]
        _say(console, f"  skipped (your choice): {escape(some_names(names, 20))}")
    # The steps the stop came before: ABORTED under the steps that ran read as the result of
    # the whole playbook. A host that dropped says so in its own line and the report.
    missed = not_reached_words(record) if record.status in ("aborted", "running") else ""
    if missed:
        _say(console, f"  {escape(missed)}")


def _reports_not_written(record: RunRecord, run_dir: Path, exc: RecordWriteError, console: Console) -> RecordWriteError:
    """A full disk after run.json was written (report.html is the largest file): the run's
    verdict went unsaid and the hint was to run the whole playbook again with --out. run.json
    is complete; the reports can be rendered from it once there is room."""
    record_path = run_dir / "run.json"
    _say_verdict(record, console, f"run.json: {escape(str(record_path))}")
    missing = [name for name in ("report.md", "report.html") if not _is_file(run_dir / name)]
    again = "; ".join(report_commands(run_dir, missing))
    return RecordWriteError(
        f"{exc.message} ({record_path} is complete)",
        hint=(f"{'free some space there' if exc.out_of_space else 'once the file can be written there'}, then: {again}"
              if again else None),
        out_of_space=exc.out_of_space,
    )


def _interrupted_outputs(run_dir: Path, junit: Path | None, done: set[str], *, as_json: bool = False) -> tuple[str, bool]:
    """What a Ctrl-C or SIGTERM while the outputs were written left undone, and how to finish
    it; and whether every output was written. "spec-debug report DIR renders them" printed
    Markdown to the terminal, and was said when both reports were there and only the --junit
    file (which `report` cannot write) was missing. The reports are told by their files (the
    run's folder is new, and each appears whole), the --junit file by ``done``: one left by an
    earlier run read as written ("every output was written" over yesterday's results)."""
    missing = [name for name in ("report.md", "report.html") if not _is_file(run_dir / name)]
    todo = report_commands(run_dir, missing)
    if junit is not None and "junit" not in done:
        earlier = " (the file there is from before this run)" if _is_file(junit) else ""
        todo.append(f"the JUnit XML {shlex.quote(str(junit))} was not written{earlier} "
                    "(only `spec-debug run --junit` writes it)")
    if as_json:  # written after the verdict: a stop before it left stdout empty
        todo.append(f"--json wrote nothing to stdout ({run_dir / 'run.json'} holds the record)")
    left = "; ".join(todo) if todo else "every output was written"
    return escape(f"interrupted while writing the reports; {run_dir / 'run.json'} is complete: {left}"), not todo


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False
