"""Commands beyond run/report: findings, explain, demo (mounted by cli.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Optional

import typer

from spec_debug.cli_common import (complete_codes, complete_explain_more, complete_explain_topics, complete_output_path,
                                   complete_report_formats, dash_is_stdout, err_console, fail, output_format)
from spec_debug.errors import PlaybookError, SpecDebugError, UsageError


def register(app: typer.Typer) -> None:
    @app.command()
    def findings(
        code: Optional[str] = typer.Argument(None, help="A finding code, e.g. SD201", autocompletion=complete_codes),
        # `findings SD101 SD201` (two codes of a report, unquoted) was click's "Got unexpected
        # extra argument(s) (SD201)" where the quoted 'SD101 SD201' names one command per code,
        # as `explain SD101 SD201` does; `findings sd 201` was refused where 'sd 201' is SD201
        more_words: Optional[list[str]] = typer.Argument(
            None, hidden=True, metavar="WORDS", help="The rest of what was typed without quotes: findings SD101 SD201",
            autocompletion=complete_codes),
        as_json: bool = typer.Option(False, "--json", help="Machine-readable catalog."),
        markdown_to: Optional[str] = typer.Option(None, "--markdown", help="Write the whole catalog as Markdown (docs/findings.md is made this way), or with a CODE its entry.",
                                                  autocompletion=complete_output_path),
    ) -> None:
        """The finding catalog: what each code detects, why it hurts, how to fix it."""
        if code is not None:
            code = _one_code(code, more_words or [])
        markdown = dash_is_stdout(markdown_to)
        # `findings SD101 --markdown sd101.md` wrote the whole catalog, the code unread (SD999
        # too, "wrote sd101.md"): with a code it is that code's entry, as `explain SD101 -o` writes it
        entry = _entry_markdown(code) if markdown_to is not None and code else None
        if markdown_to is not None and markdown is None:
            from spec_debug.diagnose.catalog import render_catalog_markdown
            from spec_debug.stdout_document import write_document

            write_document(entry or render_catalog_markdown())
            raise typer.Exit(0)
        if markdown is not None:
            from spec_debug.diagnose.catalog import render_catalog_markdown

            from spec_debug.store import write_output

            try:
                write_output(markdown, entry or render_catalog_markdown(), example="sd101.md" if entry else "findings.md")
            except SpecDebugError as exc:
                fail(exc)
            typer.echo(f"wrote {markdown}", err=True)
            raise typer.Exit(0)
        from spec_debug.diagnose.findings_cli import findings_command

        raise typer.Exit(findings_command(code, as_json))

    # ignore_unknown_options: `explain --speculative-num-steps` is the flag a newcomer read in a
    # launch line, a topic (spec_debug.glossary), not an option of explain (_topic_or_option)
    @app.command(context_settings={"ignore_unknown_options": True})
    def explain(
        # the steps too: `explain hidden_layout` and `explain PLAYBOOK STEP` were in no help text
        playbook: str = typer.Argument(..., help="A playbook file or shipped name (then, optionally, one of its steps: "
                                                 "explain hidden_state_format hidden_layout), a shipped step "
                                                 "(hidden_layout), a finding code (its catalog entry), or a concept: "
                                                 "'accept length', d2t, --speculative-num-steps "
                                                 "(`explain concepts` lists them)",
                                       metavar="TOPIC", autocompletion=complete_explain_topics),
        more_words: Optional[list[str]] = typer.Argument(
            None, hidden=True, metavar="WORDS", help="The rest of a concept typed without quotes: explain accept length",
            autocompletion=complete_explain_more),
        fmt: Optional[str] = typer.Option(None, "--format", help="md | html | json (default: from -o's suffix, else md)",
                                          autocompletion=complete_report_formats),
        output_to: Optional[str] = typer.Option(None, "--output", "-o", help="Write here instead of stdout.",
                                                autocompletion=complete_output_path),
        as_json: bool = typer.Option(False, "--json", help="Same as --format json."),
    ) -> None:
        """Explain a playbook, a shipped step, a finding code or a concept of EAGLE-3 serving, for a newcomer.

        A playbook's walkthrough says what each step checks and why; a finding code gives its catalog entry; `explain concepts` lists the concepts."""
        # (Each paragraph is one line: Typer's rich help keeps a newline of it, in the command list
        # and on this page.)
        from spec_debug.playbook.loader import load_playbook

        output = dash_is_stdout(output_to)
        try:
            playbook_step = _playbook_step(playbook, more_words or [])
            playbook = _one_topic(playbook, [] if playbook_step else more_words or [])
            fmt = output_format(fmt, as_json, output)
            code = _finding_code(playbook)
            if code is not None and output is None and fmt != "html":
                # `explain SD101` (the code a report names): its catalog entry, as `findings SD101`
                # gives it. It was "no playbook file 'SD101'" and the list of playbooks.
                from spec_debug.diagnose.findings_cli import findings_command

                raise typer.Exit(findings_command(code, fmt == "json"))
            family = _code_family(playbook) if code is None else []
            if family and output is None and fmt != "html":
                # `explain SD1`, as README promises: the codes it starts, an answer (exit 0). It
                # was "error: no playbook file 'SD1'" and exit 2, the codes only in the hint.
                from spec_debug.stdout_document import write_document

                write_document(_code_family_text(playbook.strip(), family, fmt) + "\n")
                return
            # The same answer to a file or as a page (`explain SD1 -o codes.md`), which was
            # still "no playbook file 'SD1'" and exit 2.
            family_text = _code_family_text(playbook.strip(), family, fmt) if family else None
            if family_text is not None and fmt == "html":
                family_text = _markdown_page(playbook.strip(), family_text)
            # A file or a shipped playbook of that name is the playbook, whatever else it could name.
            other = code is None and not _names_a_playbook(playbook)
            concept = _topic_or_option(playbook) if other else None
            if playbook_step is not None:
                if output:
                    from spec_debug.store import refuse_overwriting

                    refuse_overwriting((Path(playbook_step[0].path),), Path(output), "the playbook",
                                       Path(output).with_suffix(".md").name, doing="explained")
                text = _walkthrough_text(playbook_step[0], fmt, only_step=playbook_step[1])
            elif code is not None:
                text = _finding_text(code, fmt)
            elif family_text is not None:
                text = family_text
            elif concept is not None:
                text = _concept_text(concept, fmt)
            elif other and (owner := _shipped_step_owner(playbook)) is not None:
                text = _walkthrough_text(load_playbook(owner[0]), fmt, only_step=owner[1])
            else:
                _refuse_several_codes(playbook)
                loaded = _load_or_near_concept(playbook)
                if output:
                    from spec_debug.store import refuse_overwriting

                    # `explain my_check.yaml -o my_check.yaml` (the completion's suffix where .md
                    # was meant) replaced the playbook with its walkthrough, silently
                    refuse_overwriting((Path(loaded.path),), Path(output), "the playbook", Path(output).with_suffix(".md").name,
                                       doing="explained")
                text = _walkthrough_text(loaded, fmt)
            if output:
                from spec_debug.store import write_output

                write_output(output, text, example=f"walkthrough.{fmt}")  # a folder, a read-only mount: one line, not a traceback
        except SpecDebugError as exc:
            fail(exc)
        if output:
            typer.echo(f"wrote {output}", err=True)
        else:
            from spec_debug.stdout_document import write_document

            # not typer.echo: off a terminal click strips what it takes for colour codes, so
            # `explain > walkthrough.md` lost part of a command (click/_compat.py, strip_ansi)
            write_document(text + "\n")

    @app.command()
    def demo(
        healthy: bool = typer.Option(False, "--healthy", help="Run the fixed configuration (must come out clean)."),
        out: Path = typer.Option(Path("runs"), "--out", "-o", help="Parent directory of run folders."),
        as_json: bool = typer.Option(False, "--json", help="Print the run's run.json to stdout."),
        step: bool = typer.Option(False, "--step", help="Step through the demo: see why each step runs and its command, then run / skip / quit."),
    ) -> None:
        """Build the simulated incident host on this machine and run perf_regression on it."""
        try:
            from spec_debug.demo import demo_command
        except ImportError as exc:  # torch is missing: the demo runs the real drafter
            fail(SpecDebugError(f"the demo needs the eagle3 extra ({exc.name} is not installed)", hint="pip install 'spec-debug[eagle3]'"))
        console = err_console
        try:
            code = demo_command(healthy, out, console, as_json=as_json, step=step)
        except SpecDebugError as exc:
            fail(exc)
        try:
            # one line, as the verdict: in a 60-column pane "perf_regression" went on a line of
            # its own, and the command copied from the first line was `spec-debug explain`
            console.print("Walk through what each step checked: spec-debug explain perf_regression", soft_wrap=True)
        except (OSError, ValueError):
            pass  # the terminal went away (demo_command): the exit code still tells
        raise typer.Exit(code)


