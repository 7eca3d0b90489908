"""`spec-debug explain PLAYBOOK`: a newcomer's walkthrough, written from the playbook and the catalog.

Nothing here is written by hand per playbook: each step's `why`, its expectations, the codes
it can raise (from its finding templates and its probe's declared codes) and the catalog's
explanation of each code (with the incident or public issue that taught it) are assembled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from jinja2 import ChainableUndefined, Undefined
from markupsafe import Markup, escape

from spec_debug.playbook.loader import LoadedPlaybook
from spec_debug.playbook.models import Expectation, Step, is_empty_var
from spec_debug.report.markdown_prose import CODE_SPAN, code_span


@dataclass
class CodeExplanation:
    code: str
    severity: str
    title: str
    detects: str = ""
    why: str = ""
    fix: str = ""
    example: str = ""
    sources: list[str] = field(default_factory=list)


@dataclass
class StepExplanation:
    number: int
    id: str
    title: str
    why: str
    action: str
    """What runs, in plain words (no Markdown): the templates set the parts below in code."""
    runs_when: list[str]
    healthy: list[str]
    failing: list[str]
    codes: list[CodeExplanation]
    command: str | None = None
    """The `run:` template as it will run, placeholders kept (may be several lines, may hold
    backticks); `{% raw %}` markers are gone (as_it_runs)."""
    verbatim: list[str] = field(default_factory=list)
    """Text the command sends as written though it looks like a placeholder (`{{.State.Status}}`)."""
    templated: bool = False
    """Whether the command holds a placeholder or a block that is filled in at run time."""
    probe: str | None = None
    probe_summary: str = ""
    probe_args: dict[str, str] = field(default_factory=dict)
    fetch: list[str] = field(default_factory=list)


def _explain_code(code: str, template_title: str | None = None, template_severity: str | None = None) -> CodeExplanation:
    from spec_debug.diagnose.catalog import CATALOG

    doc = CATALOG.get(code)
    if doc is not None:
        return CodeExplanation(
            code=code, severity=template_severity or doc.severity, title=doc.title, detects=doc.detects,
            why=doc.why, fix=doc.fix, example=doc.example, sources=list(doc.sources),
        )
    return CodeExplanation(code=code, severity=template_severity or "warning", title=template_title or "(defined by this playbook)")


_TITLE_FIELD = re.compile(r"\{\{\s*(?:vars\.)?([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}")


def readable_title(title: str | None, defaults: dict[str, Any]) -> str | None:
    """A finding title as the walkthrough shows it before any run: "Less than {{ min_free_gb }}
    GB free on {{ host }}" read as Jinja to a newcomer; a var becomes its default, anything else
    (the host, a fact) its name in capitals: "Less than 20 GB free on HOST".

    An expression with more than a name (`restart on {{ port | default(8000) }}`, `{{ 'tp' if
    tp > 1 else 'single' }}`) was shown as written; it is rendered as the runner renders it, with
    the vars' defaults, so filters and conditions read as they will ("restart on 30000"). One
    that cannot be rendered before the run (a comparison with a fact) is kept as written."""
    if not title or "{" not in title:
        return title
    if "{%" in title or "{#" in title:  # a block ({% if %}, {# note #}) spans the text: rendered whole
        shown = _rendered_label(title, defaults)
        if shown is not None:
            return shown

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        default = _default_at(defaults, name)
        if default not in (None, ""):
            return value_text(default)
        return name.rsplit(".", 1)[-1].upper()

    def shown(match: re.Match[str]) -> str:
        named = _TITLE_FIELD.fullmatch(match.group(0))
        if named:
            return fill(named)
        rendered = _rendered_label(match.group(0), defaults)
        return match.group(0) if rendered is None else rendered

    return _EXPRESSION.sub(shown, title)


_EXPRESSION = re.compile(r"\{\{.*?\}\}", re.DOTALL)


def _rendered_label(title: str, defaults: dict[str, Any]) -> str | None:
    """``title`` rendered in the runner's sandbox with the vars' defaults (a var left empty, the
    host and a fact shown as their names in capitals); None where it cannot be rendered."""
    given = {name: value if value not in (None, "") else _RunValue(name=name) for name, value in defaults.items()}
    at_run = {name: _RunValue(name=name) for name in ("host", "facts", "steps")}
    try:
        return _label_environment().from_string(title).render({**given, "vars": given, **at_run})
    except Exception:  # an author's label: a comparison with an unknown value, a syntax error
        return None


class _ShownAsName(ChainableUndefined):
    """A value unknown before the run (the host, a fact, a var left empty), written as its name
    in capitals as readable_title writes it: `facts.port` -> PORT."""

    __slots__ = ()

    def __str__(self) -> str:
        return str(self._undefined_name or "value").rsplit(".", 1)[-1].upper()

    def __getattr__(self, name: str) -> Any:
        if name[:2] == "__":
            raise AttributeError(name)
        return type(self)(name=name)

    def __getitem__(self, key: Any) -> Any:
        return type(self)(name=f"{self._undefined_name}[{key}]")


class _RunValue(_ShownAsName):
    """A value the run gives (the host, a fact, a step's result, a var left empty for --var):
    a `default` filter does not replace it. `{{ facts.accept | default('?') }}` read "?" as if
    the run had no accept length; it reads ACCEPT. (A name no var defines is a plain
    _ShownAsName: the runner gives `default` that one too.)"""

    __slots__ = ()


@lru_cache(maxsize=1)
def _label_environment() -> Any:
    """The runner's sandbox for texts (templating.TEXT_ENV's filters), where an unknown value
    passes through every filter unchanged: `{{ facts.accept | round(2) }}` reads ACCEPT, not
    Jinja's 0.0 for a value it could not convert (`default` replaces a name nothing defines)."""
    import functools

    from spec_debug.playbook.templating import TEXT_ENV
    from spec_debug.sandbox import BoundedSandbox

    def passing_unknown(name: str, function: Any) -> Any:
        first = 1 if getattr(function, "jinja_pass_arg", None) else 0

        @functools.wraps(function)  # keeps jinja_pass_arg (pass_context, pass_environment)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if len(args) > first and isinstance(args[first], Undefined):
                return args[first]
            return function(*args, **kwargs)

        return wrapped

    env = BoundedSandbox(undefined=_ShownAsName, autoescape=False, keep_trailing_newline=False,
                         finalize=lambda value: value if isinstance(value, Undefined) else value_text(value))
    env.filters.update({name: passing_unknown(name, function) for name, function in TEXT_ENV.filters.items()})
    default = TEXT_ENV.filters["default"]
    env.filters["default"] = env.filters["d"] = functools.wraps(default)(
        lambda value, *args, **kwargs: value if isinstance(value, _RunValue) else default(value, *args, **kwargs))
    return env


