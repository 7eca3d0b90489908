"""Jinja's sandbox with the size of what an expression builds bounded: for playbook templates
and report templates, both written by whoever hands over the file."""

from __future__ import annotations

import re
import string
from contextvars import ContextVar
from functools import wraps
from typing import Any, Callable, Iterable

from jinja2 import Template, nodes
from jinja2.exceptions import SecurityError
from jinja2.runtime import LoopContext, markup_join, str_join
from jinja2.sandbox import SandboxedEnvironment, safe_range
from jinja2.utils import generate_lorem_ipsum
from jinja2.visitor import NodeTransformer

MAX_REPEATED = 10_000_000
"""Items (or characters) a `*` or a padding may make: a command or a value, never a memory's worth."""
MAX_POWER_BITS = 1_000_000
"""Bits a `**` may make (a number of 300,000 digits)."""
MAX_LIPSUM_PARAGRAPHS = 10_000
MAX_RANGE_ITEMS = 1_000_000
"""Items all the `range()`s of one render may make. Jinja bounds one range (MAX_RANGE, 100,000)
but not a loop of them: two nested `{% for %}` over range(100000) ran 10**10 iterations, and the
run could not be stopped (SIGTERM and Ctrl-C wait for the template)."""
MAX_LOOP_ITEMS = 1_000_000
"""Iterations all the `{% for %}` loops of one render may make: a loop over a long facts list
inside a loop over it (100,000 lines looped 100,000 times) is 10**10 iterations, no range()
in it to count. At least MAX_RANGE_ITEMS, so a loop of ranges is still told as such."""

MAX_RENDERED = 100_000_000
"""Characters one render may write in all. Each piece is bounded, not their number: a loop over
30,000 captured lines writing `facts.n | join(',')` each time wrote 4.5 GB, the run at 9.5 GB
and deaf to SIGTERM. Far above any report (256 KiB of output per step and stream)."""
MAX_WRAPPED_CHARACTERS = 1_000_000
"""Characters `| wordwrap` and `| urlize` may read. They build no more than they read, but
slowly: textwrap cuts a long word again and again (8,000,000 characters took 39 s, 1,000,000
0.7 s) and urlize looks at each word (8 MB of words took 12 s), the run held meanwhile."""
MAX_FILTER_ITEMS = 1_000_000
"""Items `| sort`, `| unique`, `| map` and the other filters that call Python code for each item
may read. A text is read character by character: `'ab' * 4000000 | sort` took 8-20 s and
`| groupby` 18 s, deaf to Ctrl-C (a `*` of 10,000,000 is allowed). As MAX_LOOP_ITEMS: a
`{% for %}` over the same items is bounded there."""
_ITEM_FILTERS = ("sort", "unique", "groupby", "map", "select", "reject", "selectattr", "rejectattr",
                 "min", "max", "sum", "batch")
"""Filters that read their input item by item (jinja2/filters.py); batch takes it first, the
others after the environment or context Jinja passes them."""

MAX_BUILT = 1_000_000_000
"""Characters (or items) all the bounded builds of one render or expression may make together:
`*`, `+`, `~`, paddings, replace, join, slice. Each is bounded, not their number: a loop
appending `'x' * 9999999` to a list 1,000 times kept 10 GB, `range(1000) | map('center',
9999999) | list` the same, each build within its bound and the loop far below its own.
A text grown with `~` in a loop is counted at every copy, so the bound is ten times the 100M
that one render may write: 3,000 lines of 100 characters joined that way copy 450M characters
(a report template may build its table so) and pass; at most about 1 GB is kept."""
_BUILT: ContextVar[list[int] | None] = ContextVar("spec_debug_built", default=None)
"""What the render running in this thread has built so far (BoundedTemplate.new_context)."""

_PADDING_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs"})
"""str methods whose int argument is the width of what they return."""
_PRINTF_SPEC = re.compile(r"%(\([^)]*\))?[-+ #0]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)", re.DOTALL)
"""One printf conversion: its mapping key, width, precision and conversion character (Python's
printf-style formatting, Library Reference 4.8.2)."""
_DIGITS = re.compile(r"\d+")


