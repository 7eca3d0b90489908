"""Pieces every spec-debug command shares: shell completers, one-line errors, --format/--json."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from spec_debug.errors import SpecDebugError, UsageError

# No emoji codes: rich turns ':100:' into an emoji, so 'p.yaml:100:1:' (an error on line 100)
# read 'p.yaml💯1:', and ':1234:' or ':a:' in a path or host name changed the same way.
err_console = Console(stderr=True, emoji=False)

REPORT_FORMATS = ("md", "html", "json")

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def shown_text(text: str) -> str:
    """text as run.json and the reports show it: a byte that is not UTF-8 in a path or value
    (a Latin-1 `r\xe9s/` folder: PEP 383 surrogateescape) as `\xe9` (record.shown_surrogate).
    Written as it was, stderr's backslashreplace said `r\udce9s`, a form no file, record or
    report of the run uses. ASCII text (nearly all) returns at the first test."""
    if text.isascii() or _LONE_SURROGATE.search(text) is None:
        return text
    from spec_debug.record import carriable  # only here: a path that held such a byte

    return carriable(text)


def complete_playbooks(incomplete: str) -> list[str]:
    """Shipped names, and playbook files and folders on the way to one: `run` and `explain`
    take a path too, and `spec-debug run playbooks/my<TAB>` offered nothing (a completer
    replaces the shell's file completion)."""
    from spec_debug.playbook.loader import shipped_playbook_names

    names = [n for n in shipped_playbook_names() if n.startswith(incomplete)]
    paths = _complete_paths(incomplete, (".yaml", ".yml"))
    return names + [p for p in paths if p not in names]


def complete_explain_topics(incomplete: str) -> list[str]:
    """What `explain` takes: playbooks (and their paths), finding codes, the shipped steps
    (`hidden_layout`, as the demo prints them), the concepts' one-word spellings (`d2t`,
    `norm_before_residual`; one of several words would be split) and `concepts`, their index."""
    from spec_debug import glossary
    from spec_debug.playbook.loader import _shipped_steps

    # In the case typed, as the codes (complete_codes): `explain SGL<TAB>` (SGLang, EAGLE as the
    # docs write them) offered nothing, the concepts all lower case; the concept is found in any case
    words = {incomplete + w[len(incomplete):] for c in glossary.CONCEPTS for w in (c.name, *c.aliases)
             if " " not in w and not w.startswith("-") and w.lower().startswith(incomplete.lower())}
    words |= {"concepts"} if "concepts".startswith(incomplete) else set()
    steps = sorted({str(step.get("id")) for _, step, _ in _shipped_steps()
                    if str(step.get("id") or "").startswith(incomplete)})
    playbooks = complete_playbooks(incomplete)
    return (playbooks + complete_codes(incomplete) + [s for s in steps if s not in playbooks]
            + [w for w in sorted(words) if w not in playbooks and w not in steps])


def complete_explain_more(ctx: typer.Context, incomplete: str) -> list[str]:
    """The word after explain's topic: a step of the playbook named first (`explain
    hidden_state_format <TAB>`, which `explain PLAYBOOK STEP` takes), or the next word of a
    concept typed without quotes (`explain accept <TAB>`: length, rate). Nothing was offered,
    so a step had to be looked up in the walkthrough first and copied."""
    first = str(ctx.params.get("playbook") or "")
    more = [str(w) for w in ctx.params.get("more_words") or ()]
    if not first:
        return []
    if not more:
        steps = _playbook_step_ids(first)
        if steps is not None:
            return [s for s in steps if s.lower().startswith(incomplete.lower())]
    return _concept_next_words([first, *more], incomplete)


def _playbook_step_ids(argument: str) -> list[str] | None:
    """The step ids of the playbook ARGUMENT names (a shipped name or a file), as explain finds
    it; None where it names none or cannot be loaded."""
    playbook = _completed_playbook(argument)
    return [step.id for step in playbook.steps] if playbook is not None else None


def _completed_playbook(argument: str):
    """The playbook a word on the line names, for a completer: a shipped name or a regular file
    (never standard input, nor a pipe: completion must not read or wait on one); None where it
    names none or cannot be loaded."""
    from spec_debug.playbook.loader import load_playbook, shipped_playbook_names

    try:
        if not argument or (argument not in shipped_playbook_names() and not Path(argument).expanduser().is_file()):
            return None
        return load_playbook(argument).playbook
    except (SpecDebugError, OSError, ValueError):
        return None


def complete_run_vars(ctx: typer.Context, incomplete: str) -> list[str]:
    """`run PLAYBOOK --var <TAB>`: the vars the playbook takes, as `NAME=` (the KEY=VALUE the
    option wants), in the playbook's order; those already given on the line are left out.
    Nothing was offered, so the names had to be looked up in the YAML or `explain` first (and a
    misspelt one, `draft_path=`, was only refused when the run started)."""
    params = ctx.params if ctx.params.get("playbook") else _params_before_option(ctx)
    names = _playbook_var_names(str(params.get("playbook") or ""))
    if not names or "=" in incomplete:  # the value: the shell's own file completion
        return []
    given = {str(text).partition("=")[0].strip() for text in params.get("var") or ()}
    return [f"{name}=" for name in names if name.startswith(incomplete) and name not in given]


def complete_hosts(ctx: typer.Context, incomplete: str) -> list[str]:
    """`run PLAYBOOK --host <TAB>`: `local` and the Host aliases of the ssh config the run would
    read (-F FILE when typed before, else ~/.ssh/config and the system's), patterns left out;
    after a comma (`--host gpu01,gp<TAB>`) the next host of the list. Nothing was offered, and
    the shell completed file names where ssh(1)'s own completion offers the config's hosts."""
    params = ctx.params if ctx.params.get("playbook") else _params_before_option(ctx)
    done, comma, typed = incomplete.rpartition(",")
    names = ["local", *_ssh_config_aliases(params.get("ssh_config"))]
    listed = set(done.split(",")) if comma else set()
    return [done + comma + name for name in dict.fromkeys(names) if name.startswith(typed) and name not in listed]


def _ssh_config_aliases(config: object) -> list[str]:
    """The Host names of the ssh config, sorted, without patterns (`*`, `?`, `!`); [] where it
    cannot be read (a completer prints no error into the shell)."""
    try:
        from spec_debug.runner.ssh_config import load_ssh_config

        hostnames = load_ssh_config(Path(str(config)).expanduser() if config else None).get_hostnames()
    except Exception:  # an unreadable or refused config: the run says why; completion offers the rest
        return []
    return sorted(name for name in hostnames if not any(char in name for char in "*?!"))


def _params_before_option(ctx: typer.Context) -> dict[str, object]:
    """The command's parameters as typed before the option whose value is being completed.
    Click parses the line with that option's value missing, an error that ends its resilient
    parse before any argument is set: ctx.params then lacks the playbook. The line is read
    where Typer's completion classes read it (COMP_WORDS and COMP_CWORD for bash,
    _TYPER_COMPLETE_ARGS for zsh, fish and PowerShell) and parsed again without that option;
    {} where it cannot be."""
    import os
    import shlex

    try:
        if "COMP_WORDS" in os.environ:
            words = shlex.split(os.environ["COMP_WORDS"])[:int(os.environ.get("COMP_CWORD", "0"))]
        else:
            line = os.environ.get("_TYPER_COMPLETE_ARGS", "")
            words = shlex.split(line)
            if words and not line.endswith(" "):
                words = words[:-1]  # the word under the cursor
        typed = words[words.index(str(ctx.info_name)) + 1:]
        if typed and typed[-1].startswith("-"):
            typed = typed[:-1]  # the option awaiting the value under the cursor
        return dict(ctx.command.make_context(ctx.info_name, typed, parent=ctx.parent, resilient_parsing=True).params)
    except Exception:  # a completer must not print a traceback into the shell: it offers nothing
        return {}


def _playbook_var_names(argument: str) -> list[str]:
    """The vars the playbook ARGUMENT names declares (a step's requires: must name one of them);
    [] where it names none or cannot be loaded."""
    playbook = _completed_playbook(argument)
    return list(playbook.vars) if playbook is not None else []


def _concept_next_words(typed: list[str], incomplete: str) -> list[str]:
    """The next word of each concept name or alias of several words that starts with TYPED."""
    from spec_debug import glossary

    typed_words = glossary.normalise(" ".join(typed)).split()
    offered: set[str] = set()
    for concept in glossary.CONCEPTS:
        for word in (concept.name, *concept.aliases):
            if word.startswith("-"):
                continue
            parts = word.split()
            if (len(parts) > len(typed_words) and glossary.normalise(" ".join(parts[:len(typed_words)])).split() == typed_words
                    and parts[len(typed_words)].startswith(incomplete)):
                offered.add(parts[len(typed_words)])
    return sorted(offered)


def complete_report_formats(incomplete: str) -> list[str]:
    """md, html, json for --format (case as typed, as output_format accepts `HTML`): `explain
    perf_regression --format <TAB>` offered nothing, the formats only in the help (and so did
    `report RUN --format <TAB>`)."""
    return _complete_formats(REPORT_FORMATS, incomplete)


def complete_validate_formats(incomplete: str) -> list[str]:
    """text, json for `playbooks validate --format` (which takes any case, as the reports do)."""
    return _complete_formats(("text", "json"), incomplete)


def complete_input_formats(incomplete: str) -> list[str]:
    """The transcript formats for `analyze`/`distill --input-format` (auto first), which had no
    completer while the other options' values had: input_format_name takes any case and _ for -."""
    from spec_debug.session.format_names import INPUT_FORMATS

    return _complete_formats(INPUT_FORMATS, incomplete)


def complete_analyze_formats(incomplete: str) -> list[str]:
    """`analyze --format`: an output (md, html, json), or a transcript format to force, as
    split_format takes it (auto is left out: it forces nothing)."""
    from spec_debug.session.format_names import INPUT_FORMATS

    return _complete_formats(REPORT_FORMATS + tuple(f for f in INPUT_FORMATS if f != "auto"), incomplete)


def _complete_formats(formats: tuple[str, ...], incomplete: str) -> list[str]:
    typed = incomplete.lower().replace("_", "-")  # the format names take _ for - (input_format_name)
    said = [f for f in formats if f.startswith(typed)]
    # bash offers only what extends the typed text: `--format J` gets JSON, `claude_` claude_code
    if incomplete.isupper():
        return [incomplete + f[len(incomplete):].upper() for f in said]
    return [incomplete + f[len(incomplete):] for f in said]


def complete_output_path(incomplete: str) -> list[str]:
    """Files and folders, for an output option typed str (dash_is_stdout): Typer completes
    nothing for a str, where its Path let the shell complete file names."""
    return _complete_paths(incomplete, ("",))


def _complete_paths(incomplete: str, suffixes: tuple[str, ...]) -> list[str]:
    """Folders (with their /) and the files ending in one of suffixes that extend incomplete."""
    import glob
    import os

    expanded = os.path.expanduser(incomplete)
    paths = []
    for match in sorted(glob.glob(glob.escape(expanded) + "*")):
        if os.path.isdir(match):
            paths.append(match + "/")
        elif match.endswith(suffixes):
            paths.append(match)
    if expanded != incomplete:  # keep the ~ the user typed: the shell only offers what extends it
        paths = [incomplete + p[len(expanded):] for p in paths]
    return paths


def complete_codes(incomplete: str) -> list[str]:
    """Codes in the case the user typed: `findings sd201` works, and Typer drops a candidate
    that does not start with the typed text, so "SD201" for "sd2" was never offered."""
    from spec_debug.diagnose.catalog import CATALOG

    return [incomplete + c[len(incomplete):] for c in sorted(CATALOG) if c.startswith(incomplete.upper())]


def print_error(exc: SpecDebugError) -> None:
    """What, where and how to fix, on one line (plus a hint line). Never folded: Rich folds at
    80 columns when stderr is no terminal (a CI log, `2> err.txt`), which put a newline inside
    the paths and commands a hint gives to paste; a terminal wraps the long line itself."""
    err_console.print(f"[bold red]error:[/] {escape(shown_text(exc.message))}", highlight=False, soft_wrap=True)
    if exc.hint:
        err_console.print(f"  [dim]hint:[/] {escape(shown_text(exc.hint))}", highlight=False, soft_wrap=True)


def fail(exc: SpecDebugError) -> NoReturn:
    print_error(exc)
    raise typer.Exit(exc.exit_code)


_FORMAT_OF_SUFFIX = {".html": "html", ".htm": "html", ".json": "json"}


def dash_is_stdout(output: str | Path | None) -> Path | None:
    """`-o -` means standard output, as for curl -o -, tar -f - and sort -o -; it wrote a file
    named "-" (and said "wrote -"), which the next `rm -` or `cat -` cannot even name. `-o ./-`
    is that file, as for those tools: the option must be a str, the text as typed (a Typer
    Path has made `./-` into `-` already, so no file named "-" could be written)."""
    if output is None or str(output) == "-":
        return None
    return Path(output)


def output_format(fmt: str | None, as_json: bool, output: Path | None = None) -> str:
    """--format md|html|json, with --json as a shorthand for json. Without either, the suffix of
    ``-o`` decides (``-o incident.html`` wrote Markdown into an .html file), else md."""
    if fmt is not None:
        fmt = fmt.lower()  # `--format HTML` is what a user types after reading "HTML report"
    if fmt is not None and fmt not in REPORT_FORMATS:
        raise UsageError(f"--format {fmt!r}: choose {', '.join(REPORT_FORMATS)}")
    if as_json and fmt not in (None, "json"):
        # Both asked for different things; giving JSON silently left a Markdown reader with JSON.
        raise UsageError(f"--json and --format {fmt} ask for different formats",
                         hint=f"use --format {fmt} alone, or --json alone")
    if as_json:
        fmt = "json"
    elif fmt is None:
        suffix = output.suffix.lower() if output is not None else ""
        if suffix in _DOCUMENT_SUFFIXES:
            # `-o incident.pdf` wrote Markdown text into a file no PDF reader opens, and said
            # "wrote incident.pdf": the user found out when sharing it.
            raise UsageError(f"-o {output}: spec-debug writes {', '.join(REPORT_FORMATS)}, not {suffix[1:]}",
                             hint=f"write -o {output.with_suffix('.html')} (self-contained: a browser opens it, "
                                  f"and prints it to PDF), or give --format md to keep the name")
        fmt = _FORMAT_OF_SUFFIX.get(suffix, "md")
    return fmt


# Binary document and image formats: Markdown written under one of these names opens nowhere.
_DOCUMENT_SUFFIXES = frozenset({".pdf", ".docx", ".doc", ".odt", ".rtf", ".xlsx", ".pptx", ".png", ".jpg", ".jpeg", ".svg"})
