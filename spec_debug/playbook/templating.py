"""Jinja2 for playbook authors: sandboxed, strict, and shell-safe.

Every template a playbook author writes renders in a SandboxedEnvironment with
StrictUndefined. In `run:` commands, every interpolated value is shell-quoted (a fact captured
from remote output must never become shell code); `{{ x | raw }}` opts out on purpose.
"""

from __future__ import annotations

import difflib
import json
import re
import shlex
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable

from jinja2 import StrictUndefined, TemplateAssertionError, TemplateSyntaxError, UndefinedError, nodes
from jinja2.filters import do_default
from jinja2.sandbox import SandboxedEnvironment

from spec_debug.errors import TemplateError
from spec_debug.sandbox import BoundedSandbox
from spec_debug.playbook.shell_context import DOUBLE_FILTER, HEREDOC_FILTER, SINGLE_FILTER, mark_quoted_templates

# Names a template may use besides the playbook's vars.
CONTEXT_NAMES = frozenset({"vars", "facts", "host", "exit_code", "stdout", "stderr", "steps"})
# Names Jinja reads as its own whatever the context holds: the constants its parser knows and
# the template reference it passes as `self` (jinja2/parser.py parse_primary, jinja2/runtime.py).
JINJA_OWN_NAMES = frozenset({"true", "false", "none", "True", "False", "None", "self"})

_TILDE_PREFIX = re.compile(r"^~[A-Za-z0-9_.-]*/")


class RawShell(str):
    """A value the author asked to splice into a command unquoted (`| raw`)."""


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, dict)):
        # A list or mapping var in a command was Python's repr: `--speculative-config {{ spec }}`
        # gave vLLM {'method': 'eagle3', 'num_speculative_tokens': 3}, which its json.loads
        # refuses, `{{ layers }}` ['2', '16'] with True/None inside. JSON, as --var takes them
        # (`--var 'layers=[2, 16]'`) and as `| tojson` writes them; one shell word, quoted.
        try:
            # default=str: a YAML date is its text; a fact that is None refuses, as it does bare
            return json.dumps(value, ensure_ascii=False, default=str)
        except (TypeError, ValueError):  # a key JSON has no form for (a tuple), a cycle
            return str(value)
    return str(value)


def shell_quote(value: Any) -> str:
    """shlex.quote, except a leading ~/ or ~user/ stays unquoted so the shell expands it
    (hosts name their venv as ~/ml-env/bin/python)."""
    if isinstance(value, RawShell):
        return str(value)
    if value is None:
        return "''"
    text = _as_text(value)
    prefix = _TILDE_PREFIX.match(text)
    if prefix and "'" not in prefix.group(0):
        rest = text[prefix.end():]
        return prefix.group(0) + (shlex.quote(rest) if rest else "")
    return shlex.quote(text)


_DOUBLE_QUOTED_SPECIAL = re.compile(r'([\\"$`])')


def _in_double_quotes(value: Any) -> RawShell:
    """A value written inside the author's "...": only \\ " $ ` are special there (POSIX 2.2.3)."""
    if isinstance(value, RawShell):
        return value
    return RawShell(_DOUBLE_QUOTED_SPECIAL.sub(r"\\\1", _as_text(value)))


def _in_single_quotes(value: Any) -> RawShell:
    """A value written inside the author's '...': nothing is special but ' itself, which must
    end the quote, be escaped, and reopen it (POSIX 2.2.2)."""
    if isinstance(value, RawShell):
        return value
    return RawShell(_as_text(value).replace("'", "'\\''"))


_HEREDOC_SPECIAL = re.compile(r"([\\$`])")


def forms_in_command(secret: str) -> tuple[str, ...]:
    """`secret` as a templated step line may hold it: quoted by shell_quote (shlex.quote:
    `it'"'"'s`), inside the author's '...' (`it'\\''s`), "..." or a heredoc (`\\$`, `\\``,
    `\\"`, `\\\\` escaped), as the filters above write them. The value as given was all the
    masking looked for: `--var hf_token="it's-hunter2"` under `echo {{ hf_token }}` stood in
    run.json and the report unmasked (runner/engine.py masks these forms too)."""
    forms = [secret.replace("'", "'\"'\"'"), str(_in_single_quotes(secret)), str(_in_double_quotes(secret)),
             _HEREDOC_SPECIAL.sub(r"\\\1", secret)]
    return tuple(dict.fromkeys(form for form in forms if form != secret))


def _in_heredoc(value: Any, delimiter: str, expands: bool) -> RawShell:
    """A value written inside a heredoc body: as is after <<'EOF', with \\ $ ` escaped after <<EOF
    (POSIX 2.7.4). A value holding the end line would end the heredoc and run what follows."""
    if isinstance(value, RawShell):
        return value
    text = _as_text(value)
    if any(line.lstrip("\t") == delimiter for line in text.split("\n")):
        raise ValueError(f"the value holds the line {delimiter!r}, which would end the heredoc early")
    return RawShell(_HEREDOC_SPECIAL.sub(r"\\\1", text) if expands else text)


def _quote_list(values: Iterable[Any]) -> RawShell:
    """`{{ files | shell_join }}`: several arguments, each quoted."""
    return RawShell(" ".join(shell_quote(v) for v in values))


_NO_DEFAULT = object()


def _number_filter(convert: Callable[..., Any], kind: str, *, none_to_zero: bool = False) -> Callable[..., Any]:
    """Jinja's float and int filters, but a None (a capture that matched nothing) is an error
    unless a default is given: Jinja turns it into 0 (jinja2/filters.py, do_float and do_int),
    so `that: facts.accept | float > 2` raised the finding when the log held no accept length
    at all: the evidence was missing, not bad. (none_to_zero: Jinja's 0 for a None, after a
    default filter.)

    So is a text that is no number: Jinja's 0 for `12GB`, `1,024`, `75ms` or `0.5.4` made
    `that: facts.latency | float < 50` pass on a host at 75 ms, and `facts.mem | float > 10`
    raise its finding on one with 12 GB."""
    def number(value: Any, default: Any = _NO_DEFAULT, *args: Any, **kwargs: Any) -> Any:
        value = None if isinstance(value, _NoFact) else value
        if value is None and default is _NO_DEFAULT and not none_to_zero:
            # Said whole here: _none_names names facts and vars only, and a step's exit_code
            # (None when it timed out) came out as a bare "int() of None".
            raise TypeError(f"{kind}() of None (a value that is not set): test it with 'is not none' first, "
                            f"or give a default: | {kind}(0)")
        if default is not _NO_DEFAULT or value is None:
            return convert(value, *(() if default is _NO_DEFAULT else (default,)), *args, **kwargs)
        number = convert(value, _NO_DEFAULT, *args, **kwargs)
        if number is _NO_DEFAULT:
            raise ValueError(f"{kind}() of {value!r}, which is not a number (a unit, a thousands separator or a "
                             f"version in it?): capture the number alone, e.g. (?P<name>[0-9.]+) GB, "
                             f"or give a default: | {kind}(0)")
        return number
    return number


# The words Ansible's `bool` filter reads (ansible/ansible lib/ansible/plugins/filter/core.py,
# to_bool: _valid_bool_true / _valid_bool_false, any case), as a capture's `type: bool` reads
# them (runner/capture.py, convert), the empty text false as there.
_BOOL_TRUE = frozenset({"yes", "on", "true", "1"})
_BOOL_FALSE = frozenset({"no", "off", "false", "0", ""})


def _bool_filter() -> Callable[[Any], bool]:
    """Ansible's `bool` filter, which Jinja has not: `when: enable_eagle | bool`, `ansible_become:
    "{{ needs_root | bool }}"` failed as "No filter named 'bool'" (and the inventory's become was
    not warned of). yes/on/true/1 are true and no/off/false/0 false, in any case, as are the
    numbers 1 and 0 and a bool itself. Any other value is refused, naming it: Ansible gives False
    for it with a deprecation warning (an error to come), and `when: facts.mode | bool` over
    `enabled` skipped the step without a word. A None (a capture that matched nothing) is
    refused as `| int` refuses it, after a default filter too: Jinja's default passes a None
    through, so `facts.graphs | default(true) | bool` would have read it as false whatever the
    default said."""
    def to_bool(value: Any) -> bool:
        value = None if isinstance(value, _NoFact) else value
        if isinstance(value, bool):
            return value
        if value is None:
            raise TypeError("bool() of None (a value that is not set): test it with 'is not none' first")
        if isinstance(value, (int, float)) and value in (0, 1):
            return value == 1
        word = value.strip().lower() if isinstance(value, str) else None
        if word in _BOOL_TRUE:
            return True
        if word in _BOOL_FALSE:
            return False
        shown = repr(value if len(str(value)) <= 80 else str(value)[:77] + "...")
        instead = (f"== {shown}" if isinstance(value, str) else "!= 0" if isinstance(value, (int, float))
                   else "| length > 0" if isinstance(value, (list, tuple, dict)) else None)
        raise ValueError(f"bool() of {shown}, which is not a yes or no: bool reads yes/no, true/false, on/off or "
                         f"1/0 (in any case)" + (f"; test the value itself instead ({instead})" if instead else ""))
    return to_bool


