"""Valid playbooks, written the way on-call engineers write them, load and run.

Today's stricter validation refused some of them at load time, mid-incident:
- `\\(?<unk>\\)?` (an optional literal parenthesis before the text `<unk>`) was taken for a
  PCRE named group, and `\\[:digit:]` (the literal text) for a POSIX class;
- `{% for %}` with `loop.index` / `loop.last` in a command or a finding: "undefined variable 'loop'";
- `facts.items()`, `facts.get('x')` in a finding's text, next to a captured fact named `item` or
  `value`: "reads facts.items ... did you mean facts.item?".
And `docker inspect --format '{{json .Config}}'` was "undefined variable 'json' ... declare it
under vars:": it now gets the line to write, which runs as written.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def _validate_and_run(tmp_path: Path, text: str, exit_code: int = 0) -> dict:
    (tmp_path / "p.yaml").write_text(text)
    checked = _cli("playbooks", "validate", "p.yaml", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    ran = _cli("run", "p.yaml", "--host", "local", cwd=tmp_path)
    assert ran.returncode == exit_code, ran.stdout + ran.stderr
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    return {s["id"]: s for s in record["steps"]}


ESCAPED_PARENTHESIS_AND_BRACKET = r"""
name: unk_tokens
description: Does the server log print <unk> where the draft tokens should be?
steps:
  - id: log_line
    run: "echo 'decode (<unk>) len: 12 [:digit:] end'"
    capture:
      - regex: '\(?<unk>\)? len: (?P<accept_len>\d+)'
        type: int
    expect:
      - matches: '\(?<unk>\)?'
      - matches: '\[:digit:] end'
      - that: facts.accept_len == 12
"""


def test_an_escaped_parenthesis_or_bracket_before_a_name_is_text_and_the_playbook_runs(tmp_path):
    steps = _validate_and_run(tmp_path, ESCAPED_PARENTHESIS_AND_BRACKET)
    assert steps["log_line"]["status"] == "passed", steps["log_line"]
    assert steps["log_line"]["facts"]["accept_len"] == 12


@pytest.mark.parametrize("pattern, written", [
    (r"(?<n>\d+)", r"(?P<n>\d+)"),
    (r"\\(?<n>\d+)", r"\\(?P<n>\d+)"),  # an escaped backslash, then a real group
    (r"len: [[:digit:]]+", r"len: [0-9]+"),
])
def test_the_habits_from_other_engines_are_still_refused(tmp_path, pattern, written):
    path = tmp_path / "p.yaml"
    path.write_text(f"name: x\nsteps:\n  - id: a\n    run: echo\n    capture: [{{regex: '{pattern}'}}]\n")
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert f"write {written}" in caught.value.message, caught.value.message


LOOPS_AND_FACT_METHODS = r"""
name: loops
description: A for loop's loop variable, and the facts mapping's own methods
vars:
  gpus: ["0", "1"]
steps:
  - id: counts
    run: "echo 'steps=3 value=7 gen=5'"
    capture:
      - regex: 'steps=(?P<num_steps>\d+)'
        type: int
      - regex: 'value=(?P<value>\d+)'
        type: int
      - regex: 'gen=(?P<item>\d+)'
        type: int
  - id: per_gpu
    run: |
      {% for g in gpus %}echo gpu{{ g }}={{ loop.index }}{% if not loop.last %}; {% endif %}{% endfor %}
    expect:
      - contains: gpu1=2
      - that: facts.get('num_steps') == 3 and (facts.items() | list | length) == 3
      - that: "'nothing' in stdout"
        finding:
          code: SD900
          title: "{{ facts.get('num_steps') }} steps, {{ facts.keys() | list | length }} facts"
          evidence:
            - "{% for k, v in facts.items() %}{{ k }}={{ v }}{% if not loop.last %}, {% endif %}{% endfor %}"
"""


def test_loop_variables_and_dict_methods_of_facts_load_and_render(tmp_path):
    steps = _validate_and_run(tmp_path, LOOPS_AND_FACT_METHODS)
    per_gpu = steps["per_gpu"]
    assert per_gpu["status"] == "failed", per_gpu  # the third expectation fails on purpose
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    finding = next(f for f in record["findings"] if f["code"] == "SD900")
    assert finding["title"] == "3 steps, 3 facts", finding
    assert "num_steps=3, value=7, item=5" in finding["evidence"], finding


def test_a_misspelt_fact_in_a_finding_is_still_refused(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(LOOPS_AND_FACT_METHODS.replace("{{ facts.get('num_steps') }} steps", "{{ facts.num_step }} steps"))
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert "did you mean facts.num_steps?" in (caught.value.hint or ""), caught.value


GO_TEMPLATE = """\
name: container
description: Is the server container up?
vars:
  container: sglang
steps:
  - id: config
    run: echo --format '{{json .Config}}' {{ container }}