def _names_a_playbook(argument: str) -> bool:
    """Whether ARGUMENT is a playbook before anything else it could name: a shipped name, or a
    file (a pipe too). Not a folder: `explain configs` in a repository with a configs/ folder,
    `explain sglang` beside an sglang checkout, was "is a directory, not a playbook file", not
    the step or concept of that name (the loader takes a shipped name over a folder too). A
    folder that names nothing else still gets that error."""
    from spec_debug.playbook.loader import shipped_playbook_names

    path = Path(argument).expanduser()
    if argument == "-":  # standard input, as the loader reads it, unless a file is named "-"
        return not path.is_dir()
    return argument in shipped_playbook_names() or (path.exists() and not path.is_dir())


_loaded_once: dict[str, object] = {}


def _load_once(argument: str):
    """load_playbook, once per argument: `-` is standard input, which a second read finds empty
    (`curl URL | spec-debug explain - STEP` reads it to find the step, then for the hint)."""
    from spec_debug.playbook.loader import load_playbook

    if argument not in _loaded_once:
        _loaded_once[argument] = load_playbook(argument)
    return _loaded_once[argument]


def _playbook_step(first: str, more: list[str]):
    """(the loaded playbook, step id) for `explain hidden_state_format hidden_layout`, a step of
    the playbook named first. It was "explain takes one playbook, code or concept; got also:
    hidden_layout", and `explain hidden_layout` alone gives perf_regression's step of that id, so
    hidden_state_format's own was not to be had. None for anything else."""
    if len(more) != 1 or _is_option(more[0]) or not _names_a_playbook(first):
        return None
    # A playbook that cannot be read is the news (`explain broken.yaml STEP`, `explain - STEP` with
    # nothing piped in): its own error, not "got also: STEP" and the rule for quoting a concept.
    loaded = _load_once(first)
    wanted = more[0].strip().lower()
    # a word that is no step of it is refused as a stray word (_one_topic)
    return next(((loaded, step.id) for step in loaded.playbook.steps if step.id.lower() == wanted), None)