_NO_NONE_VALUE = object()


def _ternary(value: Any, true_value: Any, false_value: Any, none_value: Any = _NO_NONE_VALUE) -> Any:
    """Ansible's `ternary` filter, which Jinja has not: `{{ use_eagle | bool | ternary('EAGLE3',
    'NONE') }}` failed as "No filter named 'ternary'". true_value where the value is true,
    false_value where it is false, none_value (if given) where it is None (ansible lib/ansible/
    plugins/filter/core.py, ternary: Python's truth of the value). A yes/no word written as text
    is refused: the text 'false' or 'no' is true to Python, so Ansible gives true_value for it
    (`enable: "no"`, `--var enable=off`), the opposite of what its author meant; `| bool`
    before it reads the word."""
    value = None if isinstance(value, _NoFact) else value
    if value is None and none_value is not _NO_NONE_VALUE and none_value is not None:
        return none_value
    if isinstance(value, str) and value.strip() and value.strip().lower() in _BOOL_FALSE | _BOOL_TRUE:
        raise ValueError(f"ternary of the text {value!r}, which as text is true whatever it says: "
                         f"read it as a yes or no first: | bool | ternary(...)")
    return true_value if value else false_value


class NoneInCommand(Exception):
    """A fact that is None written into a `run:` command or a `fetch:` path (render says which)."""


class ListInPath(Exception):
    """A list or mapping var written into a `fetch:` path (render says which)."""

    def __init__(self, value: Any) -> None:
        super().__init__(_as_text(value))


def _text_value(value: Any) -> Any:
    """finalize of text that is not a command (a finding's title and evidence, a `with:` value):
    a list or mapping is JSON, as `run:` writes it (_as_text), not Python's repr (`files
    ['a.log', 'b.log'] cfg {'k': 1}` in a finding's title, `True`/`None` inside)."""
    if isinstance(value, (list, tuple, dict)):
        return _as_text(value)
    return value


def _path_value(value: Any) -> Any:
    """finalize of a `fetch:` path: a list or mapping is no path. Written in, it was Python's
    repr (`/var/log/['a.log', 'b.log']`) and the fetch said "no file on the host matches"."""
    if isinstance(value, (list, tuple, dict)):
        raise ListInPath(value)
    return value


class _NoFact:
    """A fact that is None (its capture matched nothing), as a command's template sees it: a
    var that is None (`extra_flags: ~`) is an author's empty value and renders as '' still."""

    def __bool__(self) -> bool:
        return False

    def __eq__(self, other: object) -> bool:
        return other is None or isinstance(other, _NoFact)

    def __hash__(self) -> int:
        return hash(None)

    def __str__(self) -> str:  # `| string`, `~`
        raise NoneInCommand()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise NoneInCommand()

    # What a filter or an operator does with the value is refused here, where it happens: a repr
    # wrote the None into the command (`{{ facts.port | pprint }}`, `{{ [facts.port] }}` ran
    # `echo None`), and a TypeError that names no type was no error about the fact
    # (`| reverse`: "argument must be iterable"; `facts.port.x` named this class).
    __repr__ = __format__ = __iter__ = __reversed__ = __len__ = __getitem__ = __contains__ = _refuse
    __int__ = __float__ = __index__ = __round__ = __abs__ = __neg__ = __pos__ = _refuse
    __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _refuse
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __pow__ = __rpow__ = _refuse

    def __getattr__(self, name: str) -> Any:
        # `facts.port.x`; a probe for a special name (hasattr(value, "__html__")) is answered
        # as for any object without it.
        if name.startswith("__"):
            raise AttributeError(name)
        raise NoneInCommand()


_NO_FACT = _NoFact()


