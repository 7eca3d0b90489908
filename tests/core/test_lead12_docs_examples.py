"""What the book tells a new user to type works as written.

A user copies from README.md and docs/*.md: a playbook, a step pasted under `steps:`, a
`spec-debug ...` line with its options, a finding code, a JSON field to pipe into jq. Each of
those is checked here against the real loader, the real CLI and real analyzer output, so a
renamed option or a step field that changed breaks this test instead of the reader's day.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
import typer.main
import yaml
from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.diagnose.catalog import CATALOG
from spec_debug.errors import SpecDebugError
from spec_debug.playbook.loader import load_playbook_text

REPO = Path(__file__).resolve().parents[2]
DOC_FILES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
TEMPLATE_NAMES = {"host", "facts", "vars", "stdout", "stderr", "exit_code", "steps", "loop", "range", "raw"}
SHELL_STOPS = {"|", "||", "&&", ";", ">", "2>", "<", "&"}


# --- playbooks and steps -------------------------------------------------------------------

def yaml_examples(text: str) -> list[tuple[int, str]]:
    """(line of the block's first line, body) of every ```yaml block."""
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in re.finditer(r"```ya?ml\n(.*?)```", text, re.S)]


def as_playbook(body: str) -> str:
    """The example as a reader would use it: a whole playbook as it is; a list of steps pasted
    under `steps:`; step fields (`expect:`, `findings:` ...) added to a step. A wrapped example
    gets an empty default for each var it names, as the playbook around it would declare."""
    body = textwrap.dedent(body)
    shape = yaml.safe_load(body)
    if isinstance(shape, dict) and "steps" in shape:
        return body
    if not isinstance(shape, list):
        body = "- id: example\n  run: 'true'\n" + textwrap.indent(body, "  ")
    names = sorted(set(re.findall(r"\{\{-?\s*([A-Za-z_]\w*)", body)) - TEMPLATE_NAMES)
    declared = "".join(f"  {name}: ''\n" for name in names)
    return "name: example\n" + (f"vars:\n{declared}" if declared else "") + "steps:\n" + textwrap.indent(body, "  ")


def broken_examples(doc_name: str, text: str) -> list[str]:
    problems = []
    for line, body in yaml_examples(text):
        try:
            load_playbook_text(as_playbook(body), f"{doc_name}:{line}")
        except (SpecDebugError, yaml.YAMLError) as exc:
            problems.append(f"{doc_name}:{line}: {exc}")
    return problems


@pytest.mark.parametrize("doc", DOC_FILES, ids=lambda p: p.name)
def test_every_yaml_example_in_the_docs_loads(doc):
    assert broken_examples(doc.name, doc.read_text()) == []


def test_the_docs_show_whole_playbooks():
    whole = [body for doc in DOC_FILES for _, body in yaml_examples(doc.read_text())
             if isinstance(yaml.safe_load(body), dict) and "steps" in yaml.safe_load(body)]
    assert len(whole) >= 2  # README's ten lines and docs/playbooks.md's gpu_smoke


# --- command lines --------------------------------------------------------------------------

def code_texts(text: str) -> list[tuple[int, str]]:
    """(line, code) of each shell line in a fenced block (continuations joined) and of each
    inline code span; Markdown's `\\|` in a table cell is a `|`."""
    found = []
    for m in re.finditer(r"```[a-z]*\n(.*?)```", text, re.S):
        start = text.count("\n", 0, m.start()) + 2
        for offset, line in enumerate(m.group(1).replace("\\\n", " ").splitlines()):
            found.append((start + offset, line))
    prose = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    for m in re.finditer(r"(?<!`)`([^`\n]+)`(?!`)", prose):
        found.append((prose.count("\n", 0, m.start()) + 1, m.group(1)))
    return [(line, code.replace("\\|", "|")) for line, code in found]


def command_lines(text: str) -> list[tuple[int, list[str]]]:
    """(line, words after `spec-debug`) of every spec-debug command the text shows, up to the
    end of that command (a pipe, a redirection, a comment)."""
    commands = []
    for line, code in code_texts(text):
        for m in re.finditer(r"(?:^|[\s(])spec-debug\s+(.*)", code):
            words = []
            for word in m.group(1).split():
                if word in SHELL_STOPS or word.startswith("#"):
                    break
                words.append(word.strip("[]()"))
            commands.append((line, words))
    # A command table's rows that go on with more options of the row above
    # (| `spec-debug run ...` |, then | `  --step`, `--junit FILE` |).
    last: list[str] = []
    for number, row in enumerate(text.splitlines(), 1):
        cell = re.match(r"\|\s*(`(?:[^|\\]|\\.)*)\|", row)
        if not cell:
            continue
        spans = [s.replace("\\|", "|") for s in re.findall(r"`([^`]+)`", cell.group(1))]
        if spans and spans[0].startswith("spec-debug "):
            last = [w for w in spans[0].split()[1:3] if not w.startswith("-") and not w.isupper()][:2]
        elif spans and spans[0].startswith("  -") and last:
            commands.append((number, last + [w.strip("[]()") for s in spans for w in s.split()]))
    return commands