def _shipped_step_owner(argument: str) -> tuple[str, str] | None:
    """(playbook, step id) for `explain hidden_layout`: a step the demo and a run print, given
    where a playbook goes. perf_regression's, the main job's, when
    it has the step; else the first shipped playbook that does."""
    from spec_debug.playbook.loader import _shipped_steps

    owners = [playbook for playbook, step, _ in _shipped_steps() if step.get("id") == argument.lower()]
    if not owners:
        return None
    return ("perf_regression" if "perf_regression" in owners else owners[0]), argument.lower()


def _walkthrough_text(loaded, fmt: str, only_step: str | None = None) -> str:
    from dataclasses import asdict

    from spec_debug.ansi import visible_controls
    from spec_debug.explain import explain_playbook, render_explanation

    if fmt == "json":
        data = explain_playbook(loaded, only_step)
        data["steps"] = [asdict(s) for s in data["steps"]]
        return json.dumps(data, indent=2, default=str)
    # The walkthrough shows commands to be read before they run: a control in one is shown, not
    # acted on by the terminal (ansi.visible_controls).
    return visible_controls(render_explanation(loaded, fmt, only_step), html=fmt == "html")


def _finding_code(argument: str) -> str | None:
    """The catalog code `explain` was given (SD101, sd101, [SD101] pasted from a report), where no
    file by that name is there to be a playbook."""
    from spec_debug.diagnose.catalog import CATALOG
    from spec_debug.diagnose.findings_cli import normalize_code

    code = normalize_code(argument.strip()).upper()
    if code not in CATALOG or Path(argument).expanduser().exists():
        return None
    return code