def _null_json(value: Any) -> Any:
    """json.dumps's `default`: a fact that is None is JSON's null, nested too (`{{ [facts.port] |
    tojson }}`); anything else is refused as json.dumps refuses it."""
    if isinstance(value, _NoFact):
        return None
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _refusing_none(write: Callable[..., Any]) -> Callable[..., Any]:
    """`write`, but a fact that is None is refused: in a command it rendered as '' (`curl
    http://localhost:{{ facts.port }}/health` asked port 80, `echo "using {{ facts.port }}"`
    passed), where a fact never set at all fails the step."""
    def refuse(value: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(value, _NoFact):
            raise NoneInCommand()
        return write(value, *args, **kwargs)
    return refuse


def _default_for_none(value: Any, default_value: Any = "", boolean: bool = False) -> Any:
    """Jinja's default filter, but a fact that is None takes the default too: in a command,
    `{{ facts.port | default(30000) }}` is its author's answer to a missing capture, and
    Jinja's own passed the None through (jinja2/filters.py, do_default)."""
    if isinstance(value, _NoFact):
        return default_value
    return do_default(value, default_value, boolean)


def _make_env(quote_output: bool, *, none_to_zero: bool = False, command: bool = False) -> SandboxedEnvironment:
    """command: the env of `run:` and `fetch:` text, where a None is refused (_refusing_none)."""
    finalize = shell_quote if quote_output else (_path_value if command else _text_value)
    if command:
        finalize = _refusing_none(finalize)
    env = BoundedSandbox(
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=False,
        finalize=finalize,
    )
    env.filters["float"] = _number_filter(env.filters["float"], "float", none_to_zero=none_to_zero)
    env.filters["int"] = _number_filter(env.filters["int"], "int", none_to_zero=none_to_zero)
    env.filters["bool"] = _bool_filter()
    env.filters["ternary"] = _ternary
    # as a value in a command reads (_as_text): a list under `| raw` was Python's repr
    env.filters["raw"] = lambda value: RawShell(_as_text(value))
    env.filters["shell_join"] = _quote_list
    env.filters["shell_quote"] = lambda value: RawShell(shell_quote(value))
    env.filters[DOUBLE_FILTER] = _in_double_quotes
    env.filters[SINGLE_FILTER] = _in_single_quotes
    env.filters[HEREDOC_FILTER] = _in_heredoc
    if command:
        # The quoting filters (the author's "...", '...' and heredocs are marked with them) and
        # raw write a None as '' before finalize sees it.
        for name in ("raw", "shell_quote", DOUBLE_FILTER, SINGLE_FILTER, HEREDOC_FILTER):
            env.filters[name] = _refusing_none(env.filters[name])
        env.filters["default"] = env.filters["d"] = _default_for_none
        env.tests["none"] = lambda value: value is None or isinstance(value, _NoFact)
        iterable = env.tests["iterable"]
        env.tests["iterable"] = lambda value: not isinstance(value, _NoFact) and iterable(value)
        # JSON has a word for nothing: `{{ facts.port | tojson }}` writes null, as it did before
        # None facts were refused (json.dumps failed on the stand-in: "_NoFact is not JSON
        # serializable").
        env.policies["json.dumps_kwargs"] = {**env.policies["json.dumps_kwargs"], "default": _null_json}
    return env


SHELL_ENV = _make_env(quote_output=True, command=True)
TEXT_ENV = _make_env(quote_output=False)
_PATH_ENV = _make_env(quote_output=False, command=True)  # fetch: src and dest
# Jinja's own float/int (None gives 0), for a template that feeds a default filter's output to
# one: `facts.accept | default(0) | float` is its author's answer to a missing capture (Ansible's
# habit: there a missing result is undefined; here it is None, which default passes through).
_DEFAULTED_SHELL_ENV = _make_env(quote_output=True, none_to_zero=True, command=True)
_DEFAULTED_TEXT_ENV = _make_env(quote_output=False, none_to_zero=True)
_DEFAULTED_PATH_ENV = _make_env(quote_output=False, none_to_zero=True, command=True)


def _number_after_default(source: str, *, expression: bool) -> bool:
    """Whether a float or int filter reads a default filter's output (`x | default(0) | float`)."""
    try:
        parsed = TEXT_ENV.parse("{{ " + source + " }}" if expression else source)
    except TemplateSyntaxError:
        return False  # compiled as before, which reports the syntax error
    return any(node.name in ("float", "int") and isinstance(node.node, nodes.Filter) and node.node.name in ("default", "d")
               for node in parsed.find_all(nodes.Filter))


@dataclass(frozen=True)
class TemplateSite:
    """Where a template lives, so errors can name the step and the field."""

    step: str | None
    field: str


def _where(site: TemplateSite) -> str:
    return f"step {site.step!r}, {site.field}" if site.step else site.field


@lru_cache(maxsize=1024)
def _compile(source: str, shell: bool, path: bool = False):
    defaulted = _number_after_default(source, expression=False)
    if path:
        return (_DEFAULTED_PATH_ENV if defaulted else _PATH_ENV).from_string(source)
    if shell:
        env = _DEFAULTED_SHELL_ENV if defaulted else SHELL_ENV
        marked = mark_quoted_templates(source)
        if marked != source:
            try:
                return env.from_string(marked)
            except TemplateSyntaxError:
                pass  # never worse than before: the author's text as written
        return env.from_string(source)
    return (_DEFAULTED_TEXT_ENV if defaulted else TEXT_ENV).from_string(source)


@lru_cache(maxsize=1024)
def _compile_expression(source: str):
    env = _DEFAULTED_TEXT_ENV if _number_after_default(source, expression=True) else TEXT_ENV
    return env.compile_expression(source, undefined_to_none=False)


_NAMES_STAND_IN = re.compile(r"\b_NoFact\b")


def render(source: str, context: dict[str, Any], site: TemplateSite, *, shell: bool = False, path: bool = False) -> str:
    """shell: a `run:` command (values quoted); path: a `fetch:` src or dest. Either refuses a None."""
    if "{" not in source:
        return source  # fast path: most commands have no template at all
    stand_in = False
    try:
        template = _compile(source, shell, path)
        facts = context.get("facts")
        stand_in = (shell or path) and isinstance(facts, dict) and any(v is None for v in facts.values())
        # A step that timed out, was skipped or could not start has no exit code (None): in a
        # command `{{ steps.bench.exit_code }}` was written as '' (`--rc ''`). Looked for only
        # where the text names exit_code.
        views = _no_exit_code_views(context) if (shell or path) and "exit_code" in source else None
        if stand_in or views:
            given = dict(context)
            if stand_in:
                given["facts"] = {k: _NO_FACT if v is None else v for k, v in facts.items()}
            if views:
                given["steps"] = views
            stand_in = True
            return template.render(given)
        return template.render(context)
    except NoneInCommand:
        raise _none_in_command_error(site, source, context, path=path) from None
    except ListInPath as exc:
        # The guidance is in the message: a fetch's error line does not show a hint.
        raise TemplateError(
            f"{_where(site)}: a list or mapping var is no path (it is {str(exc)[:200]}): a fetch path is one "
            "file or glob pattern; list them under src: (src: [a.log, b.log]) or match them (*.log)") from None
    except UndefinedError as exc:
        unset = [n for n in _unset_facts(source, context, template=True) if f"'{n[6:]}'" in (exc.message or "")]
        if unset:
            raise _unset_fact_error(site, unset[0], context) from None
        raise TemplateError(f"{_where(site)}: undefined variable: {exc.message}", hint="define it under vars: or pass --var NAME=VALUE") from None
    except TemplateSyntaxError as exc:
        raise TemplateError(f"{_where(site)}: template syntax error: {exc.message}") from None
    except Exception as exc:  # a sandbox violation or a filter error, raised by author input
        if stand_in and _NAMES_STAND_IN.search(str(exc)):
            # A builtin that tests its argument's type without calling any of its methods
            # (`facts.port in 'abc'`: "requires string as left operand, not _NoFact").
            raise _none_in_command_error(site, source, context, path=path) from None
        raise TemplateError(f"{_where(site)}: template failed: {type(exc).__name__}: {exc}") from None


def _no_exit_code_views(context: dict[str, Any]) -> dict[str, Any] | None:
    """context's steps, each view whose exit_code is None given the stand-in that refuses it
    (None where no view lacks one)."""
    views = context.get("steps")
    if not isinstance(views, dict) or not any(
            isinstance(view, dict) and "exit_code" in view and view["exit_code"] is None for view in views.values()):
        return None
    return {step_id: {**view, "exit_code": _NO_FACT}
            if isinstance(view, dict) and "exit_code" in view and view["exit_code"] is None else view
            for step_id, view in views.items()}


_ONE_NAME = re.compile(r"\s*\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}\s*")


def render_value(value: Any, context: dict[str, Any], site: TemplateSite) -> Any:
    """Render the strings inside a `with:` value (lists and dicts recursively). A var that is
    None renders as '', as in a `run:` command (_NoFact): `server_cmdline:` left blank in a
    --var-file (YAML's null), `--var x=null` or a default `x: ~` reached the probe as the text
    "None", read as a server command, a path or a device ("--var device 'None'")."""
    return _render_value(value, _none_vars_empty(context), site)


def _none_vars_empty(context: dict[str, Any]) -> dict[str, Any]:
    """context with each var that is None as '' (by its name and under vars); facts as they are."""
    given = context.get("vars")
    if not isinstance(given, dict) or not any(v is None for v in given.values()):
        return context
    emptied = {name: "" for name, v in given.items() if v is None and name not in CONTEXT_NAMES}
    return {**context, **emptied, "vars": {**given, **emptied}}


def _render_value(value: Any, context: dict[str, Any], site: TemplateSite) -> Any:
    if isinstance(value, str):
        whole = _ONE_NAME.fullmatch(value) if "{{" in value else None
        if whole:
            # `reference_files: "{{ ref_files }}"` with a list var: the probe got the list's text
            # and iterated its characters ('[', '"', 'a', ...). One bare name whose value is a
            # list or mapping passes that value; anything else is text, as before.
            try:
                native = evaluate(whole.group(1), context, site)
            except Exception:
                native = None  # render says what is wrong
            if isinstance(native, (list, dict)):
                return native
        return render(value, context, site)
    if isinstance(value, list):
        return [_render_value(v, context, site) for v in value]
    if isinstance(value, dict):
        return {k: _render_value(v, context, site) for k, v in value.items()}
    return value


def evaluate(expression: str, context: dict[str, Any], site: TemplateSite) -> Any:
    try:
        value = _compile_expression(expression)(**context)
        if isinstance(value, StrictUndefined):
            # `when: steps.a.ok`: the missing key comes back as an Undefined, and the caller's
            # truth test raised UndefinedError outside this handler (the host failed as an
            # internal error). Tested here, it is this site's error like any other.
            bool(value)
        return value
    except UndefinedError as exc:
        unset = [n for n in _unset_facts(expression, context, template=False) if f"'{n[6:]}'" in (exc.message or "")]
        if unset:
            raise _unset_fact_error(site, unset[0], context) from None
        empty = _empty_list_names(expression, context)
        if empty:
            raise _empty_list_error(site, expression, empty[0]) from None
        number_method = _number_with_text_method(expression, context, exc.message or "")
        if number_method is not None:
            # `facts.driver.startswith('550')` over `driver=550.54`: read as the number 550.54 (a
            # capture's type auto), it has no text methods, and the error said "undefined variable
            # ...: 'float object' has no attribute 'startswith'" with "guard it with 'is defined'".
            name, value, method = number_method
            raise TemplateError(
                f"{_where(site)}: expression {expression!r} failed: {name} is the number {value!r}, which has no "
                f".{method}(): keep it text where it is captured (type: str)",
                # `| string` writes the number back: 550.10 read as 550.1 comes back "550.1"
                hint=f"capture it with type: str; ({name} | string).{method}(...) reads the number as written "
                     "back (550.10 as 550.1)",
            ) from None
        raise TemplateError(
            f"{_where(site)}: undefined variable in expression {expression!r}: {exc.message}",
            hint="guard it with 'is defined', or define it under vars:",
        ) from None
    except TemplateSyntaxError as exc:
        raise TemplateError(f"{_where(site)}: bad expression {expression!r}: {exc.message}") from None
    except Exception as exc:
        empty = _empty_list_names(expression, context) if isinstance(exc, ZeroDivisionError) else []
        if empty:
            raise _empty_list_error(site, expression, empty[0]) from None
        none_names = _none_names(expression, context) if isinstance(exc, TypeError) else []
        if none_names:
            # A regex capture that matched nothing leaves its fact None; "'>' not supported
            # between instances of 'NoneType' and 'int'" does not say which, nor why.
            name = none_names[0]
            raise TemplateError(
                f"{_where(site)}: expression {expression!r} failed: {name} is None (its capture matched nothing, "
                f"or it was set to null); guard it: {name} is not none and ...",
                # (the hint stands alone as a finding's remediation: a whole fix, not "or ...")
                hint=f"guard it: {name} is not none and ..., or give the capture a default: value",
            ) from None
        text_numbers = _number_text_names(expression, context) if isinstance(exc, TypeError) and "not supported between" in str(exc) else []
        if text_numbers:
            # `min_accept: "2.0"` (quoted, as YAML examples quote values) or a capture left as
            # type: str, compared with a float capture: "'>=' not supported between instances of
            # 'float' and 'str'" named neither the value nor the fix.
            name, value = text_numbers[0]
            raise TemplateError(
                f"{_where(site)}: expression {expression!r} failed: {name} is the text {value!r}, not a number; "
                f"compare it as one: ({name} | float)",
                hint="or make it a number where it is set: a var's default without quotes, a capture's type: float",
            ) from None
        versions = _number_text_names(expression, context, VERSION_TEXT) if isinstance(exc, TypeError) and "not supported between" in str(exc) else []
        if versions:
            # `facts.sglang_version >= 0.5` on "0.5.4" (or torch's "2.5.1+cu124"): a version is
            # no number, and `| float` fails on it too.
            name, value = versions[0]
            raise TemplateError(
                f"{_where(site)}: expression {expression!r} failed: {name} is the version {value!r}, text, not a number; "
                f"compare its parts as numbers",
                hint="capture them: regex: '(?P<major>\\d+)\\.(?P<minor>\\d+)', type: int, then "
                     "(facts.major, facts.minor) >= (0, 5)",
            ) from None
        texts = _number_text_names(expression, context, ANY_TEXT) if isinstance(exc, TypeError) and "not supported between" in str(exc) else []
        if len(texts) == 1:
            # `that: facts.tps > 80` where the output had a word where the number was (`tps=nan`
            # is a float; `tps=n/a`, `model=llama` are not): "'>' not supported between instances of
            # 'str' and 'int'" named neither the fact nor what it held. With two texts in the
            # expression it cannot tell which one was compared, and says the TypeError alone.
            name, value = texts[0]
            raise TemplateError(
                f"{_where(site)}: expression {expression!r} failed: {name} is the text {_shown_text(value)}, not a number "
                f"({type(exc).__name__}: {exc})",
                hint=f"check what the step printed where {name} was read; to compare numbers, capture the number only "
                     "(a regex group such as (?P<name>[0-9.]+), type: float)",
            ) from None
        raise TemplateError(f"{_where(site)}: expression {expression!r} failed: {type(exc).__name__}: {exc}") from None


def _number_with_text_method(expression: str, context: dict[str, Any], message: str) -> tuple[str, Any, str] | None:
    """(name, value, method) of a `facts.X.method` or `vars.X.method` whose value is a number and
    whose method Jinja said an int or float has not ("'float object' has no attribute 'startswith'")."""
    said = re.fullmatch(r"'(?:int|float) object' has no attribute '(\w+)'", message)
    if said is None or not hasattr(str, said.group(1)):
        return None
    try:
        parsed = TEXT_ENV.parse("{{ " + expression + " }}")
    except TemplateSyntaxError:
        return None
    for attr in parsed.find_all(nodes.Getattr):
        inner = attr.node
        if (attr.attr == said.group(1) and isinstance(inner, nodes.Getattr) and isinstance(inner.node, nodes.Name)
                and inner.node.name in ("facts", "vars")):
            scope = context.get(inner.node.name)
            value = scope.get(inner.attr) if isinstance(scope, dict) else None
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return f"{inner.node.name}.{inner.attr}", value, attr.attr
    return None


ANY_TEXT = re.compile(r"(?s).*")
"""Any text: a fact or var that holds text at all (_number_text_names)."""


def _shown_text(value: str, limit: int = 80) -> str:
    """A text value as a message quotes it: a captured line can be a whole log."""
    return repr(value) if len(value) <= limit else f"{value[:limit]!r}… ({len(value):,} characters)"


# Each text that says false, and the one that says true beside it (for the hint).
_FALSE_WORDS = {"false": "true", "no": "yes", "off": "on", "0": "1"}


def evaluate_condition(expression: str, context: dict[str, Any], site: TemplateSite) -> bool:
    """A `when:`, `until:` or `that:` expression as true or false. A text that says false
    (`false`, `False`, `no`, `off`, `0`: a capture left as text, `--var use_eagle=false` where
    the default is text) is refused: any text but '' is true to Jinja, so `that: facts.ready`
    passed on a host that printed `ready=false`, and a `when:` ran the step it meant to skip."""
    return as_condition(evaluate(expression, context, site), expression, site)


def as_condition(value: Any, expression: str, site: TemplateSite) -> bool:
    """evaluate_condition's verdict on a value evaluate() gave."""
    if isinstance(value, str) and value.strip().lower() in _FALSE_WORDS:
        raise TemplateError(
            f"{_where(site)}: expression {expression!r} is the text {value!r}, which is true (any text but '' is); "
            "a text is not read as a yes or no",
            hint=f"compare it: {expression} == {_true_word(value)!r}, or capture it with type: bool (true/false, yes/no, on/off, 1/0), "
                 f"or read it as a yes or no: {_bool_read(expression)}",
        )
    return bool(value)


def _bool_read(expression: str) -> str:
    """`expression | bool`, bracketed where the filter would bind to its last part only."""
    written = expression.strip()
    return f"{written} | bool" if re.fullmatch(r"[A-Za-z_][\w.]*", written) else f"({written}) | bool"


VERSION_TEXT = re.compile(r"\s*v?\d+(\.\d+){2,}\S*\s*|\s*v?\d+\.\d+[A-Za-z+-]\S*\s*")
"""A package version that is no number: 0.5.4, 0.5.4rc1, 2.5.1+cu124, 0.6.post1."""

NUMBER_TEXT = re.compile(r"\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*")

def _number_text_names(expression: str, context: dict[str, Any],
                       pattern: re.Pattern[str] = NUMBER_TEXT) -> list[tuple[str, str]]:
    """(name, value) of `facts.X`, `vars.X` or bare names in expression whose value is text
    that reads as a number (or as what `pattern` matches)."""
    try:
        parsed = TEXT_ENV.parse("{{ " + expression + " }}")
    except TemplateSyntaxError:
        return []
    found: list[tuple[str, str]] = []
    for attr in parsed.find_all(nodes.Getattr):
        if isinstance(attr.node, nodes.Name) and attr.node.name in ("facts", "vars"):
            scope = context.get(attr.node.name)
            value = scope.get(attr.attr) if isinstance(scope, dict) else None
            if isinstance(value, str) and pattern.fullmatch(value):
                found.append((f"{attr.node.name}.{attr.attr}", value))
    for name in parsed.find_all(nodes.Name):
        value = context.get(name.name) if name.ctx == "load" and name.name not in CONTEXT_NAMES else None
        if isinstance(value, str) and pattern.fullmatch(value):
            found.append((name.name, value))
    return list(dict.fromkeys(found))


def _unset_facts(source: str, context: dict[str, Any], *, template: bool) -> list[str]:
    """`facts.X` in source that no step has set on this host. Jinja says "'dict object' has no
    attribute 'X'" and the hint said to pass --var, which cannot set a fact: the usual cause is
    that the step capturing it failed, errored or was skipped."""
    try:
        parsed = TEXT_ENV.parse(source if template else "{{ " + source + " }}")
    except TemplateSyntaxError:
        return []
    facts = context.get("facts")
    if not isinstance(facts, dict):
        return []
    return list(dict.fromkeys(
        f"facts.{attr.attr}" for attr in parsed.find_all(nodes.Getattr)
        if isinstance(attr.node, nodes.Name) and attr.node.name == "facts" and attr.attr not in facts
    ))


def _unset_fact_error(site: TemplateSite, name: str, context: dict[str, Any]) -> TemplateError:
    # The usual cause is a capturing step that did not pass; but when every earlier step on
    # this host passed (or none ran), that is not it, and the words sent the user to the run
    # log for a failure that never happened: the name is wrong, or no step captures it.
    views = context.get("steps")
    passed = isinstance(views, dict) and all(isinstance(v, dict) and v.get("status") == "passed" for v in views.values())
    facts = context.get("facts")
    close = difflib.get_close_matches(name.removeprefix("facts."), list(facts), n=1) if isinstance(facts, dict) else []
    if passed:
        check = f"did you mean facts.{close[0]}?" if close else "check the name; a probe sets only the facts it finds"
        why = (f"the {len(views)} step{'s' if len(views) != 1 else ''} before it passed without setting it: {check}"
               if views else "no step ran before this one")
    else:
        # Which ones: "skipped: provide --var engine=..." is the cause, and the fix. Only a step
        # that would set it (its capture: names it; a probe or fetch step may): every step that
        # did not pass was named, so a `when:` on a skipped step's fact blamed an unrelated
        # failed step, and each later reader of the fact nested the message of the one before.
        fact = name.removeprefix("facts.")
        missed = [_step_said(step_id, v) for step_id, v in views.items() if isinstance(v, dict)
                  and v.get("status") != "passed" and _may_capture(v, fact)]
        if missed:
            why = "the step that captures it failed, errored or was skipped: " + "; ".join(missed[-3:])
        else:
            check = f"did you mean facts.{close[0]}?" if close else "check the name"
            why = f"no step before it captures it: {check}"
        if close and missed:
            # A name spelt like a fact that is set (this step's own capture of accept_len, read
            # as facts.accept_lenn) is a typo: blaming an earlier step that failed, and that never
            # captured it, sent the reader to the wrong step. Both are said, the likelier first.
            why = f"did you mean facts.{close[0]}? it is set; or {why}"
    guard = f"guard it: {name} is defined and ..., or give the capture a default: value"
    return TemplateError(
        f"{_where(site)}: {name} is not set: no earlier step captured it on this host ({why})",
        # A guard on a misspelt name skips the check on every host, and the run passes: the
        # spelling is the fix to say first.
        hint=f"write facts.{close[0]} if that is the fact meant; else {guard}" if close else guard,
    )


def _may_capture(view: dict[str, Any], fact: str) -> bool:
    """Whether a step, as its view says, could have set `fact` had it passed. A view without
    `captures` (a probe or fetch step, or a caller that does not say) might have."""
    captures = view.get("captures")
    return captures is None or fact in captures


def _true_word(false_word: str) -> str:
    """`true` for `false`, `True` for `False`, `YES` for `NO`."""
    word = _FALSE_WORDS[false_word.strip().lower()]
    stripped = false_word.strip()
    return word.upper() if stripped.isupper() and len(stripped) > 1 else word.capitalize() if stripped[:1].isupper() else word


def _none_in_command_error(site: TemplateSite, source: str, context: dict[str, Any], *, path: bool) -> TemplateError:
    written = "the path would have read None" if path else "the command would have had '' in its place"
    names = [name for name in _none_names(source, context, template=True) if name.startswith(("facts.", "steps."))]
    if names and names[0].startswith("steps."):
        step_id = names[0].split(".")[1]
        view = context["steps"][step_id]
        said = (str(view.get("message") or "").splitlines() or [""])[0][:160]
        return TemplateError(
            f"{_where(site)}: {names[0]} is None: step {step_id!r} has no exit code (status {view.get('status')}"
            + (f": {said}" if said else "") + f"); {written}",
            hint=f"guard the step: when: {names[0]} is not none, or write {{{{ {names[0]} | default(-1) }}}}",
        )
    if not names:
        return TemplateError(f"{_where(site)}: a value in it is None (not set): {written}",
                             hint="guard the step with when: VALUE is not none, or write | default(VALUE)")
    name = names[0]
    views = context.get("steps")
    setters = [step_id for step_id, view in views.items()
               if isinstance(view, dict) and isinstance(view.get("facts"), dict) and name.removeprefix("facts.") in view["facts"]
               ] if isinstance(views, dict) else []
    why = (f"step {setters[-1]!r} captured it, but its capture matched nothing (or read a JSON null)" if setters
           else "it is None")
    return TemplateError(
        f"{_where(site)}: {name} is None: {why}; {written}",
        hint=f"give the capture a default: value, or guard the step: when: {name} is not none",
    )


def _empty_list_names(expression: str, context: dict[str, Any]) -> list[str]:
    """`facts.X` in expression whose value is an empty list (an `all: true` capture that matched
    nothing)."""
    try:
        parsed = TEXT_ENV.parse("{{ " + expression + " }}")
    except TemplateSyntaxError:
        return []
    facts = context.get("facts")
    return list(dict.fromkeys(
        f"facts.{attr.attr}" for attr in parsed.find_all(nodes.Getattr)
        if isinstance(attr.node, nodes.Name) and attr.node.name == "facts" and isinstance(facts, dict)
        and facts.get(attr.attr) == []
    ))


def _empty_list_error(site: TemplateSite, expression: str, name: str) -> TemplateError:
    # `facts.accs | max`, `facts.accs[-1]` or a mean over no values: Jinja said "undefined
    # variable ... No aggregated item, sequence was empty" or "division by zero", naming neither
    # the fact nor why it was empty.
    return TemplateError(
        f"{_where(site)}: expression {expression!r} failed: {name} is an empty list (an all: true capture that "
        f"matched nothing, or an empty JSON list); guard it: {name} and ...",
        hint="check the regex against the step's output (spec-debug report shows it)",
    )


def _step_said(step_id: str, view: dict[str, Any]) -> str:
    """`version skipped: provide --var engine=...`, `bench failed (exit code 7)`."""
    status, message = str(view.get("status")), (str(view.get("message") or "").splitlines() or [""])[0]
    if len(message) > 160:
        message = message[:159] + "…"
    if message.startswith(status):
        return f"{step_id} {message}"
    return f"{step_id} {status}" + (f" ({message})" if message else "")


def _none_names(expression: str, context: dict[str, Any], *, template: bool = False) -> list[str]:
    """`facts.X`, `vars.X` or bare names in expression (or template) whose value is None."""
    try:
        parsed = TEXT_ENV.parse(expression if template else "{{ " + expression + " }}")
    except TemplateSyntaxError:
        return []
    found: list[str] = []
    for attr in parsed.find_all(nodes.Getattr):
        if isinstance(attr.node, nodes.Name) and attr.node.name in ("facts", "vars"):
            scope = context.get(attr.node.name)
            if isinstance(scope, dict) and attr.attr in scope and scope[attr.attr] is None:
                found.append(f"{attr.node.name}.{attr.attr}")
    views = context.get("steps")
    for attr in parsed.find_all(nodes.Getattr) if template and isinstance(views, dict) else ():
        # steps.ID.exit_code of a step that timed out, was skipped or could not start, written
        # into a command (an expression's TypeError says its own words: _number_filter)
        if (attr.attr == "exit_code" and isinstance(attr.node, nodes.Getattr) and isinstance(attr.node.node, nodes.Name)
                and attr.node.node.name == "steps" and isinstance(views.get(attr.node.attr), dict)
                and "exit_code" in views[attr.node.attr] and views[attr.node.attr]["exit_code"] is None):
            found.append(f"steps.{attr.node.attr}.exit_code")
    for name in parsed.find_all(nodes.Name):
        if name.ctx == "load" and name.name not in CONTEXT_NAMES and name.name in context and context[name.name] is None:
            found.append(name.name)
    return list(dict.fromkeys(found))


def parse_template(source: str) -> None:
    """Raise TemplateSyntaxError if source is not a valid template (names are not checked)."""
    _parse_checked(source)


# Ansible's own filters that Jinja has not (docs.ansible.com, collections/ansible/builtin, "Filter
# Plugins"), with the way to do it here where there is one. Named as Ansible's, never by the
# closest name here: that guess told `| from_json` "did you mean 'tojson'?" (the opposite),
# `| flatten` 'float', `| combine` 'min', `| b64encode` 'urlencode', `| split` 'list'.
_ANSIBLE_FILTERS = {
    "to_json": "write | tojson",
    "to_nice_json": "write | tojson(indent=2)",
    "from_json": "read JSON output with a capture of type: json (or json: PATH)",
    "from_yaml": "read the output as JSON with a capture of type: json, or capture the values with a regex",
    "to_yaml": "write | tojson", "to_nice_yaml": "write | tojson(indent=2)",
    "quote": "a value in run: is shell-quoted already; | shell_quote quotes one where it is not",
    "regex_replace": "Jinja's | replace('old', 'new') replaces plain text; for a pattern, capture the part you "
                     "want with a capture regex",
    "regex_search": "capture it with the step's capture: regex (a named group)",
    "regex_findall": "capture it with the step's capture: regex and all: true",
    "split": "write VALUE.split(',')",
    "basename": "write VALUE.split('/') | last",
    "dirname": "write VALUE.rsplit('/', 1)[0]",
    "mandatory": "a var or fact that is not defined is an error here already: leave | mandatory out",
    "flatten": "", "combine": "", "dict2items": "write | dictsort (a list of key, value pairs)", "items2dict": "",
    "b64encode": "", "b64decode": "", "hash": "", "checksum": "", "password_hash": "", "to_uuid": "",
    "union": "", "intersect": "", "difference": "", "symmetric_difference": "", "zip": "", "zip_longest": "",
    "product": "", "subelements": "", "extract": "", "type_debug": "", "to_datetime": "", "strftime": "",
    "human_readable": "", "human_to_bytes": "", "regex_escape": "", "expanduser": "", "expandvars": "",
    "realpath": "", "relpath": "", "splitext": "", "path_join": "", "fileglob": "", "comment": "",
    "shuffle": "", "urlsplit": "", "urldecode": "", "vault": "", "unvault": "", "log": "", "pow": "", "root": "",
}


# Ansible's task-result tests (docs.ansible.com, playbooks_tests, "Testing task results"):
# `when: result is succeeded`. Here a finished step's status is a word in steps.ID.status
# (runner/engine.py, _step_view).
_ANSIBLE_STATUS_TESTS = {
    **dict.fromkeys(("succeeded", "success", "successful"), "write steps.ID.status == 'passed'"),
    **dict.fromkeys(("failed", "failure"), "write steps.ID.status == 'failed' (or in ['failed', 'error', 'timeout'])"),
    "skipped": "write steps.ID.status == 'skipped'",
    **dict.fromkeys(("changed", "change"), "steps change nothing here: test steps.ID.status or its stdout"),
    "reachable": "an unreachable host runs no step: test steps.ID.status",
    "unreachable": "an unreachable host runs no step: test steps.ID.status",
}


# Ansible's tests of truth and of lists (docs.ansible.com, playbooks_tests: "Testing truthiness",
# "Testing if a list contains a value", "Testing if a list value is True", "Set theory tests"), as
# this template's Jinja writes them. The closest name was offered in their place: `is truthy`
# "did you mean 'true'?", where Jinja's `true` is `is True` itself (false for 1, 'yes', a
# non-empty list), and `is superset` 'upper'.
_ANSIBLE_TRUTH_TESTS = {
    "truthy": ("VALUE", "not VALUE"),
    "falsy": ("not VALUE", "VALUE"),
    "any": ("VALUE | select | list | length > 0", None),
    "all": ("VALUE | reject | list | length == 0", None),
    "subset": ("VALUE | reject('in', OTHER) | list | length == 0", None),
    "superset": ("OTHER | reject('in', VALUE) | list | length == 0", None),
}


def _ansible_truth_hint(test: nodes.Test, *, negated: bool) -> str:
    """` (an Ansible test): write ...` for a test of _ANSIBLE_TRUTH_TESTS, with the value it tests
    and its argument as written; `negated`: written `is not ...`."""
    written, written_negated = _ANSIBLE_TRUTH_TESTS[test.name]
    expression = written_negated if negated and written_negated is not None else (
        f"not ({written})" if negated else written)
    other = _written(test.args[0]) if test.args else None
    expression = expression.replace("VALUE", _written(test.node) or "VALUE").replace("OTHER", other or "OTHER")
    why = "; a value is true or false by itself, and | bool reads a yes/no word" if test.name in ("truthy", "falsy") else ""
    return f" (an Ansible test): write {expression}{why}"


# Ansible's other tests (docs.ansible.com, playbooks_tests: "Testing strings", "Comparing
# versions", "Testing paths", "Testing lists"): `when: result.stdout is search('OOM')` is the
# common way to test output there. Jinja has none of them.
_ANSIBLE_PATTERN_TESTS = ("search", "match", "regex")
_ANSIBLE_PATH_TESTS = ("file", "directory", "exists", "link", "abs", "mount", "same_file")
_ANSIBLE_TEXT_TESTS = frozenset((*_ANSIBLE_PATTERN_TESTS, *_ANSIBLE_PATH_TESTS, "contains", "version", "version_compare"))
_REGEX_SIGNS = re.compile(r"[\\.^$*+?{}\[\]|()]")


def _ansible_test_hint(test: nodes.Test, *, negated: bool) -> str:
    """` (an Ansible test): what to write here`, with what `test` tests and its first argument.
    `negated`: written `is not search(...)`, so the fix keeps the `not` (`'OOM' in stdout` in
    its place ran the step exactly where the author meant to skip it)."""
    tested = _written(test.node) or "the text"
    arg = test.args[0] if test.args else None
    plain = isinstance(arg, nodes.Const) and isinstance(arg.value, str) and not _REGEX_SIGNS.search(arg.value)
    written = _written(arg) if arg is not None else None
    into = " not in " if negated else " in "
    if test.name in _ANSIBLE_PATTERN_TESTS and plain:
        fix = (f"write {'not ' if negated else ''}{tested}.startswith({written})" if test.name == "match"
               else f"write {written}{into}{tested}")
    elif test.name in _ANSIBLE_PATTERN_TESTS:
        fix = (f"give the step expect: [{{matches: {written or 'REGEX'}}}] (a Python regex on its output), "
               f"or capture what the pattern finds (capture: [{{regex: ...}}]) and test that fact"
               + (" (`is not`: the fact is not defined where nothing matched)" if negated else ""))
    elif test.name == "contains":
        fix = f"write {written or 'ITEM'}{into}{tested}"
    elif test.name in _ANSIBLE_PATH_TESTS:
        fix = "a template cannot see the host's files: test the path in the step's command (run: test -e PATH)"
    else:  # version, version_compare
        fix = "capture the version's parts as numbers (regex: '(?P<major>\\d+)\\.(?P<minor>\\d+)') and compare those"
    return f" (an Ansible test): {fix}"


def _written(node: nodes.Node) -> str | None:
    """A name, `a.b.c` or a string literal as an author writes it; None for anything else."""
    if isinstance(node, nodes.Const) and isinstance(node.value, str):
        return repr(node.value)
    if isinstance(node, nodes.Name):
        return node.name
    if isinstance(node, nodes.Getattr):
        inner = _written(node.node)
        return f"{inner}.{node.attr}" if inner is not None and not inner.startswith(("'", '"')) else None
    return None


# Jinja's tests that compare (jinja2/tests.py TESTS: `x is equalto('pass')`, `x is eq 'pass'`,
# `x is in [...]`; Ansible's docs write them so), as the operator each stands for.
COMPARING_TESTS = {"eq": "eq", "equalto": "eq", "==": "eq", "ne": "ne", "!=": "ne", "lt": "lt", "lessthan": "lt",
                    "<": "lt", "le": "lteq", "<=": "lteq", "gt": "gt", "greaterthan": "gt", ">": "gt",
                    "ge": "gteq", ">=": "gteq", "in": "in"}


# Jinja's tests that compare the value with one other (pallets/jinja src/jinja2/tests.py:
# test_sameas, test_divisibleby, test_in, and the operator tests TESTS maps to operator.eq and
# the rest); the others take none.
_ONE_ARGUMENT_TESTS = frozenset((*COMPARING_TESTS, "sameas", "divisibleby"))


def _argument_count(test: nodes.Test) -> int | None:
    """How many values `test` is given; None where a `*args` or `**kwargs` hides the count."""
    if test.dyn_args is not None or test.dyn_kwargs is not None:
        return None
    return len(test.args) + len(test.kwargs)


def _parse_checked(source: str) -> nodes.Template:
    """TEXT_ENV.parse, plus the check Jinja leaves to compile time: every filter and test the
    template names exists. Jinja's parser accepts `{{ x | lowr }}` and Ansible's `| quote`,
    `| to_json`, `is succeeded`; only compiling (jinja2/compiler.py, visit_Filter) refuses
    them, so without this `playbooks validate` said ok and the step failed mid-run."""
    parsed = TEXT_ENV.parse(source)
    for node in parsed.find_all((nodes.Filter, nodes.Test)):
        kind, known = ("filter", TEXT_ENV.filters) if isinstance(node, nodes.Filter) else ("test", TEXT_ENV.tests)
        if node.name in known:
            if kind == "test" and node.name in _ONE_ARGUMENT_TESTS and _argument_count(node) not in (1, None):
                # `when: x is sameas` failed mid-run as "TypeError: test_sameas() missing 1
                # required positional argument: 'other'"; `validate` said ok
                tested = _written(node.node) or "x"
                raise TemplateAssertionError(
                    f"test {node.name!r} takes one value to compare with, {_argument_count(node)} given: "
                    f"write {tested} is {node.name} VALUE (or {tested} is {node.name}(VALUE))", node.lineno)
            continue
        offered = sorted(set(known) - {DOUBLE_FILTER, SINGLE_FILTER, HEREDOC_FILTER})  # ours, put in by shell_context
        close = difflib.get_close_matches(node.name, offered, n=1)
        extra = f"; did you mean {close[0]!r}?" if close else (
            " (Ansible's own filters and tests do not exist here)" if kind == "filter" else "")
        if kind == "filter" and node.name in _ANSIBLE_FILTERS:
            way = _ANSIBLE_FILTERS[node.name].replace("VALUE", _written(node.node) or "VALUE")
            extra = " (an Ansible filter, which spec-debug's templates do not have" + (f"): {way}" if way else ")")
        if kind == "test" and node.name in _ANSIBLE_STATUS_TESTS:
            tested = node.node  # `steps.gpu is succeeded`: name that step in the fix
            step = (f"steps.{tested.attr}" if isinstance(tested, nodes.Getattr) and isinstance(tested.node, nodes.Name)
                    and tested.node.name == "steps" else "steps.ID")
            extra = f" (an Ansible test): {_ANSIBLE_STATUS_TESTS[node.name].replace('steps.ID', step)}"
        elif kind == "test" and node.name in _ANSIBLE_TEXT_TESTS:
            extra = _ansible_test_hint(node, negated=any(outer.node is node for outer in parsed.find_all(nodes.Not)))
        elif kind == "test" and node.name in _ANSIBLE_TRUTH_TESTS:
            extra = _ansible_truth_hint(node, negated=any(outer.node is node for outer in parsed.find_all(nodes.Not)))
        raise TemplateAssertionError(f"No {kind} named {node.name!r}{extra}", node.lineno)
    return parsed


_WRAPPER = len("{{ ")
_CHAR_AT = re.compile(r"^(unexpected char .* at )(\d+)$")


def _unwrapped_message(message: str, expression: str) -> str:
    """Jinja's message for an expression parsed as `{{ expression }}`, told of what the author
    wrote: `that: facts.n >= (3` was "unexpected '}', expected ')'" (the '}' is the wrapper's,
    the file has none), and a stray quote's "unexpected char at 14" counted the wrapper's 3."""
    if message.startswith("unexpected '}'") and "}" not in expression:
        return "unexpected end of expression" + message[len("unexpected '}'"):]
    at = _CHAR_AT.match(message)
    if at is not None:
        return f"{at.group(1)}{max(int(at.group(2)) - _WRAPPER, 0)} (of the expression)"
    return message


def _bare_tuple(parsed: nodes.Template) -> bool:
    """Whether `{{ expression }}` parsed to one tuple: `a > 1, 000` or `(a, b)`, which only the
    run's compile tells apart (a bare one is refused there, a bracketed one is a value)."""
    body = parsed.body
    return (len(body) == 1 and isinstance(body[0], nodes.Output) and len(body[0].nodes) == 1
            and isinstance(body[0].nodes[0], nodes.Tuple))


_THOUSANDS = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\w.])")


