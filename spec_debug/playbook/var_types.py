"""A `--var` keeps the type of the var's default.

The command line gives text; the CLI used to guess a type from the text alone (cli._scalar:
`5` an int, `true` a bool, `[1]` a list). That guess met the playbook's own types mid-run:
`--var n=abc` under `that: n > 1` was an SD003 "TypeError: '>' not supported" on every host
and exit 0, and `--var suffix=5` where the default is the text "v1" became the int 5, so
`suffix.startswith("v")` failed as an undefined attribute. Ansible's `-e` gives text too; a
playbook here declares every var with a default, and that default says what the var is.

A var whose default says nothing of a type keeps the guess: `~` (None), the empty text (the
shipped playbooks' way to write "no default": `baseline_tok_s: ""` is given a number or a
path), and a template default (`"{{ base_port + 1 }}"` has the type its expression gives).
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from spec_debug.errors import PlaybookError, UsageError
from spec_debug.playbook.number_text import number_given_with_unit
from spec_debug.playbook.templating import template_texts

# The words Ansible's `bool` filter reads as a yes or no (ansible/module_utils/parsing/convert_bool.py,
# BOOLEANS_TRUE / BOOLEANS_FALSE), in any case.
_TRUE_WORDS = frozenset({"true", "yes", "on", "1", "y", "t"})
_FALSE_WORDS = frozenset({"false", "no", "off", "0", "n", "f"})

_WHOLE_NUMBER = re.compile(r"[-+]?[0-9]+")
_DECIMAL = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)")


def typed_like_defaults(texts: dict[str, str], guessed: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """Each --var NAME=TEXT given as the type of NAME's default (the guess where the default
    has no type to keep, or NAME is no var of the playbook: Run refuses that one, with a hint).
    Raises UsageError naming the var, the value and the type its default has."""
    for name, text in texts.items():
        _refuse_packed_assignments(name, text, defaults)
    return {
        name: typed_like_default(name, text, defaults[name], guessed[name]) if name in defaults else guessed[name]
        for name, text in texts.items()
    }


def _refuse_packed_assignments(name: str, text: str, defaults: dict[str, Any]) -> None:
    """`-e 'model=/m draft=/d'`: Ansible reads several KEY=VALUE in one -e; here the first var
    took all the rest as its value ("/m draft=/d"), and the second kept its default, unsaid.
    Only a later word that assigns a var of this playbook counts: `--var server_cmdline='...
    --model-path=/m'` holds options, not vars."""
    packed = [word.partition("=")[0] for word in text.split()[1:] if "=" in word and word.partition("=")[0] in defaults]
    if packed:
        words = text.split()
        each = [f"{name}={words[0]}", *words[1:]] if len(packed) == len(words) - 1 else [f"{name}=...", f"{packed[0]}=..."]
        raise UsageError(
            f"--var {name}={text}: one --var sets one var, and this value also assigns {packed[0]}",
            hint=f"give each its own --var: {' '.join('--var ' + word for word in each)}"
                 f" (quote a value that has spaces: --var '{name}=a b')",
        )


def typed_like_default(name: str, text: str, default: Any, guessed: Any) -> Any:
    if default is None or default == "" or template_texts(default):
        return guessed
    if isinstance(default, bool):
        return _yes_or_no(name, text, default)
    if isinstance(default, (int, float)):
        return _number(name, text, default, guessed)
    if isinstance(default, str):
        return text  # `--var suffix=5`, `--var flag=true`: the text as typed
    if isinstance(default, list):
        return _structure(name, text, default, guessed, list, "list", '["a", "b"]')
    if isinstance(default, dict):
        return _structure(name, text, default, guessed, dict, "mapping", '{"key": "value"}')
    return guessed


def _yes_or_no(name: str, text: str, default: bool) -> bool:
    word = text.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise UsageError(
        f"--var {name}={text}: {name} is a yes/no in the playbook (default {json.dumps(default)}), "
        f"and {_shown(text)} is neither",
        hint=f"write true or false: --var {name}={json.dumps(not default)}",
    )


def _number(name: str, text: str, default: int | float, guessed: Any) -> int | float:
    if (type(default) is int and type(guessed) is float and guessed.is_integer() and "e" in text.lower()
            and abs(guessed) <= 2**53):
        # `--var num_prompts=1e3` for a count: the float 1000.0 reached the command as
        # `--num-prompts 1000.0`, which argparse's type=int refuses ("invalid int value"). An
        # exponent is a way to write the number; a decimal point (1000.0) is kept as written.
        return int(guessed)
    if isinstance(guessed, (int, float)) and not isinstance(guessed, bool):
        return guessed
    written = text.strip()
    if _WHOLE_NUMBER.fullmatch(written):
        return int(written)  # `08`, `+5`: the CLI keeps those as text for a text var
    if _DECIMAL.fullmatch(written):
        return float(written)  # `0.50`: kept as text for a version var (`vllm_version=0.10`)
    with_unit = number_given_with_unit(name, text, default)
    if with_unit is not None:
        raise with_unit
    comma = re.fullmatch(r"([-+]?\d+),(\d+)", written)
    if comma and type(default) is float and (len(comma.group(2)) != 3 or comma.group(1).lstrip("-+") == "0"):
        # `--var min_accept=0,6`: a decimal comma (most of Europe's number format). The hint
        # offered the default, 0.5, not the 0.6 meant. `1,000` may be a thousands separator.
        hint = f"a decimal point, not a comma: --var {name}={written.replace(',', '.')}"
    else:
        hint = f"write a number: --var {name}={default}"
    raise UsageError(
        f"--var {name}={text}: {name} is a number in the playbook (default {default}), and {_shown(text)} is not a number",
        hint=hint,
    )


def _structure(name: str, text: str, default: Any, guessed: Any, kind: type, called: str, example: str) -> Any:
    if isinstance(guessed, kind):
        return guessed
    shown = json.dumps(default)
    raise UsageError(
        f"--var {name}={text}: {name} is a {called} in the playbook (default {shown}), and {_shown(text)} is not one",
        hint=f"write it as JSON, quoted for the shell: --var '{name}={example}', or as YAML under {name}: in a --var-file",
    )


def _shown(text: str) -> str:
    return "the empty value" if not text.strip() else repr(text)


def typed_var_file_values(values: dict[str, Any], defaults: dict[str, Any], source: str, text: str) -> dict[str, Any]:
    """A --var-file's values as the types of their defaults, by the rules of --var: YAML types
    them, and `n: abc` for a number var, `dry: "no"` for a yes/no var or `suffix: 5` for a text
    var met the playbook's own types mid-run, as --var did. A None (`x: ~`) and a var the
    playbook lacks (check_var_file_names refuses it) are left as they are. Raises PlaybookError
    at the value's line and column in the file."""
    return _typed_values(values, defaults, lambda value: False,
                         lambda exc, name, written: _in_var_file(exc, name, written, defaults[name], source, text))


