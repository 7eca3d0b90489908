"""A regex written in double quotes (`matches: "accept len: \\d+\\.\\d+"`) gets the fix, not
"check indentation".

Inside double quotes YAML reads a backslash as an escape (YAML 1.2.2, 5.7) and has no \\d,
\\s or \\., so the playbook failed with "found unknown escape character 'd'" and the generic
hint "check indentation and quoting around this position". Regexes are what `matches:` and
`capture: regex:` hold, so this is the usual first playbook of anyone used to JSON strings.
The hint is the author's line in single quotes; applied, the playbook runs and the regex
matches as the author meant.
"""

from __future__ import annotations

import json
import re

from tests.conftest import run_cli

# A line of SGLang's scheduler log (python/sglang/srt/managers/scheduler.py, "Decode batch").
LOG_LINE = "Decode batch. #running-req: 1, #token: 1045, token usage: 0.00, accept len: 2.35, gen throughput (token/s): 145.67"

PLAYBOOK = f"""\
name: accept_length
steps:
  - id: decode_log
    run: |
      echo '{LOG_LINE}'
    expect:
      - matches: "accept len: \\d+\\.\\d+"
"""


def test_a_double_quoted_regex_gets_its_single_quoted_form_and_then_runs(write_playbook, tmp_path):
    result = run_cli("playbooks", "validate", str(write_playbook(PLAYBOOK)))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    said = " ".join(result.stderr.split())
    assert ":7:" in said and "indentation" not in said, said
    fixed = re.search(r"as written: (- matches: '.*')$", said)
    assert fixed, said
    assert fixed.group(1) == r"- matches: 'accept len: \d+\.\d+'"
    repaired = write_playbook(PLAYBOOK.replace(r'- matches: "accept len: \d+\.\d+"', fixed.group(1)), "fixed.yaml")
    ran = run_cli("run", str(repaired), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert ran.code == 0, ran.stderr
    step = json.loads(ran.stdout)["steps"][0]
    assert step["status"] == "passed" and step["expectations"][0]["observed"] == "matched 'accept len: 2.35'"


def test_a_windows_path_with_a_quote_in_it(write_playbook):
    text = "name: p\nvars:\n  report_dir: \"C:\\Users\\o'brien\\runs\"\nsteps:\n  - id: a\n    run: echo\n"
    result = run_cli("playbooks", "validate", str(write_playbook(text)))
    assert result.code == 2, result.stderr
    assert "report_dir: 'C:\\Users\\o''brien\\runs'" in " ".join(result.stderr.split()), result.stderr