def _refuse_trailing_comma(source: str) -> None:
    """A check is compiled as one expression at run time (evaluate_condition: compile_expression),
    which refuses what a ',' adds ("chunk after expression"); inside `{{ }}` Jinja reads it as a
    tuple, so `that: facts.tps > 1,000` validated ok and failed the step on every host. Raises
    TemplateSyntaxError saying why, where the run's compile refuses it too."""
    try:
        _compile_expression(source)
    except TemplateSyntaxError as exc:
        number = _THOUSANDS.search(source)
        if number is not None:
            parts = number.group().split(",")
            listed = f"{', '.join(parts[:-1])} and {parts[-1]}"
            count = {2: "two", 3: "three", 4: "four"}.get(len(parts), str(len(parts)))
            message = (f"a ',' between digits is no thousands separator to Jinja: {number.group()} reads as {count} "
                       f"values, {listed}; write {''.join(parts)}")
        else:
            message = "a ',' ends the expression here: a check is one expression; join conditions with and / or"
        raise TemplateSyntaxError(message, exc.lineno, exc.name, exc.filename) from None


def undefined_names(source: str, known_vars: set[str], *, expression: bool = False) -> list[str]:
    """Static check: names a template uses that no var or context name defines.

    `vars.X` with an unknown X counts too. Facts are captured at run time, so `facts.*` is
    never flagged here. Raises TemplateSyntaxError for a malformed template.
    """
    try:
        parsed = _parse_checked("{{ " + source + " }}" if expression else source)
    except TemplateSyntaxError as exc:
        message = _unwrapped_message(exc.message or "", source) if expression else exc.message
        if message == exc.message:
            raise
        raise TemplateSyntaxError(message, exc.lineno, exc.name, exc.filename) from None
    if expression and _bare_tuple(parsed):
        _refuse_trailing_comma(source)
    locally_bound = _bound_names(parsed)
    missing: list[str] = []
    for name in parsed.find_all(nodes.Name):
        if name.ctx != "load" or name.name in locally_bound:
            continue
        if name.name not in known_vars and name.name not in CONTEXT_NAMES and name.name not in TEXT_ENV.globals:
            missing.append(name.name)
    for attr in parsed.find_all(nodes.Getattr):
        if isinstance(attr.node, nodes.Name) and attr.node.name == "vars" and attr.attr not in known_vars:
            missing.append(f"vars.{attr.attr}")
    for item in parsed.find_all(nodes.Getitem):
        if (
            isinstance(item.node, nodes.Name)
            and item.node.name == "vars"
            and isinstance(item.arg, nodes.Const)
            and item.arg.value not in known_vars
        ):
            missing.append(f"vars.{item.arg.value}")
    return list(dict.fromkeys(missing))