def _default_at(defaults: dict[str, Any], dotted: str) -> Any:
    """`engine.name` in a title is the name key of the var engine: {name: sglang, tp: 8}; read
    as one var name it matched nothing and the title said "on NAME"."""
    value: Any = defaults
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def _step_codes(step: Step, defaults: dict[str, Any] | None = None) -> list[CodeExplanation]:
    seen: dict[str, CodeExplanation] = {}
    templates = [e.finding for e in step.expect if e.finding] + list(step.findings)
    for template in templates:
        if template and template.code not in seen:
            title = readable_title(template.title, defaults or {})
            seen[template.code] = _explain_code(template.code, title, template.severity)
    if step.probe:
        from spec_debug.probes.registry import all_probes

        spec = all_probes().get(step.probe)
        for code in spec.codes if spec else ():
            seen.setdefault(code, _explain_code(code))
    return list(seen.values())


def _action(step: Step) -> dict[str, Any]:
    """The step's action as parts: the templates decide how each is shown. A command went into
    one inline code span before, which a `run: |` block (several lines) or a backtick in the
    command broke: the Markdown lost its code span and the rest of the paragraph with it."""
    if step.run is not None:
        command, verbatim = as_it_runs(step.run)
        return {"action": "runs this command on the host", "command": command.strip("\n"), "verbatim": verbatim,
                "templated": has_placeholder(step.run)}
    if step.probe is not None:
        from spec_debug.probes.registry import all_probes

        spec = all_probes().get(step.probe)
        args = {str(k): value_text(v) for k, v in step.with_.items()}
        return {
            "action": f"runs the built-in probe {step.probe}", "probe": step.probe,
            "probe_summary": spec.summary if spec else "", "probe_args": args,
        }
    assert step.fetch is not None
    sources = list(step.fetch.sources())
    return {"action": "copies from the host into the run's artifacts: " + ", ".join(sources), "fetch": sources}


