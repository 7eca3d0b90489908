"""`--help` that never hides a word: Typer's rich help cuts a word wider than its cell.

Typer (typer/rich_utils.py, 0.29) lays each option out in a rich Table whose cells take the
column's default overflow, "ellipsis" (rich/table.py, Column.overflow): a word wider than the
help column lost its end behind "…". At 80 columns `run --help` showed
"StrictHostKeyChecking=accept…" and `drafter eval --help` "(speculators_config.verifier…"; at
60 columns option names too ("--connect-time…", "--artifact-lim…"), the one thing a reader of
the help needs whole. The texts and names are given overflow "fold": a word wider than its cell
goes on at the start of the next line, as the types column already does.

Typer 0.29 (typer/core.py, TyperOption.display_type_rich) also writes a type after every option
in the rich help, `<bool>` after a flag: `--json <bool>`, `--step <bool>`, `--help <bool>` read as
options that want a value (`--json true`), which click refuses ("Got unexpected extra argument").
A flag (and a counted flag, `-vv`) takes no value, so it shows no type, as click's own help and
Typer's plain-text help (TyperOption.get_help_record) write it.

rich_utils is imported only when help or an error is shown (~100 ms of imports), so the
texts are changed the first time a help page is formatted, not at start.
"""

from __future__ import annotations

from typing import Any

import typer.core

_folding = False


def fold_long_words() -> None:
    """Make the help texts and option names Typer builds fold instead of being cut (once)."""
    global _folding
    if _folding:
        return
    _folding = True
    from rich.text import Text
    from typer import rich_utils

    # Private names of typer.rich_utils: older releases spell the first one `_make_rich_rext`.
    # A Typer without them shows its own help, cut as before, rather than failing to show any.
    make_text = getattr(rich_utils, "_make_rich_text", None)
    if make_text is None or not all(hasattr(rich_utils, name) for name in ("highlighter", "negative_highlighter")):
        return

    def folding_text(*args: Any, **kwargs: Any):
        rendered = make_text(*args, **kwargs)
        if isinstance(rendered, Text):
            rendered.overflow = "fold"
        return rendered

    class FoldingHighlighter:
        def __init__(self, highlighter: Any) -> None:
            self.highlighter = highlighter

        def __call__(self, text: Any) -> Any:
            rendered = self.highlighter(text)
            if isinstance(rendered, Text):
                rendered.overflow = "fold"
            return rendered

    rich_utils._make_rich_text = folding_text
    rich_utils.highlighter = FoldingHighlighter(rich_utils.highlighter)
    rich_utils.negative_highlighter = FoldingHighlighter(rich_utils.negative_highlighter)


def _folding_first(format_help):
    def format_help_folded(self, ctx, formatter):
        fold_long_words()
        return format_help(self, ctx, formatter)

    return format_help_folded


def _no_type_for_flags(display_type_rich):
    def display_type_unless_flag(self, ctx):
        if getattr(self, "is_flag", False) or getattr(self, "count", False):
            return None
        return display_type_rich(self, ctx)

    display_type_unless_flag._spec_debug_flags = True
    return display_type_unless_flag


def install() -> None:
    """Hook the help of every Typer command and group of this process (class attributes only)."""
    option = getattr(typer.core, "TyperOption", None)
    shown = getattr(option, "display_type_rich", None)  # a Typer before 0.29 writes no such type
    if shown is not None and not getattr(shown, "_spec_debug_flags", False):
        option.display_type_rich = _no_type_for_flags(shown)
    for cls in (typer.core.TyperCommand, typer.core.TyperGroup):
        if not getattr(cls.format_help, "_spec_debug_folds", False):
            cls.format_help = _folding_first(cls.format_help)
            cls.format_help._spec_debug_folds = True