# ---------------------------------------------------------------- vars that use other vars

VAR_CONTEXT_NAMES = frozenset({"vars", "host"})
"""What a var's own template may use besides other vars: facts, stdout and the like do not
exist before the first step runs."""

_WHOLE_EXPRESSION = re.compile(r"^\s*\{\{(?P<expression>(?:(?!\{\{|\}\}).)*)\}\}\s*$", re.DOTALL)


def template_texts(value: Any) -> list[str]:
    """The strings inside a var value that hold a template (lists and mappings walked)."""
    if isinstance(value, str):
        return [value] if "{{" in value or "{%" in value else []
    if isinstance(value, list):
        return [text for item in value for text in template_texts(item)]
    if isinstance(value, dict):
        return [text for item in value.values() for text in template_texts(item)]
    return []


def _bound_names(parsed: nodes.Template) -> set[str]:
    """Names the template binds itself: a for loop's target and its `loop` (loop.index,
    loop.last: Jinja's Template Designer Documentation, "For"), a set, a macro by its name and
    its parameters (with `varargs`, `kwargs` and, in a call block, `caller`: "Macros", "Call")."""
    bound = {n.name for n in parsed.find_all(nodes.Name) if n.ctx in ("store", "param")}
    if any(True for _ in parsed.find_all(nodes.For)):
        bound.add("loop")
    macros = [m.name for m in parsed.find_all(nodes.Macro)]
    if macros:
        bound.update(macros, ("varargs", "kwargs"))
    if any(True for _ in parsed.find_all(nodes.CallBlock)):
        bound.add("caller")
    return bound