_RAW_MARKERS = ("raw_begin", "raw_end")


def as_it_runs(template: str) -> tuple[str, list[str]]:
    """A `run:` template with its `{% raw %}...{% endraw %}` markers taken out, as Jinja takes
    them out when it renders the command, and the raw blocks' text that looks like a
    placeholder (a `docker inspect --format '{{.State.Status}}'`): the walkthrough printed the
    markers, which never reach the host. Everything else stays as written.

    Read with Jinja's own lexer: the values of its tokens are the source text (a `{%- raw -%}`
    marker's value holds the whitespace the dash removes, and the data before it comes already
    stripped), so joining them without the markers is the text the renderer works from."""
    from jinja2 import TemplateSyntaxError

    from spec_debug.playbook.templating import SHELL_ENV

    if "raw" not in template:
        return template, []
    try:
        tokens = list(SHELL_ENV.lexer.tokeniter(template, None))
    except TemplateSyntaxError:
        return template, []  # the loader refuses it first; never worse than as written
    if not any(kind in _RAW_MARKERS for _, kind, _ in tokens):
        return template, []
    shown: list[str] = []
    verbatim: list[str] = []
    inside_raw = False
    for _, kind, value in tokens:
        if kind in _RAW_MARKERS:
            inside_raw = kind == "raw_begin"
            continue
        if inside_raw and ("{{" in value or "{%" in value or "{#" in value):
            verbatim.append(value)
        shown.append(value)
    # tokeniter drops the final newline as the renderer does; a `run: |` block keeps its own.
    return "".join(shown) + ("\n" if template.endswith("\n") else ""), list(dict.fromkeys(verbatim))


def has_placeholder(template: str) -> bool:
    """Whether Jinja fills anything of a `run:` template in at run time: a `{{ ... }}` or a `{%
    ... %}` block outside `{% raw %}`. The walkthrough said "(`{{ var }}` is filled in at run time)"
    above every command, also above `df -Pk . | tail -1`, and a newcomer looked for the
    placeholder it spoke of."""
    from jinja2 import TemplateSyntaxError

    from spec_debug.playbook.templating import SHELL_ENV

    if "{{" not in template and "{%" not in template:
        return False
    try:
        return any(kind in ("variable_begin", "block_begin") for _, kind, _ in SHELL_ENV.lexer.tokeniter(template, None))
    except TemplateSyntaxError:
        return True  # the loader refuses it first; the note as it always was


def _requirements(step: Step, defaults: dict[str, Any]) -> list[str]:
    """What a step's `requires:` asks of the reader. The runner counts a var's `vars:` default
    (runner/engine.py: a required var is missing when its value is empty), so a var with a
    non-empty default needs no --var: saying it did sent readers to set what was already set."""
    unset = [r for r in step.requires if is_empty_var(defaults.get(r))]
    preset = [r for r in step.requires if r not in unset]
    said = []
    if unset:
        said.append("needs " + ", ".join(code_span(f"--var {r}=...") for r in unset) + " (skipped with a note otherwise)")
    if preset:
        said.append("uses " + ", ".join(f"{code_span(r)} = {code_span(defaults[r])} by default" for r in preset)
                    + " (skipped with a note if set empty)")
    return said


