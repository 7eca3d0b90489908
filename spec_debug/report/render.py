"""Render a run record with Jinja2: Markdown, self-contained HTML, or JSON.

Templates run in a SandboxedEnvironment (a --template may come from anyone); HTML is
autoescaped, so remote output can never inject markup into a report.
"""

from __future__ import annotations

import difflib
import json
import re
import traceback
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from jinja2 import (
    ChoiceLoader,
    FileSystemLoader,
    StrictUndefined,
    TemplateNotFound,
    TemplateSyntaxError,
    select_autoescape,
)
from jinja2.exceptions import TemplateError as JinjaTemplateError
from jinja2.sandbox import SandboxedEnvironment
from pydantic import BaseModel

from spec_debug.errors import UsageError
from spec_debug.record import RunRecord, shell_word
from spec_debug.report.markdown_prose import code_span, escape_emphasis, escape_tag_starts, md_text
from spec_debug.report.terminal import clip_middle, screen_text
from spec_debug.report.views import report_view
from spec_debug.sandbox import BoundedSandbox
from spec_debug.store import write_atomic

ReportFormat = Literal["md", "html", "json"]


def templates_dir() -> Path:
    return Path(str(resources.files("spec_debug") / "templates"))


def make_environment(extra_dir: Path | None = None, *, escape_all: bool = False) -> SandboxedEnvironment:
    """escape_all: every template escapes, whatever its name; for a --template rendered as HTML
    (`report RUN --template brief.j2 -o brief.html`), where the name alone left a step's output
    (`</script><script>...` from the host) raw in the HTML file."""
    loaders = [FileSystemLoader(str(extra_dir))] if extra_dir else []
    loaders.append(FileSystemLoader(str(templates_dir())))
    env = BoundedSandbox(
        loader=ChoiceLoader(loaders),
        autoescape=True if escape_all else select_autoescape(enabled_extensions=("html", "html.j2", "htm"),
                                                             default_for_string=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # `{{ record.findings | tojson }}` (a webhook or Slack payload) met json.dumps' "Object of
    # type Finding is not JSON serializable": the record's parts are pydantic models. They are
    # written as run.json writes them; Jinja passes these keyword arguments to json.dumps
    # (pallets/jinja src/jinja2/utils.py, htmlsafe_json_dumps; the default policy is sort_keys).
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "default": _json_default}
    env.filters["md_escape"] = md_escape
    env.filters["md_cell"] = md_cell
    env.filters["md_text"] = md_text
    env.filters["fmt_num"] = fmt_num
    env.filters["md_code"] = md_code
    env.filters["md_code_span"] = md_code_span
    env.filters["code_span"] = code_span  # outside a table
    env.filters["screen"] = screen_text
    env.filters["clip"] = clip_middle
    env.filters["safe_href"] = safe_href
    env.filters["fact_shown"] = fact_shown
    return env


def _json_default(value: Any) -> Any:
    """A record model as its run.json form; anything else stays json.dumps' own TypeError."""
    if isinstance(value, BaseModel):
        return json.loads(value.model_dump_json())
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def md_escape(value: Any) -> str:
    """Inline Markdown text: special characters escaped, and on one line (a line break would
    end the heading or list item it sits in)."""
    text = " ".join(str(value).splitlines())
    for char in ("\\", "`", "*", "_", "[", "]", "<", ">", "|"):
        text = text.replace(char, "\\" + char)
    return text


def md_cell(value: Any) -> str:
    """A value that stays inside one Markdown table cell (any line break would end the row), its
    `<tag>`-like text shown, not read as HTML: a step's message quotes Python's
    `<urlopen error [Errno 111] Connection refused>` and authors' `<port>` placeholders; a glob's
    `*` and `__pycache__`'s underscores shown as written, not as emphasis."""
    cell = " ".join(str(value if value is not None else "").replace("|", "\\|").splitlines())
    return escape_emphasis(escape_tag_starts(cell))


def _longest_run(text: str, char: str) -> int:
    runs = re.findall(re.escape(char) + "+", text)
    return max((len(r) for r in runs), default=0)


def md_code(value: Any, lang: str = "text") -> str:
    """A fenced code block that the text cannot close early: the fence is longer than any
    backtick run inside (CommonMark 0.31 section 4.5), so output that prints ``` (a README, a
    Markdown log) stays inside its block instead of turning the rest of the report into code."""
    text = str(value if value is not None else "").rstrip("\n")
    fence = "`" * max(3, _longest_run(text, "`") + 1)
    return f"{fence}{lang}\n{text}\n{fence}"


def md_code_span(value: Any) -> str:
    """An inline code span for any text (CommonMark 0.31 section 6.1): delimited by a backtick
    run longer than any inside, padded when the text starts or ends with a backtick. Made for
    table cells: a | is escaped, which GFM tables undo inside code spans."""
    text = " ".join(str(value if value is not None else "").splitlines()).replace("|", "\\|")
    ticks = "`" * (_longest_run(text, "`") + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fact_shown(value: Any, limit: int) -> str:
    """A fact's value as the reports' facts tables show it: at most ``limit`` characters, and
    then how many more (a captured server command line cut at 200 with no mark read as the whole
    of it); the empty text as "" (a code span of nothing showed two backticks in report.md).

    A value that is no text is written as run.json writes it: a fact captured from JSON showed
    Python's words (`{"ready": true, "draft": null}` read `True` and `None`, a list `['a', 'b']`),
    which neither the host's output nor run.json nor a playbook's `that:` (`is none`) says."""
    text = screen_text(value if isinstance(value, str) else _as_json(value))
    if not text:
        return '""'
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} characters more in run.json)"