def names_used(source: str, *, expression: bool = False) -> list[str]:
    """The bare names a template reads (not those it binds itself, as a for loop does)."""
    parsed = TEXT_ENV.parse("{{ " + source + " }}" if expression else source)
    bound = _bound_names(parsed)
    return list(dict.fromkeys(n.name for n in parsed.find_all(nodes.Name) if n.ctx == "load" and n.name not in bound))


ATTEMPT_NAMES = frozenset({"exit_code", "stdout", "stderr"})
"""Names that exist only once a step's command has run: in its until: and expect that:, and in
its finding texts (runner/attempt.py)."""


def attributes_of(source: str, base: str, *, expression: bool = False) -> list[str]:
    """The X of every `base.X` and `base['X']` in a template (or an expression)."""
    parsed = TEXT_ENV.parse("{{ " + source + " }}" if expression else source)
    found = [a.attr for a in parsed.find_all(nodes.Getattr) if isinstance(a.node, nodes.Name) and a.node.name == base]
    found += [i.arg.value for i in parsed.find_all(nodes.Getitem)
              if isinstance(i.node, nodes.Name) and i.node.name == base and isinstance(i.arg, nodes.Const)
              and isinstance(i.arg.value, str)]
    return list(dict.fromkeys(found))


# What `steps.ID` holds (runner/engine.py, _step_view): the fields a later template may read.
STEP_RESULT_FIELDS = ("status", "exit_code", "stdout", "stderr", "message", "facts", "attempts", "duration_s", "captures")