def explain_playbook(loaded: LoadedPlaybook, only_step: str | None = None) -> dict[str, Any]:
    """The walkthrough's data; ``only_step``: that step alone (`explain hidden_layout`), numbered
    as in the whole playbook."""
    playbook = loaded.playbook
    shown = _shown_defaults(playbook.vars)
    steps: list[StepExplanation] = []
    for number, step in enumerate(playbook.steps, start=1):
        runs_when = []
        runs_when.extend(_requirements(step, playbook.vars))
        if step.when:
            runs_when.append(f"runs only when {code_span(step.when)}")
        if step.timeout:
            runs_when.append(f"is stopped after {step.timeout:g} s")
        if step.retries:
            # retry_delay is what makes the tries a wait (a server still loading its weights)
            apart = f", {step.retry_delay:g} s apart" if step.retry_delay else ""
            until = f"{',' if apart else ''} until {code_span(step.until)} holds" if step.until else ""
            runs_when.append(f"is tried up to {step.retries + 1} times{apart}{until}")
        if step.on_failure == "stop":  # runner/engine.py skips the host's later steps then
            runs_when.append("stops this host's run when it fails (the later steps are not run)")
        if step.fetch is not None:  # a fetch runs no command: it errors when a file cannot be copied
            default = ["every file is copied"]
        elif step.probe:
            default = ["the probe's checks raise no finding" + _unchecked_note(step.probe)]
        else:
            default = ["the command exits with code 0"]
        healthy = [readable_title(_describe(e), shown) if e.description else _describe(e)
                   for e in step.expect] or default
        codes = _step_codes(step, shown)
        failing = [f"{c.code} ({c.severity}): {c.title}" for c in codes] or _runner_failing(step)
        captures = [c.name or ", ".join(_group_names(c.regex)) for c in step.capture]
        if captures:
            healthy.append("captures " + ", ".join(code_span(c) for c in captures if c))
        steps.append(
            StepExplanation(
                # title and why are templates rendered for each host as the step runs: before any
                # run they read as finding titles do ("on HOST", a var's default), not as Jinja
                number=number, id=step.id, title=readable_title(step.title, shown) or step.id,
                why=readable_title(step.why.strip(), shown) or "", **_action(step),
                runs_when=runs_when, healthy=healthy, failing=failing, codes=codes,
            )
        )
    return {
        "name": playbook.name,
        "run_as": _run_argument(loaded),
        "piped": _piped(loaded),
        "description": playbook.description.strip(),
        "path": loaded.path,
        "vars": playbook.vars,
        "var_notes": var_notes(loaded.path, list(playbook.vars), loaded.text),
        "var_required_by": _required_by(playbook.steps, list(playbook.vars)),
        "steps": [s for s in steps if s.id == only_step] if only_step else steps,
        "only_step": only_step,
    }


def _shown_defaults(defaults: dict[str, Any]) -> dict[str, Any]:
    """The vars' defaults as the runner resolves them before a run (templating.resolve_vars), a
    var that is a template over others (`url: "http://localhost:{{ port }}"`) read with theirs:
    a title `GET {{ url }}` read "GET http://localhost:{{ port }}" in the walkthrough, where the
    run says "GET http://localhost:30000". An empty var or the host reads as its name, as in
    readable_title; vars that cannot be resolved (a syntax error, a circle) stay as written."""
    from jinja2 import TemplateSyntaxError

    from spec_debug.playbook.templating import var_order, var_references

    pending = [name for name, value in defaults.items() if isinstance(value, str) and ("{{" in value or "{%" in value)]
    if not pending:
        return defaults
    try:
        uses = {name: [n for n in var_references(defaults[name], defaults) if n in pending] for name in pending}
    except TemplateSyntaxError:
        return defaults
    order, cycle = var_order(uses)
    if cycle:
        return defaults
    shown = dict(defaults)
    for name in order:
        shown[name] = readable_title(defaults[name], shown)
    return shown


def _required_by(steps: list[Step], names: list[str]) -> dict[str, list[str]]:
    """The steps that name each var in `requires:`: only those are skipped when it is empty
    (runner/engine.py). The vars table said "(empty: steps that need it are skipped)" of every
    empty var, also of perf_regression's server_cmdline, engine and draft_model, which the probes
    find on the host when empty, and of a var a `run:` just renders as nothing."""
    return {name: [s.id for s in steps if name in s.requires] for name in names}


def _unchecked_note(probe: str) -> str:
    """Every diagnostic probe's check reports a check it could not make for lack of an input as
    an SD004 info line and still passes (diagnose/steps/common.not_checked). The walkthrough said
    only "raise no finding", and the newcomer then met "SD004 Not checked: --var engine=..." on
    a step that passed."""
    from spec_debug.probes.registry import all_probes

    spec = all_probes().get(probe)
    if spec is None or spec.check is None:
        return ""
    return "; a check that lacks an input is SD004 (info), a line naming the `--var` to pass, not a failure"


def _runner_failing(step: Step) -> list[str]:
    """What the runner raises for a step that names no code. SD001 is a failed expectation or
    a non-zero exit of a `run:`; a probe that cannot run (no JSON, an exception) and a fetch
    that cannot copy are SD003 (runner/attempt.py, runner/engine.py). The walkthrough said
    "marked failed (SD001)" of engine_info, whose failure the report calls SD003."""
    from spec_debug.diagnose.catalog import CATALOG

    said = []
    if step.run is not None or step.expect:
        said.append("the step is marked failed (SD001)")
    if step.run is None:
        said.append(f"SD003 ({CATALOG['SD003'].severity}): {CATALOG['SD003'].title}")
    return said


