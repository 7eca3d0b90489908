"""GitHub Actions' `${{ expr }}` written where a spec-debug template wants `{{ expr }}`.

In a workflow, `run: nvidia-smi -i ${{ matrix.gpu }}` is one expression (docs.github.com,
actions/learn-github-actions/expressions). Here Jinja fills `{{ gpu }}` and leaves the `$` in
front of the value, so the shell gets `$0` (its own name: "/bin/bash"), `$30000` (`$3` then
"0000") or `$model` (an unset variable: nothing), and the step runs on a wrong argument without
a word. A `$` right before a `{{ }}` is never what a command means: `${{` is no shell syntax
(bash: "bad substitution"), and a `$` meant for the value's own shell expansion is written
`{{ x }}` with the `$` inside the var. Text in `{% raw %}` (a workflow written by a heredoc)
stays text and is not reported.
"""

from __future__ import annotations

import re

from jinja2 import nodes

from spec_debug.playbook.templating import TEXT_ENV

_SNIPPET = re.compile(r"\$\{\{-?\s*(?P<expr>.*?)\s*-?\}\}", re.DOTALL)


def dollar_before_template(text: str) -> str | None:
    """The first `${{ expr }}` of a template whose `$` stays in front of the filled value, else None.
    The template must parse (the loader reports syntax errors first)."""
    if "${{" not in text:
        return None
    parsed = TEXT_ENV.parse(text)
    for output in parsed.find_all(nodes.Output):
        for before, after in zip(output.nodes, output.nodes[1:]):
            if isinstance(before, nodes.TemplateData) and before.data.endswith("$") and not _literal(after):
                # The expression as written (the parse above says one exists): the text of the
                # first `${{ ... }}` outside raw blocks.
                for match in _SNIPPET.finditer(_without_raw(text)):
                    return match.group(0)
                return "${{ ... }}"
    return None


def _literal(node: nodes.Node) -> bool:
    """Text, or a constant written as an expression: `{{ '{{' | raw }}` is how distill quotes a
    `{{` it cannot put in a raw block (session/distill.py, _as_template)."""
    while isinstance(node, nodes.Filter):
        node = node.node
    return isinstance(node, (nodes.TemplateData, nodes.Const))


def _without_raw(text: str) -> str:
    return re.sub(r"\{%-?\s*raw\s*-?%\}.*?\{%-?\s*endraw\s*-?%\}", "", text, flags=re.DOTALL)


def expression_of(snippet: str) -> str:
    match = _SNIPPET.fullmatch(snippet)
    return match.group("expr") if match else snippet