def step_result_reads(source: str, *, expression: bool = False) -> list[tuple[str, str]]:
    """(step id, field) of every `steps.ID.FIELD` (or `steps['ID'].FIELD`) in a template."""
    parsed = TEXT_ENV.parse("{{ " + source + " }}" if expression else source)
    return [read for read in map(step_result_read, parsed.find_all(nodes.Getattr)) if read is not None]


def step_result_attributes(source: str, *, expression: bool = False) -> list[tuple[str, str, str]]:
    """(step id, field, attribute) of every `steps.ID.FIELD.ATTRIBUTE` (`steps.a.stdout.lines`)."""
    parsed = TEXT_ENV.parse("{{ " + source + " }}" if expression else source)
    found = []
    for node in parsed.find_all(nodes.Getattr):
        read = step_result_read(node.node)
        if read is not None:
            found.append((read[0], read[1], node.attr))
    return found


NOT_SET = object()
"""values_read's value for a name the context does not hold (`facts.x is defined and ...`)."""

# What values_read leaves out: the output is quoted beside the failure already (its tail), and
# `vars`, `facts` or `steps` alone (`'x' in facts`) would print every value of the host.
_UNSHOWN_NAMES = frozenset({"stdout", "stderr", "vars", "facts", "steps"})


def values_read(expression: str, context: dict[str, Any]) -> list[tuple[str, Any]]:
    """(name, value) of what an expression reads, in its order: `facts.tps`, `vars.min_tps`,
    `steps.warmup.exit_code`, a bare var, `exit_code` (each path as far as it goes through
    dicts; NOT_SET where a key is missing). For saying why a check failed: `observed False`
    alone sent the reader to run.json for the values it compared."""
    try:
        parsed = TEXT_ENV.parse("{{ " + expression + " }}")
    except TemplateSyntaxError:
        return []
    inner = {id(a.node) for a in parsed.find_all(nodes.Getattr)} | {id(i.node) for i in parsed.find_all(nodes.Getitem)}
    found: dict[str, Any] = {}
    for node in parsed.find_all((nodes.Getattr, nodes.Getitem, nodes.Name)):
        if id(node) in inner:
            continue  # a part of a longer path: the path says more
        keys: list[str] = []
        root = node
        while isinstance(root, (nodes.Getattr, nodes.Getitem)):
            if isinstance(root, nodes.Getattr):
                keys.append(root.attr)
            elif isinstance(root.arg, nodes.Const) and isinstance(root.arg.value, str):
                keys.append(root.arg.value)
            else:
                keys = []  # facts[vars.key], facts.lines[0]: the path is not a name
                root = root.node
                continue
            root = root.node
        if not isinstance(root, nodes.Name) or root.ctx != "load" or root.name in JINJA_OWN_NAMES or root.name not in context:
            continue
        keys.reverse()
        if root.name in _UNSHOWN_NAMES and not keys or root.name in ("stdout", "stderr"):
            continue
        value, path = context[root.name], root.name
        for key in keys:
            if not isinstance(value, dict):
                break  # a method or attribute of a value (`.split`): the value is the thing read
            value, path = value.get(key, NOT_SET), f"{path}.{key}"
            if value is NOT_SET:
                break
        if path == root.name and root.name in _UNSHOWN_NAMES:
            continue
        found.setdefault(path, value)
    return list(found.items())