def _options(command) -> set[str]:
    names = {"--help"}
    for param in command.params:
        names.update(param.opts + param.secondary_opts)
    return names


def unknown_commands(doc_name: str, text: str) -> list[str]:
    root = typer.main.get_command(app)
    problems = []
    for line, words in command_lines(text):
        where = f"{doc_name}:{line}: spec-debug {' '.join(words)}"
        commands = [root]
        rest = list(words)
        # The command, then a group's sub-command (`drafter eval|layout|vocab` names three).
        while rest and hasattr(commands[0], "commands") and not rest[0].startswith("-"):
            names = [n for n in rest.pop(0).split("|") if n not in ("", "...")]
            missing = [n for n in names if n not in commands[0].commands]
            if missing:
                problems.append(f"{where}: no command {missing[0]!r}")
                break
            commands = [commands[0].commands[n] for n in names]
        else:
            for word in rest:
                if not re.match(r"--?[A-Za-z]", word):
                    continue
                option = word.split("=", 1)[0]
                for command in commands:
                    if option not in _options(command):
                        problems.append(f"{where}: {command.name or 'spec-debug'} has no option {option}")
    return problems


@pytest.mark.parametrize("doc", DOC_FILES, ids=lambda p: p.name)
def test_every_spec_debug_command_and_option_in_the_docs_exists(doc):
    assert unknown_commands(doc.name, doc.read_text()) == []


def test_the_docs_name_every_command():
    named = {words[0] for doc in DOC_FILES for _, words in command_lines(doc.read_text()) if words}
    commands = set(typer.main.get_command(app).commands) - {"version"}
    assert commands <= named, f"not shown in any doc: {sorted(commands - named)}"


def test_every_option_and_argument_says_what_it_is_in_help():
    """The README's command table sends the reader to `--help`; an option listed there with no
    words (`explain -o`, `schema -o` had none) leaves them guessing."""
    import click

    bare = []

    def walk(command, path):
        for param in command.params:
            if param.name in ("help", "install_completion", "show_completion"):
                continue
            if not getattr(param, "help", None):
                bare.append(f"{path} {param.opts[0] if isinstance(param, click.Option) else param.name}")
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path} {name}")

    walk(typer.main.get_command(app), "spec-debug")
    assert bare == []


# --- finding codes --------------------------------------------------------------------------

def own_codes(text: str) -> set[str]:
    """Codes a doc's playbook example defines itself (a finding template with its own title)."""
    codes = set()
    for _, body in yaml_examples(text):
        codes.update(re.findall(r"code: (SD\d{3})\n\s+severity: \w+\n\s+title:", body))
    return codes


@pytest.mark.parametrize("doc", DOC_FILES, ids=lambda p: p.name)
def test_every_finding_code_in_the_docs_is_in_the_catalog(doc):
    text = doc.read_text()
    unknown = set(re.findall(r"\bSD\d{3}\b", text)) - set(CATALOG) - own_codes(text)
    assert not unknown, f"{doc.name} names codes `spec-debug findings` does not know: {sorted(unknown)}"


def test_the_catalog_titles_in_findings_md_are_the_tools():
    table = (REPO / "docs" / "findings.md").read_text()
    for code, doc in CATALOG.items():
        assert f"| {doc.severity} | {doc.area} | {doc.title} |" in table, code


# --- the analyzer's JSON contract -----------------------------------------------------------