"""


def test_a_go_template_is_refused_with_the_line_to_write_and_that_line_runs(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(GO_TEMPLATE)
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert "Go template" in caught.value.message and "declare it under vars" not in (caught.value.hint or "")
    assert ":7:25:" in caught.value.message, caught.value.message  # the {{ of the Go template
    written = "echo --format '{% raw %}{{json .Config}}{% endraw %}' {{ container }}"
    assert caught.value.hint.endswith(f"write {written}"), caught.value.hint
    steps = _validate_and_run(tmp_path, GO_TEMPLATE.replace("echo --format '{{json .Config}}' {{ container }}",
                                                            f'"{written}"'))
    assert steps["config"]["stdout"].strip() == "--format {{json .Config}} sglang", steps["config"]


def test_a_go_template_that_does_not_parse_gets_the_line_to_write_too(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(GO_TEMPLATE.replace("{{json .Config}}", "{{range .items}}{{.metadata.name}}{{end}}"))
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert caught.value.hint.endswith(
        "write echo --format '{% raw %}{{range .items}}{{.metadata.name}}{{end}}{% endraw %}' {{ container }}"
    ), caught.value.hint


FIX_QUOTING_DOCKER = """\
name: health
description: Is the server container healthy?
steps:
  - id: health
    run: exit 1
    findings:
      - code: SD900
        remediation: "Check it with docker inspect --format '{{json .State.Health}}' sglang"
"""


def test_a_go_template_quoted_in_a_fix_gets_the_line_to_write_and_it_renders_as_written(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(FIX_QUOTING_DOCKER)
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert "Go template" in caught.value.message and "declare it under vars" not in caught.value.hint
    written = "Check it with docker inspect --format '{% raw %}{{json .State.Health}}{% endraw %}' sglang"
    assert caught.value.hint.endswith(f"write {written}"), caught.value.hint
    (tmp_path / "p.yaml").write_text(FIX_QUOTING_DOCKER.replace(
        "\"Check it with docker inspect --format '{{json .State.Health}}' sglang\"", f'"{written}"'))
    ran = _cli("run", "p.yaml", "--host", "local", cwd=tmp_path)
    record = json.loads(next((tmp_path / "runs").glob("*/run.json")).read_text())
    finding = next(f for f in record["findings"] if f["code"] == "SD900")
    assert finding["remediation"] == "Check it with docker inspect --format '{{json .State.Health}}' sglang", ran.stdout


MACRO = """\
name: ports
description: One curl per server port, written once as a macro
vars:
  ports: ["30000", "30001"]
steps:
  - id: health
    run: |
      {% macro probe(port) %}echo port {{ port }} $(( {{ port }} % 2 )){% endmacro %}
      {% for p in ports %}{{ probe(p) | raw }}
      {% endfor %}
"""


def test_a_macro_called_by_its_name_loads_and_runs(tmp_path):
    steps = _validate_and_run(tmp_path, MACRO)
    assert steps["health"]["stdout"].split("\n")[:2] == ["port 30000 0", "port 30001 1"], steps["health"]


CURLY_QUOTES_IN_WORDS = """\
name: prompt
description: Does the server answer a prompt with quotes in it?
steps:
  - id: prompt
    run: |
      # the prompt from the bug report, “as pasted”
      echo "Say “hi”" && echo '‘ok’'
"""


def test_curly_quotes_in_a_shell_comment_or_inside_quotes_load_and_run(tmp_path):
    steps = _validate_and_run(tmp_path, CURLY_QUOTES_IN_WORDS)
    assert steps["prompt"]["stdout"] == "Say “hi”\n‘ok’\n", steps["prompt"]


def test_a_curly_quote_the_shell_reads_as_a_letter_is_still_refused(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(CURLY_QUOTES_IN_WORDS.replace("echo \"Say “hi”\"", "echo “hi” # “ok”"))
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert "typographic quote" in caught.value.message and ":7:12:" in caught.value.message, caught.value.message


GO_TEMPLATE_IN_A_VAR = """\
name: container_state
description: The container's state, in the format docker prints it
vars:
  state_format: "{{json .State}}"
steps:
  - id: state
    run: echo --format {{ state_format }}
"""


def test_a_go_template_held_by_a_var_gets_the_value_to_write_and_it_reaches_the_command(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(GO_TEMPLATE_IN_A_VAR)
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert "declare it under vars" not in caught.value.hint, caught.value.hint
    assert caught.value.hint.endswith("write {% raw %}{{json .State}}{% endraw %}"), caught.value.hint
    steps = _validate_and_run(tmp_path, GO_TEMPLATE_IN_A_VAR.replace('"{{json .State}}"',
                                                                     '"{% raw %}{{json .State}}{% endraw %}"'))
    assert steps["state"]["stdout"] == "--format {{json .State}}\n", steps["state"]
