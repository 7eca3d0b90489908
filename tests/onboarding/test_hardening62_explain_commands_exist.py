"""Every `spec-debug ...` command that the texts `explain` prints names (catalog entries, concepts,
shipped playbook walkthroughs) is one the CLI has: its subcommands exist, its options are that
command's, and a literal `spec-debug explain TOPIC` / `findings CODE` answers (exit 0). A newcomer
copies these lines; a renamed option or a dropped topic must fail here, not in their terminal."""

from __future__ import annotations

import re

import pytest
import typer
import click

from spec_debug import glossary
from spec_debug.cli import app
from spec_debug.diagnose.codes import ENTRIES
from spec_debug.explain import render_explanation
from spec_debug.playbook.loader import load_playbook, shipped_playbook_names
from tests.conftest import run_cli

ROOT = typer.main.get_command(app)
# a command in backticks (Markdown code spans of the texts); the text after it up to the backtick
_COMMAND = re.compile(r"`spec-debug ([^`]+)`")
_PLACEHOLDER = re.compile(r"^[A-Z][A-Z_]*$|^\[|^<|\.\.\.$|^[A-Z]+=")


def _texts() -> dict[str, str]:
    texts = {d.code: "\n".join([d.title, d.detects, d.why, d.fix, d.example]) for d in ENTRIES}
    texts.update({f"concept {c.name}": glossary.render_concept_markdown(c, {}) for c in glossary.CONCEPTS})
    texts["concepts"] = glossary.render_concept_list()
    texts.update({f"playbook {p}": render_explanation(load_playbook(p), "md") for p in shipped_playbook_names()})
    return texts


def _commands() -> list[tuple[str, str]]:
    found = set()
    for where, text in _texts().items():
        for match in _COMMAND.finditer(text):
            found.add((where, match.group(1).strip()))
    return sorted(found)


COMMANDS = _commands()


def _resolve(words: list[str]) -> tuple[click.Command, list[str], list[str]]:
    command, path = ROOT, []
    while words and hasattr(command, "list_commands") and not words[0].startswith("-"):
        sub = command.get_command(click.Context(command), words[0])
        assert sub is not None, f"no command {' '.join([*path, words[0]])!r}"
        command, path, words = sub, [*path, words[0]], words[1:]
    return command, path, words


def test_the_texts_name_commands() -> None:
    assert len(COMMANDS) > 20  # the scan reads what it should


@pytest.mark.parametrize(("where", "line"), COMMANDS, ids=[f"{w}: {c}" for w, c in COMMANDS])
def test_each_named_command_and_option_exists(where: str, line: str) -> None:
    command, path, rest = _resolve(line.split())
    options = {opt for param in command.params for opt in (*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ()))}
    if path == ["explain"] and rest and rest[0].startswith("--"):
        rest = rest[1:]  # `explain --speculative-num-steps`: a concept, not an option
    for word in rest:
        if word.startswith("--") or re.fullmatch(r"-[A-Za-z]", word):
            assert word.split("=")[0] in options, f"{where}: `spec-debug {line}`: {' '.join(path)} has no {word}"


TOPICS = sorted({(cmd.split()[0], " ".join(cmd.split()[1:]).strip("'\""))
                 for _, cmd in COMMANDS if cmd.split()[0] in ("explain", "findings") and len(cmd.split()) > 1
                 and not _PLACEHOLDER.search(cmd.split()[1].strip("'\""))})


@pytest.mark.parametrize(("command", "topic"), TOPICS)
def test_each_literal_topic_answers(command: str, topic: str) -> None:
    result = run_cli(command, topic)
    assert result.code == 0, result.stderr