def _refuse_size(size: int, what: str, unit: str = "characters") -> None:
    if size > MAX_REPEATED:
        raise SecurityError(f"{what} would make {size:,} {unit}; at most {MAX_REPEATED:,}")
    built = _BUILT.get()
    if built is not None and size > 0:
        built[0] += size
        if built[0] > MAX_BUILT:
            raise SecurityError(f"this template would build more than {MAX_BUILT:,} characters or items in all "
                                f"(the last: {what}, a value built again and again in a loop); build less")


def _refuse_width(width: Any, what: str) -> None:
    if isinstance(width, int) and not isinstance(width, bool):
        _refuse_size(width, what)


def _ints(values: Iterable[Any]) -> Iterable[Any]:
    return (v for v in values if isinstance(v, int))


def _check_printf(text: str, args: Any, what: str) -> None:
    """`'%0999999999d' % 1` pads to a billion characters; so does `'%*d' % (10**9, 1)`. A `*`
    takes its width from the next argument, so only the arguments a `*` consumes are widths:
    `'%*d %d' % (5, 1, 10**9)` prints a number, not a width."""
    values = args if isinstance(args, tuple) else (args,)
    position = 0  # the next argument a conversion or a `*` consumes
    for match in _PRINTF_SPEC.finditer(text):
        key, width, precision, conversion = match.groups()
        if conversion == "%" and not (key or width or precision):
            continue  # '%%' prints a '%' and consumes nothing
        for number in (width, precision):
            if number == "*":
                if position < len(values):
                    _refuse_width(values[position], what)
                position += 1
            elif number:
                _refuse_width(int(number), what)
        if key is None:
            position += 1


def _check_format(text: str, args: tuple, kwargs: dict, what: str) -> None:
    """`'{:>999999999}'.format(1)`; a width given as `{:{w}}` comes from the argument that
    nested field names (`{w}`, `{1}`, or `{}` numbered automatically as str.format does), and
    only that argument is a width: `'{:{w}} {n}'.format(w=5, n=10**9)` prints a number."""
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError:
        return  # str.format raises the same error itself, naming the fault
    automatic = 0  # str.format's next automatic field number ('{}' fields, nested ones too)
    for _, name, spec, _ in fields:
        if name == "":
            automatic += 1
        if not spec:
            continue
        try:
            nested = list(string.Formatter().parse(spec))
        except ValueError:
            return
        for literal, inner, _, _ in nested:
            for number in _DIGITS.findall(literal):
                _refuse_width(int(number), what)
            if inner is None:
                continue
            if inner == "":
                inner, automatic = str(automatic), automatic + 1
            head = re.match(r"[^.\[]*", inner).group()
            if "." in inner:  # '{:{w.x}}': reading an attribute here could run code; bound them all
                for value in _ints((*args, *kwargs.values())):
                    _refuse_width(value, what)
            elif head != inner:  # '{:{b[1]}}': an item of a list or mapping argument is the width
                _refuse_width(_item_width(inner, args, kwargs), what)
            elif head.isdigit():
                if int(head) < len(args):
                    _refuse_width(args[int(head)], what)
            elif head in kwargs:
                _refuse_width(kwargs[head], what)


def _item_width(field: str, args: tuple, kwargs: dict) -> Any:
    """The value `'{:{b[1]}}'` takes its width from, looked up as str.format looks it up; None
    where the lookup fails, as str.format then raises its own error naming the field."""
    try:
        return string.Formatter().get_field(field, args, kwargs)[0]
    except (LookupError, TypeError, ValueError):
        return None