def _code_family(argument: str) -> list[str]:
    """The catalog codes `explain SD1` (`sd 10`, `SD-1`) starts, where no playbook has that name."""
    from spec_debug.diagnose.catalog import near_codes, partial_code

    if partial_code(argument) is None or _names_a_playbook(argument):
        return []
    return near_codes(argument)


def _code_family_text(typed: str, codes: list[str], fmt: str) -> str:
    """The codes and their titles (Markdown), or their catalog entries (JSON, as `findings --json`)."""
    from spec_debug.diagnose.catalog import CATALOG, doc_as_dict

    if fmt == "json":
        return json.dumps([doc_as_dict(CATALOG[c]) for c in codes], indent=2)
    lines = [f"{typed} is the start of {len(codes)} finding codes:" if len(codes) > 1
             else f"{typed} is the start of one finding code:", ""]
    lines += [f"- {c}: {CATALOG[c].title}" for c in codes]
    lines += ["", f"`spec-debug explain {codes[0]}` explains one, `spec-debug findings` lists them all"]
    return "\n".join(lines)


def _one_topic(first: str, more: list[str]) -> str:
    """`explain accept length` typed without quotes is the concept "accept length". Other words
    after the first are an option explain does not have (`--fromat json`) or a stray argument,
    refused as click would have refused them (the command takes unknown options as words)."""
    from spec_debug import glossary

    joined = " ".join([first, *more])
    titled = _code_with_its_title(joined)
    if titled is not None:
        return titled
    if not more:
        return _flag_without_value(first)
    if glossary.find_concept(joined) is not None:
        return joined
    if len(more) == 1 and not _is_option(more[0]) and _is_option(first) and glossary.find_concept(first) is not None:
        return first  # `explain --speculative-num-steps 1`, as the launch line writes it
    unknown = next((word for word in [first, *more] if _is_option(word) and glossary.find_concept(word) is None), None)
    if unknown is not None:
        raise UsageError(f"no such option: {unknown}",
                         hint=_step_option_hint(unknown, next((w for w in [first, *more] if not _is_option(w)), None))
                         or "spec-debug explain --help lists the options")
    # `explain SD101 SD201`, two codes of a report typed unquoted: one command each, as for the
    # quoted 'SD101 SD201' (_refuse_several_codes); it was "got also: SD201" and the quoting rule
    _refuse_several_codes(joined)
    # `explain num stesp`: a concept of several words with a slip, unquoted. The hint was the
    # quoting rule with 'accept length' as its example, whatever was typed; quoted, the same
    # words got "the concept 'num steps'?" (_load_or_near_concept).
    near = glossary.close_concepts(joined)
    raise UsageError(f"explain takes one playbook, code or concept; got also: {' '.join(more)}",
                     hint=_no_such_step_hint(first, more) or
                     (f"the concept {near[0]!r}? `spec-debug explain {near[0]!r}`" if near else
                     "quote a concept of several words (spec-debug explain 'accept length'); "
                     "`spec-debug explain concepts` lists them"))


