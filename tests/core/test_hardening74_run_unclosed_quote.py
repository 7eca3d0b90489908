"""A `run:` command whose quote never closes is refused at load, where the quote is written.

`run: echo "abc` (or a `python3 -c '...` missing its last quote in a block) validated ok; on
every host bash read to the end of the script looking for the closing quote and failed before
running anything: each step said only "exit code 2" (SD001), the quote nowhere in sight.
`playbooks validate` and `run` now say which step, the file's line:column of the quote, and the
shell's own words; scripts whose quotes only look open to a simple reading (a heredoc body's
apostrophe, `$'...'`, quotes nested in `"$(...)"`, a comment's "don't") still validate and run,
since the controller's shell (`bash -n`, no command run) must agree before anything is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli


def _write(tmp_path: Path, steps: str) -> Path:
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: quotes\nsteps:\n" + steps, encoding="utf-8")
    return playbook


@pytest.mark.parametrize(("steps", "where", "quote", "hint"), [
    ('  - id: a\n    run: echo "abc\n', "4:15", '"', 'close the quote; a " meant as text is written \\"'),
    ("  - id: load\n    run: |\n      echo start\n      python3 -c 'import torch; print(torch.cuda.is_available())\n"
     "      echo done\n", "6:18", "'", "close the quote; a ' meant as text inside '...' is written '\\''"),
    ('  - id: cfg\n    run: cat "{{ model }}/config.json\n', "6:14", '"', 'close the quote; a " meant as text is written \\"'),
])
def test_an_unclosed_quote_is_refused_where_it_is_written(tmp_path: Path, steps: str, where: str, quote: str, hint: str) -> None:
    playbook = _write(tmp_path, steps)
    if "model" in steps:
        playbook.write_text(playbook.read_text().replace("steps:", "vars:\n  model: /models/llama\nsteps:"))
    step = steps.split("id: ", 1)[1].split("\n", 1)[0]
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    assert validated.stderr.splitlines()[:2] == [
        f"error: {playbook}:{where}: the command of step {step!r} opens a quote {quote} that never closes: the shell "
        f"reads on to the end of the script and fails before running anything (unexpected EOF while looking for "
        f"matching `{quote}') (at steps[0].run)",
        f"  hint: {hint}",
    ]
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert ran.code == 2 and not (tmp_path / "runs").exists()  # was: exit code 2 on every host


LEGITIMATE = """\
  - id: heredoc
    run: |
      python3 - <<'EOF'
      print("the draft model's head")
      EOF
  - id: ansi_c
    run: |
      echo $'it\\'s' "$(echo "nested quotes")"  # don't worry
  - id: awk
    run: echo 'a b' | awk '{print $2}'
"""


def test_quotes_that_only_look_open_still_validate_and_run(tmp_path: Path) -> None:
    playbook = _write(tmp_path, LEGITIMATE)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    steps = json.loads(result.stdout)["steps"]
    assert [(s["id"], s["status"], s["stdout"]) for s in steps] == [
        ("heredoc", "passed", "the draft model's head\n"),
        ("ansi_c", "passed", "it's nested quotes\n"),
        ("awk", "passed", "b\n"),
    ]