def typed_inventory_values(values: dict[str, Any], defaults: dict[str, Any], host: str) -> dict[str, Any]:
    """An inventory's values for one host as the types of their defaults, by the rules of --var:
    an INI inventory gives text (`gpu01 min_tokens=abc dry=no`), which met a number check as a
    TypeError on that host mid-run, and `dry=no` was the true text 'no'. A template (Ansible
    renders it later, with the host's other vars; an `!unsafe` text is returned as the same
    object, still marked), a None and a var the playbook lacks are left as they are. Raises
    UsageError naming the host, before any host is touched."""
    return _typed_values(values, defaults, lambda value: bool(template_texts(value)),
                         lambda exc, name, written: _in_inventory(exc, name, host))


def _typed_values(values: dict[str, Any], defaults: dict[str, Any], left_alone: Callable[[Any], bool],
                  refused: Callable[[UsageError, str, str], Exception]) -> dict[str, Any]:
    typed: dict[str, Any] = {}
    for name, value in values.items():
        if name not in defaults or value is None or left_alone(value):
            typed[name] = value
            continue
        written = value if isinstance(value, str) else json.dumps(value)
        try:
            typed[name] = typed_like_default(name, written, defaults[name], value)
        except UsageError as exc:
            raise refused(exc, name, written) from None
    return typed


def _in_var_file(exc: UsageError, name: str, written: str, default: Any, source: str, text: str) -> PlaybookError:
    from spec_debug.playbook.yaml_nodes import load_positioned  # only for the error's position

    line, column = load_positioned(text, source, kind="var file").position((name,)) or (None, None)
    # The --var words of the refusal, as the var file writes the var: `n: 3`, not `--var n=3`.
    message = str(exc.message).removeprefix(f"--var {name}={written}: ")
    if isinstance(default, (list, dict)):
        hint: str | None = f"write it as YAML, as the playbook's default is: {name}: {json.dumps(default)}"
    else:
        hint = exc.hint.replace(f"--var {name}=", f"{name}: ") if exc.hint else None
    return PlaybookError(message, path=source, line=line, column=column, key_path=name, hint=hint)


def _in_inventory(exc: UsageError, name: str, host: str) -> UsageError:
    message = str(exc.message).removeprefix("--var ")
    hint = exc.hint.replace(f"--var '{name}=", f"'{name}=").replace(f"--var {name}=", f"{name}=") if exc.hint else None
    return UsageError(f"host {host}: inventory var {message}", hint=hint and f"{hint} (in the inventory)")