def _no_such_step_hint(first: str, more: list[str]) -> str | None:
    """For `explain perf_regression hidden_layuot`, a playbook then a word that is none of its
    steps: the step of that spelling, else the playbook's steps. The hint was the rule for
    quoting a concept ("spec-debug explain 'accept length'"), which says nothing of the step
    that was meant. None where the first word names no playbook that loads."""
    import difflib

    from spec_debug.record import shell_word

    if len(more) == 1 and more[0] != "-" and not _names_a_playbook(first) and _names_a_playbook(more[0]):
        # `explain hidden_layout hidden_state_format`: the step then its playbook, as a report's
        # "hidden_state_format/hidden_layout" does not order them. The hint was "the concept
        # 'concat order'?", a near spelling of the two words joined.
        try:
            reversed_steps = [step.id for step in _load_once(more[0]).playbook.steps]
        except (SpecDebugError, OSError, ValueError):
            reversed_steps = []
        if first in reversed_steps:
            return f"the playbook first: `spec-debug explain {shell_word(more[0])} {shell_word(first)}`"
    if len(more) != 1 or not _names_a_playbook(first):
        return None
    try:
        steps = [step.id for step in _load_once(first).playbook.steps]
    except (SpecDebugError, OSError, ValueError):
        return None
    by_lower = {step.lower(): step for step in steps}
    typed = more[0].strip().lower()
    # `explain host_smoke gpu`: the start of one step's id, as the completion would have given it
    starting = [step for step in by_lower if step.startswith(typed)] if typed else []
    near = starting if len(starting) == 1 else difflib.get_close_matches(typed, list(by_lower), n=1, cutoff=0.6)
    if near:
        step = by_lower[near[0]]
        return f"the step {step!r}? `spec-debug explain {shell_word(first)} {shell_word(step)}`"
    return (f"{first} has no step {more[0]!r}; its steps: {', '.join(steps)} "
            f"(`spec-debug explain {shell_word(first)} {shell_word(steps[0])}` explains one)")


# A finding as a run prints it: "SD101 Speculation capped ..." (the progress line), "SD101
# (error): Speculation capped ..." (the step-through), "SD101: Speculation capped ..." (a report).
_CODE_AND_TITLE = re.compile(r"^\s*(\S+?)\s*(?:\((?:error|warning|info)\))?\s*[:\u2014-]?\s+(\S.*?)\s*$", re.IGNORECASE)


def _entry_markdown(code: str) -> str:
    """One code's catalog entry as `findings CODE` writes it to a file (refused as `findings CODE`
    refuses it: an unknown code, several codes)."""
    from spec_debug.diagnose.catalog import get_doc, render_entry_markdown
    from spec_debug.diagnose.findings_cli import normalize_code, several_codes_error

    try:
        listed = several_codes_error(code, "findings")
        if listed is not None:
            raise listed
        return render_entry_markdown(get_doc(normalize_code(code))) + "\n"
    except SpecDebugError as exc:
        fail(exc)


def _one_code(first: str, more: list[str]) -> str:
    """What `findings` looks up when the words came unquoted: `findings SD101 SD201` is a list of
    codes (refused with one command each), `findings SD101 Speculation capped ...` a finding line
    pasted whole (its code), `findings sd 201` one code; a code with other words is refused."""
    from spec_debug.diagnose.catalog import CATALOG
    from spec_debug.diagnose.findings_cli import normalize_code, several_codes

    joined = " ".join([first, *more])
    titled = _code_with_its_title(joined)
    if titled is not None:
        return titled
    if more and not several_codes(joined) and normalize_code(first.strip()).upper() in CATALOG \
            and normalize_code(joined.strip()).upper() not in CATALOG:
        fail(UsageError(f"findings takes one code; got also: {' '.join(more)}",
                        hint=f"`spec-debug findings {normalize_code(first.strip()).upper()}` explains that code"))
    return joined


