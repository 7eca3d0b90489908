"""`when: facts.draft_vocab == null` (JSON's and YAML's word, Go's nil, JavaScript's undefined) is
refused at load, rightly: Jinja has no such name. The hint said to quote it, `== 'null'`, which
loads and compares with the text "null": the check was then false on every host. The hint now
gives the test Jinja writes, and that playbook loads and runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook

PLAYBOOK = """\
name: draft_vocab
description: Does the draft config name its vocabulary size?
steps:
  - id: config
    run: "echo 'hidden_size=4096'"
    capture:
      - regex: 'draft_vocab_size=(?P<draft_vocab>\\d+)'
        default: null
  - id: no_vocab
    when: {when}
    run: echo the draft config has no draft_vocab_size
"""


@pytest.mark.parametrize("written, to_write", [
    ("facts.draft_vocab == null", "facts.draft_vocab is none"),
    ("facts.draft_vocab == nil", "facts.draft_vocab is none"),
    ("facts.draft_vocab != undefined", "facts.draft_vocab is defined"),
])
def test_a_missing_value_written_as_another_language_writes_it_gets_the_jinja_test(tmp_path, written, to_write):
    path = tmp_path / "p.yaml"
    path.write_text(PLAYBOOK.format(when=written))
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert caught.value.hint.endswith(f"write {to_write}"), caught.value.hint
    assert "quote it" not in caught.value.hint


def test_the_written_test_loads_and_runs(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(when="facts.draft_vocab is none"))
    ran = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local"], capture_output=True,
                         text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert ran.returncode == 0, ran.stdout + ran.stderr
    record = json.loads(next(Path(tmp_path, "runs").glob("*/run.json")).read_text())
    assert [s["status"] for s in record["steps"]] == ["passed", "passed"], record["steps"]


def test_a_word_compared_with_is_still_to_be_quoted(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(PLAYBOOK.format(when="facts.draft_vocab == sglang"))
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert caught.value.hint.endswith("quote it: facts.draft_vocab == 'sglang'"), caught.value.hint


GREP_BRACES = """\
name: repeated_tokens
description: Does the draft emit the same token twice in a row?
steps:
  - id: repeats
    run: "echo 'tok{{2}' | grep -E 'k\\\\{{2}' || true"
"""


def test_a_brace_meant_for_the_command_gets_the_line_that_passes_it_and_that_line_runs(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(GREP_BRACES.replace("'tok{{2}'", "tok"))
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    hint = caught.value.hint or ""
    assert "write {{ 2 }}" not in hint, hint  # that would change the command
    written = "echo tok | grep -E 'k\\{{ '{{' }}2}' || true"
    assert f"as text: {written} (or wrap" in hint, hint
    (tmp_path / "p.yaml").write_text(GREP_BRACES.replace(
        "\"echo 'tok{{2}' | grep -E 'k\\\\{{2}' || true\"", "echo '{% raw %}tok{{2}{% endraw %}' | grep -E 'k\\{{ '{{' }}2}'"))
    ran = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local"], capture_output=True,
                         text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert ran.returncode == 0, ran.stdout + ran.stderr
    record = json.loads(next(Path(tmp_path, "runs").glob("*/run.json")).read_text())
    assert record["steps"][0]["stdout"] == "tok{{2}\n", record["steps"][0]


def test_an_expression_left_open_still_gets_its_closing_braces(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("name: x\nvars:\n  server_log: /var/log/sglang.log\nsteps:\n  - id: a\n    run: tail {{ server_log }\n")
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert caught.value.hint.endswith("this '{{' is not closed: write {{ server_log }}"), caught.value.hint