def _as_json(value: Any) -> str:
    if value is None or isinstance(value, (bool, list, tuple, dict)):
        try:
            return json.dumps(value, ensure_ascii=False, default=str)
        except (TypeError, ValueError):  # a key JSON has no form for, a cycle
            pass
    return str(value)


def safe_href(value: Any) -> str | None:
    """Only web and mail links become links: a reference like ``javascript:...`` in a shared
    playbook would otherwise run in whoever opens the report."""
    text = str(value).strip()
    # One address and nothing else: report.md writes it as an autolink, <URL>, which ends at the
    # first space or `<`, so "https://host/?q=<script>...</script>" put a raw <script> tag into
    # report.md and "https://.../pull/1 (the fix)" showed as broken text. Such a reference is
    # shown as code (both reports), not linked.
    return text if re.fullmatch(r"(?i)(https?://|mailto:)[^\s<>\"'`\\\x00-\x1f\x7f]+", text) else None


def fmt_num(value: Any, digits: int = 3) -> str:
    if isinstance(value, float):
        return f"{value:.{digits}g}" if abs(value) < 1e6 else f"{value:.3e}"
    return str(value)


def rerender_target(record: RunRecord, run_dir: Path | None) -> str:
    """What to pass to `spec-debug report` to render this run again, as the report's footer
    prints it: the bare run id for runs/<run-id> here (the default --out), else the run
    folder's path. The footer said the bare id for a run written with `-o /scratch/runs`, and
    `spec-debug report <id>` then answered "no run record"."""
    if run_dir is None:
        return record.run_id
    try:
        here = Path.cwd()
        folder = run_dir if run_dir.is_absolute() else here / run_dir
        if folder.resolve() == (here / "runs" / record.run_id).resolve():
            return record.run_id
    except (OSError, ValueError, RuntimeError):
        return record.run_id  # cwd gone or a link loop: the id is still the run's name
    # As the user wrote it: an absolute -o stays absolute (it works from anywhere), a relative
    # one works from where the run was started, as the bare id does.
    return shell_word(str(run_dir))  # a Latin-1 folder's byte as $'\xe9', which a shell gives back


def render_report(record: RunRecord, fmt: ReportFormat = "md", template: Path | None = None,
                  run_dir: Path | None = None) -> str:
    if fmt == "json" and template is None:
        return record.model_dump_json(indent=2)
    env = make_environment(template.parent if template else None, escape_all=template is not None and fmt == "html")
    name = template.name if template else f"report.{fmt}.j2"
    context: dict[str, Any] = {}
    try:
        tmpl = env.get_template(name)
        context = {**report_view(record), "record": record, "rerender": rerender_target(record, run_dir)}
        return tmpl.render(**context)
    except Exception as exc:
        # A --template is anyone's code: besides Jinja's own errors it can divide by zero, add
        # a str to an int, recurse forever or not be UTF-8. All of them are one line, with the
        # template line where Jinja knows it.
        raise UsageError(f"report template {_where(exc, template, name)} failed: {_what(exc)}",
                         hint=_undefined_name_hint(exc, context) or _unknown_filter_hint(exc, env)) from None


def _unknown_filter_hint(exc: Exception, env: Any) -> str | None:
    """`{{ record.steps | lenght }}` failed with "No filter named 'lenght'." and no more; a
    playbook's template says "did you mean 'length'?" for the same typo."""
    unknown = re.match(r"No (filter|test) named '([^']+)'", str(getattr(exc, "message", "") or ""))
    if not isinstance(exc, JinjaTemplateError) or unknown is None:
        return None
    kind, word = unknown.groups()
    known = sorted(env.filters if kind == "filter" else env.tests)
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.75)  # 'pased' is no typo of the test 'false'
    return f"did you mean {close[0]!r}?" if close else f"the {kind}s a report template has: {', '.join(known)}"


def _undefined_name_hint(exc: Exception, context: dict[str, Any]) -> str | None:
    """A template written from a guess at the names (`run.steps`, `steps`, `findings` as in
    run.json) failed with "'run' is undefined" alone: say which top-level names there are."""
    undefined = re.fullmatch(r"'(\w+)' is undefined", str(getattr(exc, "message", "") or ""))
    if not isinstance(exc, JinjaTemplateError) or undefined is None or not context:
        return None
    return (f"{undefined.group(1)!r} is not a name the report knows: the run.json record is `record` "
            f"(record.steps, record.findings, record.facts); the others: {', '.join(sorted(set(context) - {'record'}))}")


def _where(exc: Exception, template: Path | None, name: str) -> str:
    where = str(template) if template else name
    line = getattr(exc, "lineno", None) if isinstance(exc, TemplateSyntaxError) else None
    if line is None:
        # Jinja rewrites tracebacks so that template code shows up as frames of the template file.
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(name)]
        line = frames[-1].lineno if frames else None
    return f"{where}:{line}" if line else where


def _what(exc: Exception) -> str:
    if isinstance(exc, TemplateNotFound):
        return f"template not found: {exc.name}"
    if isinstance(exc, JinjaTemplateError):
        return str(exc.message or exc).splitlines()[0]
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text (byte {exc.start})"
    return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"


def write_reports(record: RunRecord, run_dir: Path) -> dict[str, Path]:
    """Render report.md and report.html next to run.json."""
    written: dict[str, Path] = {}
    for fmt in ("md", "html"):
        path = run_dir / f"report.{fmt}"
        text = render_report(record, fmt, run_dir=run_dir)  # type: ignore[arg-type]
        # Jinja drops the template's last newline: report.md ended mid-line (`cat` ran the
        # prompt on, `git diff` said "No newline at end of file").
        write_atomic(path, text if text.endswith("\n") else text + "\n")
        written[fmt] = path
    return written