_BLOCK_HEADER = re.compile(r"^\s*:?\s*(?:[|>][-+0-9]*)?\s*#\s*(.*?)\s*$")


def var_notes(path: str, names: list[str], text: str = "") -> dict[str, str]:
    """What each var means, from the comment its author wrote beside it (`server_cmdline: ""  #
    the server's command line; else found among the host's processes`). The walkthrough's vars
    table showed only defaults, and "(empty: steps that need it are skipped)" for a var that is
    in fact discovered on the host when empty: the author's words were in the file only.

    The comment is found where YAML's own scanner says the value ends: a pattern read the first
    ` #` on the line as the comment, and `cmd: 'echo a # b'  # the probe command` was noted
    "b'  # the probe command", `check: "grep -c ' # '"` (no comment at all) `'"`."""
    from pathlib import Path

    import yaml

    from spec_debug.playbook.loader import text_encoding

    try:
        if not text:  # TEXT: as the loader read it, where the file cannot be read again (a pipe)
            source = Path(path)
            raw = source.read_bytes() if source.is_file() else b""
            # read as the loader read it: a UTF-16 playbook (PowerShell's `>`) loaded, and then its
            # notes were lost to a UTF-8 read of the same file
            encoding = text_encoding(raw)
            text = raw.decode("utf-8-sig" if encoding == "utf-8" else encoding)
        text = text.removeprefix("\ufeff")
        root = yaml.compose(text, Loader=yaml.SafeLoader) if text.strip() else None
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    if not isinstance(root, yaml.MappingNode):
        return {}
    block = next((value for key, value in root.value if isinstance(key, yaml.ScalarNode) and key.value == "vars"), None)
    if not isinstance(block, yaml.MappingNode):
        return {}
    lines = text.splitlines()
    notes: dict[str, str] = {}
    for key, value in block.value:
        if not isinstance(key, yaml.ScalarNode) or key.value not in names or key.value in notes:
            continue
        note = _comment_after(lines, key, value)
        if note:
            notes[key.value] = note
    return {name: notes[name] for name in names if name in notes}


def _comment_after(lines: list[str], key: object, value: object) -> str | None:
    """The comment on a var's line: after its value where the value ends on a line (a plain,
    quoted or flow value), else after the key (`engine:  # ...` over a nested mapping, a
    `|` or `>` block whose comment sits on its header)."""
    import yaml

    assert isinstance(key, yaml.Node) and isinstance(value, yaml.Node)
    on_key_line = isinstance(value, (yaml.MappingNode, yaml.SequenceNode)) and not value.flow_style or (
        isinstance(value, yaml.ScalarNode) and value.style in ("|", ">"))
    if on_key_line or value.end_mark.line >= len(lines):
        mark = key.end_mark
        match = _BLOCK_HEADER.match(lines[mark.line][mark.column:]) if mark.line < len(lines) else None
        return match.group(1) if match and match.group(1) else None
    rest = lines[value.end_mark.line][value.end_mark.column:].strip()
    return rest[1:].strip() or None if rest.startswith("#") else None


def value_text(value: Any) -> str:
    """A var or probe arg as the playbook's author would write it: a list as [2, 18, 33] and a
    flag as true, not Python's ['2'] / True."""
    import json

    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _describe(expectation: Expectation) -> str:
    """An expectation in Markdown: the pattern or expression as code, so that a regex keeps its
    backslashes and a `*` in it starts no emphasis."""
    e = expectation
    if e.description:
        return e.description
    if e.exit_code is not None:
        # `exit_code: [0, 1]` (grep's "no match" is 1) read "exit code [0, 1]", Python's list
        codes = [str(c) for c in e.exit_code] if isinstance(e.exit_code, list) else [str(e.exit_code)]
        return "exit code " + (" or ".join(codes) if len(codes) < 3 else ", ".join(codes[:-1]) + " or " + codes[-1])
    if e.contains is not None:
        return f"output contains {code_span(e.contains)}"
    if e.not_contains is not None:
        return f"output does not contain {code_span(e.not_contains)}"
    if e.matches is not None:
        return f"output matches {code_span(e.matches)}"
    return f"{code_span(e.that)} holds"


