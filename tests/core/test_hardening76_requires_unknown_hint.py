"""A `requires:` entry that names no declared var was always told "add 'NAME: \\"\\"' under vars:".
For a misspelt var (`requires: [draft_modle]`) that declared a second, always empty var and the
step was skipped on every host; for the var written as a template reads it
(`requires: ["{{ draft_model }}"]`, `requires: [vars.draft_model]`) it asked for a var named
with braces or a dot, which YAML allows and no template can read. Now the hint names the var
meant: "did you mean draft_model?", or `requires: [draft_model]` as declared; a fact
(`requires: [facts.x]`) is pointed to `when:`. A name like no var keeps the old hint.
`spec-debug playbooks validate` and `run` read the same loader."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook


def _refused(tmp_path: Path, required: str) -> PlaybookError:
    playbook = tmp_path / "p.yaml"
    playbook.write_text('name: q\nvars:\n  draft_model: ""\n  x: ""\nsteps:\n  - id: s\n'
                        f"    requires: [{required}]\n    run: echo \"{{{{ draft_model }}}}\"\n")
    with pytest.raises(PlaybookError) as caught:
        load_playbook(playbook)
    return caught.value


@pytest.mark.parametrize(("required", "hint"), [
    ("draft_modle", 'did you mean draft_model? (requires: [draft_model]); a new var is declared under vars: '
                    '(draft_modle: "")'),
    ('"{{ draft_model }}"', "requires names vars as they are declared, not as a template reads them: "
                            "requires: [draft_model]"),
    ("vars.draft_model", "requires names vars as they are declared, not as a template reads them: "
                         "requires: [draft_model]"),
    ("facts.accept_len", "requires names the playbook's vars; a step that needs a fact says so in when: "
                         "facts.accept_len is defined"),
    ("server_log", "add 'server_log: \"\"' under vars:"),  # like no var: as before
])
def test_the_hint_names_the_var_meant(tmp_path: Path, required: str, hint: str) -> None:
    refused = _refused(tmp_path, required)
    written = required.strip('"')
    assert refused.message == (f"{tmp_path / 'p.yaml'}:7:15: step 's' requires var {written!r}, which the "
                               "playbook does not declare (at steps[0].requires)")
    assert refused.hint == hint