def _bounded_filter(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(original)
    def bounded(value: Any, *args: Any, **kwargs: Any) -> Any:
        if name == "format":
            _check_printf(str(value), tuple(args) or tuple(kwargs.values()), "'| format'")
        else:  # center(width), indent(width)
            for width in _ints((*args, *kwargs.values())):
                _refuse_width(width, f"'| {name}'")
        return original(value, *args, **kwargs)
    return bounded


def _replaced_size(text: Any, old: Any, new: Any, count: Any) -> int:
    """Length of ``text.replace(old, new, count)`` worked out before it is built: each `replace`
    may multiply a text's length, and a chain of them grows it past any memory."""
    if not (isinstance(text, str) and isinstance(old, str) and isinstance(new, str)):
        return 0
    found = len(text) + 1 if old == "" else text.count(old)
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    return len(text) + found * (len(new) - len(old))


def _joined_size(items: list, separator: Any) -> int:
    texts = sum(len(item) for item in items if isinstance(item, str))
    return texts + (len(separator) * max(len(items) - 1, 0) if isinstance(separator, str) else 0)


def _bounded_context_filter(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """`| slice(n)` makes n lists whatever the input; `| replace` and `| join`, like `*`, may build a
    text of any length. The three take the evaluation context first (jinja2.filters: their
    async variants are pass_eval_context, which functools.wraps carries over to the wrapper)."""
    @wraps(original)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        if name == "slice":
            slices = args[2] if len(args) > 2 else kwargs.get("slices")
            if isinstance(slices, int) and not isinstance(slices, bool):
                _refuse_size(slices, "'| slice'", "lists")
        elif name == "replace":
            _, text, old, new, *rest = (*args, None, None, None)[:5]
            old, new = kwargs.get("old", old), kwargs.get("new", new)
            _refuse_size(_replaced_size(text, old, new, kwargs.get("count", rest[0] if rest else None)), "'| replace'")
        elif name == "join" and len(args) > 1 and kwargs.get("attribute", args[3] if len(args) > 3 else None) is None:
            items = list(args[1])
            separator = args[2] if len(args) > 2 else kwargs.get("d", "")
            _refuse_size(_joined_size(items, separator), "'| join'")
            args = (args[0], items, *args[2:])
        return original(*args, **kwargs)
    return bounded


def _bounded_text_filter(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """`| wordwrap` (pass_environment) and `| urlize` (pass_eval_context) take the text second."""
    @wraps(original)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        text = args[1] if len(args) > 1 else kwargs.get("s", kwargs.get("value"))
        if isinstance(text, str) and len(text) > MAX_WRAPPED_CHARACTERS:
            raise SecurityError(f"'| {name}' of {len(text):,} characters; at most {MAX_WRAPPED_CHARACTERS:,} "
                                "(cut the text first, e.g. | truncate or a slice)")
        return original(*args, **kwargs)
    return bounded


def _bounded_item_filter(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """A filter of _ITEM_FILTERS that refuses a text or a list of more than MAX_FILTER_ITEMS
    items before it starts. Its input is a value (one the `*` bound let through, a fact), or
    the iterator of another such filter, which read at most as many."""
    at = 0 if name == "batch" else 1

    @wraps(original)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        items = args[at] if len(args) > at else None
        if isinstance(items, (str, list, tuple, dict, set, frozenset, range)) and len(items) > MAX_FILTER_ITEMS:
            if isinstance(items, str):
                raise SecurityError(f"'| {name}' of a text of {len(items):,} characters (it reads a text character by "
                                    f"character); at most {MAX_FILTER_ITEMS:,} (split it into lines, or cut it first, "
                                    "e.g. a slice [:1000])")
            raise SecurityError(f"'| {name}' of {len(items):,} items; at most {MAX_FILTER_ITEMS:,} "
                                "(cut the list first, e.g. a slice [:1000])")
        return original(*args, **kwargs)
    return bounded


def _render_tally(context: Any, name: str) -> list[int]:
    """A count kept for one render: on its Context (one per render), in a list so that a
    generator can add to it in place."""
    return context.__dict__.setdefault(f"_spec_debug_{name}", [0])


def _count_range_items(context: Any, items: int) -> None:
    """Add a range's items to what the render has made so far."""
    made = _render_tally(context, "range_items")
    made[0] += items
    if made[0] > MAX_RANGE_ITEMS:
        raise SecurityError(f"the range() calls of this template would make more than {MAX_RANGE_ITEMS:,} items "
                            "(a loop of ranges); loop over fewer")


def loop_items(items: Any) -> Any:
    """Stands for the items of a `{% for %}` in a compiled template (BoundedSandbox._parse);
    BoundedSandbox.call counts them through it."""
    return items


def _counted_loop_items(context: Any, items: Any) -> Iterable[Any]:
    """Yield a loop's items, counting them against what the render has looped."""
    counter = _render_tally(context, "loop_items")
    for item in items:
        counter[0] += 1
        if counter[0] > MAX_LOOP_ITEMS:
            raise SecurityError(f"the {{% for %}} loops of this template would run more than {MAX_LOOP_ITEMS:,} "
                                "times (a loop inside a loop over a long list); loop over fewer")
        yield item


def concatenated(parts: list[Any]) -> Any:
    """Stands for a `~` in a compiled template (BoundedSandbox._parse); BoundedSandbox.call
    bounds and joins the parts."""
    return str_join(parts)


class _ConcatCalls(NodeTransformer):
    """Each `a ~ b` becomes concatenated([a, b]): Jinja compiles `~` to a bare str_join (jinja2/
    compiler.py, visit_Concat), which neither call_binop nor call sees."""

    def visit_Concat(self, node: nodes.Concat) -> nodes.Call:
        node = self.generic_visit(node)
        return nodes.Call(nodes.ImportedName(f"{__name__}.concatenated"), [nodes.List(node.nodes, lineno=node.lineno)],
                          [], None, None, lineno=node.lineno)


def _refuse_growth(left: Any, right: Any, what: str) -> None:
    """`a + b` of texts or lists, or `a.extend(b)`: each within the '*' bound, but doubling a
    value in a loop (`{% set ns.s = ns.s + ns.s %}`) made 160,000,000 characters in 4 turns."""
    if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
        _refuse_size(len(left) + len(right), what, "characters" if isinstance(left, str) else "items")


def _bounded_output(pieces: Iterable[str]) -> Iterable[str]:
    written = 0
    for piece in pieces:
        written += len(piece)
        if written > MAX_RENDERED:
            raise SecurityError(f"this template would write more than {MAX_RENDERED:,} characters "
                                "(a long value written in a loop); write less")
        yield piece


class BoundedTemplate(Template):
    """A template whose render counts what it writes (MAX_RENDERED); Template.render otherwise."""

    def new_context(self, *args: Any, **kwargs: Any) -> Any:
        """Every render and every compiled expression's call starts here: what it builds is
        counted from 0 (MAX_BUILT). A ContextVar, as the size checks are given no Context."""
        _BUILT.set([0])
        return super().new_context(*args, **kwargs)

    def render(self, *args: Any, **kwargs: Any) -> str:
        context = self.new_context(dict(*args, **kwargs))
        try:
            return self.environment.concat(_bounded_output(self.root_render_func(context)))  # type: ignore[attr-defined]
        except Exception:
            self.environment.handle_exception()


class BoundedSandbox(SandboxedEnvironment):
    """The sandbox bounds `range()` (MAX_RANGE) but nothing else that builds: `when: "'x' *
    10**10"` took 10 GB and the kernel killed the run, its run.json left "running"; `10 **
    100000000` computed for minutes; a padding (`'%0999999999d' % 1`, `'x'.center(10**9)`, `|
    indent(10**9)`, `lipsum(10**9)`) is the same. Each is refused with its size, a report
    --template alike (jinja2/sandbox.py: intercepted_binops, call_binop, call, wrap_str_format)."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    template_class = BoundedTemplate

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Filters are called directly by the compiled template, not through call().
        for name in ("center", "indent", "format"):
            if name in self.filters:
                self.filters[name] = _bounded_filter(name, self.filters[name])
        for name in ("slice", "replace", "join"):
            if name in self.filters:
                self.filters[name] = _bounded_context_filter(name, self.filters[name])
        for name in ("wordwrap", "urlize"):
            if name in self.filters:
                self.filters[name] = _bounded_text_filter(name, self.filters[name])
        for name in _ITEM_FILTERS:
            if name in self.filters:
                self.filters[name] = _bounded_item_filter(name, self.filters[name])

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """Each `{% for %}` loops over loop_items(its items), so that call() counts them: Jinja
        compiles a loop to a bare Python `for` (jinja2/compiler.py, visit_For), no hook in it."""
        template = super()._parse(source, name, filename)
        for loop in list(template.find_all(nodes.For)):
            loop.iter = nodes.Call(nodes.ImportedName(f"{__name__}.loop_items"), [loop.iter], [], None, None,
                                   lineno=loop.iter.lineno)
        return _ConcatCalls().visit(template)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for sequence, times in ((left, right), (right, left)):
                if isinstance(sequence, (str, list, tuple)) and isinstance(times, int):
                    _refuse_size(len(sequence) * times, "'*'", "items")
        elif (operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1
              and right * abs(left).bit_length() > MAX_POWER_BITS):
            raise SecurityError(f"'**' would make a number of about {right * abs(left).bit_length():,} bits; "
                                f"at most {MAX_POWER_BITS:,}")
        elif operator == "%" and isinstance(left, str):
            _check_printf(left, right, "'%'")
        elif operator == "+":
            _refuse_growth(left, right, "'+'")
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja's signature)
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, str) and getattr(__obj, "__name__", "") in _PADDING_METHODS:
            for width in _ints((*args, *kwargs.values())):
                _refuse_width(width, f"'.{__obj.__name__}()'")
        elif isinstance(owner, str) and getattr(__obj, "__name__", "") == "replace" and len(args) >= 2:
            count = args[2] if len(args) > 2 else kwargs.get("count", -1)
            _refuse_size(_replaced_size(owner, args[0], args[1], count), "'.replace()'")
        elif isinstance(owner, str) and getattr(__obj, "__name__", "") == "join" and len(args) == 1:
            items = list(args[0])  # a generator is read once: join gets the list
            _refuse_size(_joined_size(items, owner), "'.join()'")
            args = (items,)
        elif __obj is safe_range:
            # Jinja passes `_loop_vars` to a call inside a loop (jinja2/runtime.py, Context.call)
            counted = all(isinstance(a, int) for a in args) and not set(kwargs) - {"_loop_vars"}
            _count_range_items(__context, len(range(*args)) if counted else 0)
        elif isinstance(owner, list) and getattr(__obj, "__name__", "") == "extend" and len(args) == 1:
            items = list(args[0])  # a generator is read once: extend gets the list
            _refuse_growth(owner, items, "'.extend()'")
            args = (items,)
        elif __obj is concatenated:
            parts = list(args[0])
            _refuse_size(sum(len(p) if isinstance(p, str) else len(str(p)) for p in parts), "'~'")
            return (markup_join if __context.eval_ctx.autoescape else str_join)(parts)
        elif __obj is loop_items:
            return _counted_loop_items(__context, args[0])
        elif isinstance(__obj, LoopContext) and args:
            # loop(children) in a recursive {% for %} runs the loop body over items _parse never
            # wrapped (jinja2/runtime.py, LoopContext.__call__): counted as a loop's own items.
            args = (_counted_loop_items(__context, args[0]), *args[1:])
        elif __obj is generate_lorem_ipsum:
            paragraphs = args[0] if args else kwargs.get("n", 5)
            if isinstance(paragraphs, int) and paragraphs > MAX_LIPSUM_PARAGRAPHS:
                raise SecurityError(f"'lipsum()' would make {paragraphs:,} paragraphs; at most {MAX_LIPSUM_PARAGRAPHS:,}")
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        sandboxed = super().wrap_str_format(value)
        if sandboxed is None:
            return None
        text = value.__self__

        def bounded(*args: Any, **kwargs: Any) -> str:
            if value.__name__ == "format_map":
                _check_format(text, (), dict(args[0]) if args and hasattr(args[0], "keys") else {}, "'.format_map()'")
            else:
                _check_format(text, args, kwargs, "'.format()'")
            return sandboxed(*args, **kwargs)
        return bounded