def _piped(loaded: LoadedPlaybook) -> bool:
    """Whether the playbook came through a pipe (`curl -s URL | spec-debug explain -`, or
    `explain <(...)`): gone once read, so `run /dev/stdin --step` (refused: --step reads its
    answers there) and `explain /dev/stdin` again are no commands to give."""
    return str(loaded.path) in ("-", "/dev/stdin", "/proc/self/fd/0") or str(loaded.path).startswith(
        ("/dev/fd/", "/proc/self/fd/"))


def _run_argument(loaded: LoadedPlaybook) -> str:
    """What to pass to `spec-debug run`: a shipped playbook by its file name, anything else by
    its path. The walkthrough said `spec-debug run NAME` for a team's own file, which `run`
    then refused ("not a playbook"): only shipped playbooks are found by name."""
    import shlex
    from pathlib import Path

    from spec_debug.playbook.loader import shipped_playbooks_dir

    if _piped(loaded):
        return "playbook.yaml"  # the walkthrough says to save it there first
    path = Path(loaded.path)
    try:
        shipped = path.resolve().parent == shipped_playbooks_dir().resolve()
    except OSError:
        shipped = False
    return path.stem if shipped else shlex.quote(loaded.path)


def _group_names(regex: str | None) -> list[str]:
    import re

    return list(re.compile(regex).groupindex) if regex else []


def render_explanation(loaded: LoadedPlaybook, fmt: str = "md", only_step: str | None = None) -> str:
    from spec_debug.report.render import make_environment

    env = make_environment()
    env.filters["code_spans"] = code_spans_html
    env.filters["prose_html"] = prose_html
    env.filters["value_text"] = value_text
    env.tests["empty_var"] = is_empty_var  # as the runner reads `requires:`
    return env.get_template(f"walkthrough.{fmt}.j2").render(**explain_playbook(loaded, only_step))


def prose_html(text: Any, lead: str | None = None) -> Markup:
    """A playbook's description or a step's why as HTML blocks, read as the Markdown walkthrough
    reads them (md_text, then CommonMark): paragraphs, list items and fenced commands keep their
    shape. The HTML walkthrough put the text in one <p>, which ran a description's paragraphs
    and a why's `- ` checks together into one line. Raw HTML in the text is escaped (markdown-it
    with html off), so `<model>` shows as written. `lead` ("Why it matters.") opens the first
    paragraph in bold, as the Markdown walkthrough writes it."""
    from spec_debug.report.markdown_prose import md_text

    rendered = _commonmark().render(md_text(text)).strip()
    if lead is not None:
        label = f"<strong>{escape(lead)}</strong>"
        rendered = f"<p>{label} {rendered[3:]}" if rendered.startswith("<p>") else f"<p>{label}</p>\n{rendered}"
    return Markup(rendered)


@lru_cache(maxsize=1)
def _commonmark() -> Any:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False})
    md.add_render_rule("image", _image_as_link)
    return md


def _image_as_link(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    """An image in a why (`![plot](https://host/x.png)`) as a link to it, its alt text as the
    words. As <img> the walkthrough, one file to read offline or pass around, fetched it from
    that server whenever it was opened (a playbook piped from a URL could track its readers)."""
    from markdown_it.common.utils import escapeHtml

    token = tokens[idx]
    src = token.attrGet("src") or ""
    alt = renderer.renderInlineAsText(token.children or [], options, env) or src
    return f'<a href="{escapeHtml(str(src))}">{escapeHtml(alt)}</a>'


def code_spans_html(text: Any) -> Markup:
    """The walkthrough's texts (catalog entries, the step's why) write code in backticks, which
    HTML showed literally: each span becomes <code>, everything else is escaped."""
    source = str(text if text is not None else "")
    parts: list[str] = []
    last = 0
    for match in CODE_SPAN.finditer(source):
        inner = match.group(2)
        if inner.startswith(" ") and inner.endswith(" ") and inner.strip():
            inner = inner[1:-1]
        parts.append(str(escape(source[last:match.start()])))
        parts.append(f"<code>{escape(inner)}</code>")
        last = match.end()
    parts.append(str(escape(source[last:])))
    return Markup("".join(parts))