def step_result_read(node: nodes.Node) -> tuple[str, str] | None:
    """(step id, field) when `node` is `steps.ID.FIELD` or `steps['ID'].FIELD`, else None."""
    if not isinstance(node, nodes.Getattr):
        return None
    inner = node.node
    if isinstance(inner, nodes.Getattr) and isinstance(inner.node, nodes.Name) and inner.node.name == "steps":
        return inner.attr, node.attr
    if (isinstance(inner, nodes.Getitem) and isinstance(inner.node, nodes.Name) and inner.node.name == "steps"
            and isinstance(inner.arg, nodes.Const) and isinstance(inner.arg.value, str)):
        return inner.arg.value, node.attr
    return None


def var_references(value: Any, var_names: Iterable[str]) -> list[str]:
    """The vars a var's value refers to (`{{ model }}`, `{{ vars.model }}`, `{{ vars['model'] }}`).
    Raises TemplateSyntaxError for a malformed template."""
    names = set(var_names)
    found: list[str] = []
    for text in template_texts(value):
        parsed = TEXT_ENV.parse(text)
        found += [n.name for n in parsed.find_all(nodes.Name) if n.ctx == "load" and n.name in names]
        for attr in parsed.find_all(nodes.Getattr):
            if isinstance(attr.node, nodes.Name) and attr.node.name == "vars" and attr.attr in names:
                found.append(attr.attr)
        for item in parsed.find_all(nodes.Getitem):
            if (isinstance(item.node, nodes.Name) and item.node.name == "vars" and isinstance(item.arg, nodes.Const)
                    and item.arg.value in names):
                found.append(item.arg.value)
    return list(dict.fromkeys(found))


def var_order(dependencies: dict[str, list[str]]) -> tuple[list[str], list[str] | None]:
    """(every var after the vars it uses, None), or ([], a chain that leads back to its start:
    `a -> b -> a`). Iterative: a generated playbook chains a thousand vars, past Python's
    recursion limit."""
    state: dict[str, int] = {}  # 1: on the current path, 2: ordered
    order: list[str] = []
    for root in dependencies:
        if root in state:
            continue
        state[root] = 1
        path, stack = [root], [iter(dependencies.get(root, []))]
        while stack:
            following = next(stack[-1], None)
            if following is None:
                done = path.pop()
                stack.pop()
                state[done] = 2
                order.append(done)
            elif state.get(following) == 1:
                return [], path[path.index(following):] + [following]
            elif following not in state:
                state[following] = 1
                path.append(following)
                stack.append(iter(dependencies.get(following, [])))
    return order, None


def var_cycle(dependencies: dict[str, list[str]]) -> list[str] | None:
    """A chain of vars that leads back to its start (`a -> b -> a`), else None."""
    return var_order(dependencies)[1]


def resolve_vars(values: dict[str, Any], templated: Iterable[str], host: str,
                 where: dict[str, str] | None = None) -> dict[str, Any]:
    """values with the templates in the named vars rendered over the others, dependencies
    first: `model_dir: "{{ model }}/draft"` follows `--var model=/data/llama` as Ansible's vars
    do. The caller names the templates: playbook defaults, and an inventory's values (Ansible
    templates those too); a value given on the command line is data and used as typed. A var that is one whole `{{ expression }}` keeps the
    expression's type (a list stays a list). `where` names a var's place in errors where it is
    not the playbook's `vars.NAME` (an inventory's value). Raises TemplateError."""
    pending = {name for name in templated if name in values and template_texts(values[name])}
    resolved = dict(values)
    dependencies: dict[str, list[str]] = {}
    for name in pending:
        try:
            dependencies[name] = [n for n in var_references(values[name], values) if n in pending]
        except TemplateSyntaxError as exc:
            raise TemplateError(f"{(where or {}).get(name, f'vars.{name}')}: template syntax error: {exc.message}") from None
    order, cycle = var_order({name: dependencies[name] for name in sorted(pending)})
    if cycle:
        raise TemplateError(f"vars.{cycle[0]}: the vars refer to each other in a circle: {' -> '.join(cycle)}")
    for name in order:
        context = {**resolved, "vars": resolved, "host": host}
        resolved[name] = _render_var(values[name], context, TemplateSite(None, (where or {}).get(name, f"vars.{name}")))
    return resolved


def _render_var(value: Any, context: dict[str, Any], site: TemplateSite) -> Any:
    if isinstance(value, str):
        whole = _WHOLE_EXPRESSION.match(value)
        if whole:
            return evaluate(whole.group("expression").strip(), context, site)
        return render(value, context, site)
    if isinstance(value, list):
        return [_render_var(item, context, site) for item in value]
    if isinstance(value, dict):
        return {key: _render_var(item, context, site) for key, item in value.items()}
    return value
