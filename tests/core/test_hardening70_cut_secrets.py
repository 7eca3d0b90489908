"""A text cut before it is masked keeps no part of a secret.

A finding's title is cut at 300 characters (TITLE_LIMIT) and each output line of its evidence
at 300, then the whole finding is masked (Run._clean_findings). A line the hub answered with
(`... rejected: hf_AbCd...`) whose token straddled character 300 kept its first 16 characters
after hf_, which redact.py's Hugging Face pattern (20 or more, as gitleaks') no longer knows
for a token: run.json and both reports held them, where the step's stdout showed
***REDACTED***. A cut that would fall inside a secret is now made at its
start (redact.cut_outside_secret); any other stays where it was. Through the real CLI with a template finding's title, and the unit.
"""

from __future__ import annotations

from spec_debug.redact import cut_outside_secret
from tests.conftest import only_run, run_cli

TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"


def test_no_part_of_a_token_is_left_by_the_cut(tmp_path):
    # The token begins at character 281 of the output line and 282 of the title: both cut at 300.
    line = f"status=401 detail={'y' * 252} rejected: {TOKEN} end"
    assert line.index(TOKEN) < 300 < line.index(TOKEN) + len(TOKEN)
    playbook = tmp_path / "p.yaml"
    playbook.write_text(f"""\
name: p
steps:
  - id: whoami
    run: |
      echo '{line}'
    capture:
      - regex: 'detail=(?P<detail>.*)'
    expect:
      - that: facts.detail == "ok"
        finding:
          code: SD201
          title: "hub said: {{{{ facts.detail }}}}"
""")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 1, result.stderr
    (finding,) = record["findings"]
    assert finding["title"].endswith(" rejected: … (43 characters more: the whole title is its first evidence)"), finding["title"]
    assert finding["evidence"][0].endswith("rejected: ***REDACTED*** end")  # the whole title, masked
    assert finding["evidence"][-1] == line[:line.index(TOKEN)]  # the output's last line, cut before the token
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(),
                 (run_dir / "report.html").read_text(), result.stderr):
        assert "hf_AbCd" not in text


def test_where_the_cut_falls():
    assert cut_outside_secret("short", 300) == 5
    assert cut_outside_secret("a" * 3000, 80) == 80  # no secret: at the limit, as before
    said = f"rejected by the hub: {TOKEN} (check HF_HOME)"
    assert cut_outside_secret(said, 30) == said.index(TOKEN)  # inside a token: before it
    assert cut_outside_secret(said, said.index(TOKEN)) == said.index(TOKEN)
    assert cut_outside_secret(said, said.index(" (check")) == said.index(" (check")  # after it: at the limit
    flag = "--api-key sk-local-abcdefghijklmnopqrstuvwxyz --port 30000"
    assert cut_outside_secret(flag, 20) == len("--api-key ")  # a flag's value, too