INCIDENT_LOG = """\
[msg 1] user: EAGLE-3 serving is slower than baseline on gpu01: 54.8 tok/s vs 90 tok/s baseline
[msg 2] assistant: Let me look at the launch flags.
$ ssh gpu01 'ps -eo args | grep [l]aunch_server'
python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE3 --speculative-num-steps 1
$ ssh gpu01 'python /tmp/test.py'
Traceback (most recent call last):
  File "/tmp/test.py", line 3, in <module>
KeyError: 'd2t'
[msg 3] assistant: I suspect it was trained on cat([embed, layer3, layer31]), served cat([layer3, layer31, layer59]).
That test is broken; instead I'll read the reference implementation source.
$ ssh gpu01 'cat /site/speculators/models/eagle3/core.py'
def forward(): pass
[msg 4] assistant: Waiting for the server.
$ curl -sf http://gpu01:30000/health
Traceback (most recent call last):
  File "<string>", line 1, in <module>
ConnectionRefusedError: [Errno 111] Connection refused
[msg 5] assistant: Waiting for the server.
$ curl -sf http://gpu01:30000/health
Traceback (most recent call last):
  File "<string>", line 1, in <module>
ConnectionRefusedError: [Errno 111] Connection refused
[msg 6] assistant: Waiting for the server.
$ curl -sf http://gpu01:30000/health
Traceback (most recent call last):
  File "<string>", line 1, in <module>
ConnectionRefusedError: [Errno 111] Connection refused
[msg 7] assistant: Confirmed: the layers were the problem; after the fix it serves 120 tok/s.
"""


def contract_fields(doc_text: str) -> dict[str, set[str]]:
    """The JSON paragraph of docs/analyze.md as {top-level field: its fields} (`name[]` and
    `name` followed by a parenthesised list of `fields`)."""
    paragraph = re.search(r"\*\*JSON\*\* \(a contract.*?\n\n", doc_text, re.S).group(0)
    paragraph = re.sub(r"^.*?: ", "", paragraph, count=1, flags=re.S)
    fields: dict[str, set[str]] = {}
    for m in re.finditer(r"`(\w+)(?:\[\])?`(?:\s*\(([^()]*)\))?", paragraph):
        fields[m.group(1)] = set(re.findall(r"`(\w+)`", m.group(2) or ""))
    return fields


def test_the_analyze_json_contract_in_the_docs_is_the_output(tmp_path):
    log = tmp_path / "incident.log"
    log.write_text(INCIDENT_LOG)
    result = CliRunner().invoke(app, ["analyze", str(log), "--json", "-o", str(tmp_path / "a.json")])
    assert result.exit_code == 0, result.output
    output = json.loads((tmp_path / "a.json").read_text())
    contract = contract_fields((REPO / "docs" / "analyze.md").read_text())
    assert {"commands", "errors", "metrics", "pivots", "findings", "segments"} <= set(contract)
    for name, fields in contract.items():
        assert name in output, f"docs/analyze.md names `{name}`; the output has {sorted(output)}"
        value = output[name]
        if not fields:
            continue
        assert value, f"{name} is empty in this test's output: the example log must produce one"
        record = value[0] if isinstance(value, list) else value
        assert fields <= set(record), f"{name}: documented {sorted(fields - set(record))} not in {sorted(record)}"
        # and the other way: a field the output gained is in the contract a reader pipes into jq
        assert set(record) <= fields, f"{name}: {sorted(set(record) - fields)} not in docs/analyze.md"
    assert set(output) <= set(contract), f"not in docs/analyze.md: {sorted(set(output) - set(contract))}"


# --- the checks catch what they are for -----------------------------------------------------

def test_a_broken_doc_example_is_caught():
    doc = (
        "```yaml\nname: x\nsteps:\n  - id: a\n    run: echo\n    expect: [{exit_codes: 0}]\n```\n"
        "```yaml\n- id: b\n  run: cat {{ path }}\n  captur: [{regex: 'x'}]\n```\n"
        "```yaml\n  expect:\n    - that: facts.x >\n```\n"
        "```bash\nspec-debug run p.yaml --hostname gpu01\nspec-debug analyse s.jsonl\n```\n"
        "Then `spec-debug drafter eval --modle ./d` and `spec-debug playbooks check p.yaml`.\n\n"
        "| command | what |\n|---|---|\n| `spec-debug run PLAYBOOK --host H` | run |\n"
        "| `  --inventory FILE\\|DIR`, `--retry-fail RUN_DIR` | more |\n"
    )
    assert len(broken_examples("bad.md", doc)) == 3
    problems = unknown_commands("bad.md", doc)
    assert any("no option --hostname" in p for p in problems)
    assert any("no command 'analyse'" in p for p in problems)
    assert any("eval has no option --modle" in p for p in problems)
    assert any("no command 'check'" in p for p in problems)
    assert [p for p in problems if "run has no option" in p][-1].endswith("--retry-fail")
    assert unknown_commands("ok.md", "`spec-debug run p.yaml --host local -e x=1 --json | jq .`\n"
                                     "`ssh h cat s.jsonl | spec-debug analyze - -o pm.md`") == []