def _code_with_its_title(text: str) -> str | None:
    """The code of a finding line pasted whole, quoted or not (`explain SD101 Speculation capped
    at one drafted token per round`), where the words after the code are its catalog title: that
    line was "no playbook file" or "got also: Speculation capped ...". None for anything else."""
    from spec_debug.diagnose.catalog import CATALOG

    match = _CODE_AND_TITLE.match(text)
    code = _finding_code(match.group(1)) if match else None
    if code is None or Path(text).expanduser().exists():
        return None
    said = " ".join(match.group(2).split()).rstrip(".").lower()
    return code if said == " ".join(CATALOG[code].title.split()).lower() else None


def _flag_without_value(word: str) -> str:
    """The concept's flag in `--speculative-num-steps 1` or `--speculative-num-steps=1`, copied
    with its value from a launch line (docs/findings.md's SD101 example, a server's ps line):
    explain said "got also: 1" or "no such option: --speculative-num-steps=1". Anything else
    is returned as given."""
    from spec_debug import glossary

    if not _is_option(word) or glossary.find_concept(word) is not None or Path(word).exists():
        return word
    flag, _, value = word.strip().replace("=", " ", 1).partition(" ")
    return flag if value.strip() and glossary.find_concept(flag) is not None else word


def _is_option(word: str) -> bool:
    return word.startswith("-") and word != "-"  # `-` alone is the playbook on standard input


def _topic_or_option(argument: str):
    """The concept `explain` was given (spec_debug.glossary), "all" for `explain concepts`, or None.
    An argument starting with a dash that names no concept is an option explain does not have."""
    from spec_debug import glossary

    if glossary.normalise(argument) in glossary.LIST_WORDS:
        return "all"
    concept = glossary.find_concept(argument)
    if concept is None and _is_option(argument):
        near = glossary.close_concepts(argument)
        raise UsageError(f"no such option: {argument}",
                         hint=_step_option_hint(argument, None)
                         or (f"the concept {near[0]!r}? `spec-debug explain {near[0]!r}`" if near
                             else "spec-debug explain --help lists the options"))
    return concept


def _step_option_hint(option: str, playbook: str | None) -> str | None:
    """For `--step` given to explain (`explain perf_regression --step`): the step-through is an
    option of run and demo, which the walkthrough and the README name beside explain. The hint
    was "the concept 'num steps'?" (--speculative-num-steps, a server flag) for `explain --step`,
    and "explain --help lists the options" after a playbook, neither saying where --step is."""
    if option.split("=", 1)[0] != "--step":
        return None
    from spec_debug.playbook.loader import shipped_playbook_names
    from spec_debug.record import shell_word

    # the word named a playbook (not a step id, `explain hidden_layout --step`, or a concept)
    named = playbook is not None and (playbook in shipped_playbook_names() or Path(playbook).expanduser().is_file())
    target = shell_word(playbook) if named else "PLAYBOOK"
    return (f"--step is run's and demo's: `spec-debug run {target} --step` runs the playbook, asking before "
            "each step (`spec-debug demo --step` on the demo host); explain shows the same walk without running it")


