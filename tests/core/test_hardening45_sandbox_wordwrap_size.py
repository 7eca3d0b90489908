"""`| wordwrap` and `| urlize` build no more than they read, so the size bounds (a `*` of up to
10,000,000 characters) let them through, but they read slowly: textwrap cuts a long word again and
again (8,000,000 characters took 39 s) and urlize looks at every word (8 MB took 12 s), the run
held meanwhile. A text of more than 1,000,000 characters is refused: the step errors naming the
bound, the run goes on, and a text of ordinary size wraps as before."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: wraps
steps:
  - id: wrap_big
    run: "echo {{ ('word ' * 1600000) | wordwrap | length }}"
  - id: urlize_big
    run: "echo {{ ('word ' * 1600000) | urlize | length }}"
  - id: small
    run: "echo {{ 'aaa bbb ccc' | wordwrap(5) | replace('\\\\n', '/') }} {{ 'see http://x.example' | urlize | length }}"
"""


def test_wordwrap_of_a_huge_text_errors_and_the_run_goes_on(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=120)
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    for step, name in (("wrap_big", "wordwrap"), ("urlize_big", "urlize")):
        assert steps[step]["status"] == "error"
        assert steps[step]["message"] == (
            f"step '{step}', run: template failed: SecurityError: '| {name}' of 8,000,000 characters; "
            "at most 1,000,000 (cut the text first, e.g. | truncate or a slice)")
    assert steps["small"]["status"] == "passed"
    assert steps["small"]["stdout"] == "aaa/bbb/ccc 66\n"