def _load_or_near_concept(argument: str):
    """The playbook; where there is none by that name, the concepts spelled like it join the hint
    (`explain 'accept lenght'`)."""
    from spec_debug import glossary
    from spec_debug.playbook.loader import load_playbook

    try:
        return load_playbook(argument)
    except PlaybookError as exc:
        # a step or a code the loader found near the word is meant more surely than a concept
        meant = (exc.hint or "").startswith("did you mean")
        near = glossary.close_concepts(argument) if ": no playbook file " in exc.message else []
        playbook = re.fullmatch(r"did you mean '([^']+)'\?", exc.hint or "")
        if meant and near and playbook is not None and _nearer_a_concept(argument, playbook.group(1)):
            # `explain 'hot tokens'` (SGLang's hot_token_id, a vocab map word) got "did you mean
            # 'host_smoke'?" alone: a playbook name is no surer than a concept spelled closer
            exc.hint = f"the concept {near[0]!r}? `spec-debug explain {near[0]!r}`; or the playbook {playbook.group(1)!r}?"
        elif near and not meant:
            said = f"the concept {near[0]!r}? `spec-debug explain {near[0]!r}`"
            exc.hint = f"{said}; {exc.hint}" if exc.hint else said
        elif ": no playbook file " in exc.message and (exc.hint or "").startswith(_PLAYBOOK_LIST) and _a_word(argument):
            # Nothing near the word (`explain help`, `explain gpu`, `explain SD8`): the loader's
            # hint, the shipped playbooks alone, told a newcomer the topic had to be a playbook.
            # explain takes three more kinds, each listed by a command.
            names = exc.hint[len(_PLAYBOOK_LIST):]
            exc.hint = (f"explain takes a playbook (a file, or shipped: {names}), a step of one (`spec-debug explain "
                        f"perf_regression` names them), a finding code (`spec-debug findings` lists them) or a concept "
                        f"(`spec-debug explain concepts` lists them)")
        raise


def _nearer_a_concept(typed: str, playbook: str) -> bool:
    """Whether a concept's name or alias is spelled closer to TYPED than the playbook PLAYBOOK."""
    import difflib

    from spec_debug import glossary

    key = glossary.normalise(typed)
    return glossary.closest_spelling(key) > difflib.SequenceMatcher(None, key, glossary.normalise(playbook)).ratio()


_PLAYBOOK_LIST = "shipped playbooks: "
"""How the loader's hint starts when no playbook, step, code or file is near the word."""


def _a_word(argument: str) -> bool:
    """A topic, not a path: `explain ./mine.yaml` that is not there is a file, and the loader's
    hint is the one for a file."""
    return "/" not in argument and "\\" not in argument and not argument.lower().endswith((".yaml", ".yml"))


def _concept_text(concept, fmt: str) -> str:
    """A concept (or the list of them, for "all") as Markdown, JSON, or the Markdown in a page."""
    from spec_debug import glossary
    from spec_debug.diagnose.catalog import CATALOG

    if fmt == "json":
        data = ({"concepts": [glossary.concept_as_dict(c) for c in glossary.CONCEPTS]} if concept == "all"
                else glossary.concept_as_dict(concept))
        return json.dumps(data, indent=2)
    text = (glossary.render_concept_list() if concept == "all"
            else glossary.render_concept_markdown(concept, {code: doc.title for code, doc in CATALOG.items()}))
    if fmt != "html":
        return text
    return _markdown_page("concepts" if concept == "all" else concept.name, text)


def _refuse_several_codes(argument: str) -> None:
    """`explain 'SD201,SD202'`, where no file has that name: several codes, refused with one
    command each, not "no playbook file 'SD201,SD202'" and the list of playbooks."""
    from spec_debug.diagnose.findings_cli import several_codes_error

    if Path(argument).expanduser().exists():
        return
    error = several_codes_error(argument, "explain")
    if error is not None:
        raise error


def _finding_text(code: str, fmt: str) -> str:
    """A catalog entry for `explain CODE -o FILE`: Markdown, JSON, or the Markdown in a page."""
    from spec_debug.diagnose.catalog import doc_as_dict, get_doc, render_entry_markdown

    doc = get_doc(code)
    if fmt == "json":
        return json.dumps(doc_as_dict(doc), indent=2)
    text = render_entry_markdown(doc)
    if fmt != "html":
        return text
    return _markdown_page(code, text)


def _markdown_page(title: str, text: str) -> str:
    """A Markdown text as a self-contained page (`explain SD201 -o sd201.html`), shown as written."""
    import html

    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title></head>\n"
            f"<body><pre style=\"white-space: pre-wrap\">{html.escape(text)}</pre></body></html>")
