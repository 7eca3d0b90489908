"""A failed `that:` quotes the values it read, each cut at 200 characters (attempt.VALUE_LIMIT)
before the run masks the message (Run._clean). A fact holding a `--var db_password=...` value
(no pattern knows it) across the cut left its first part ("y ZebraCac…") on the step's line,
in the finding, run.json and both reports (12 places in a real `--host local` run). The cut
now moves to the value's start (redact.cut_outside_secret with the run's values); with
--no-redact it stays at 200, as nothing is masked there.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

SECRET = "ZebraCactusMoonlight77"
PART = SECRET[:6]
PLAYBOOK = """\
name: p
vars:
  db_password: ''
steps:
  - id: a
    run: python3 -c "print('detail=' + 'y' * 190 + ' {{ db_password }} end')"
    capture:
      - regex: 'detail=(?P<detail>.*)'
    expect:
      - that: facts.detail == "ok"
"""


def _run(tmp_path, *extra: str):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var", f"db_password={SECRET}", *extra)
    run_dir, record = only_run(out)
    return result, run_dir, record


def test_a_quoted_value_cut_inside_the_secret_keeps_none_of_it(tmp_path):
    result, run_dir, record = _run(tmp_path)
    assert result.code == 1, result.stderr
    quoted = repr("y" * 190 + f" {SECRET} end")  # 219 characters: the value starts at 192
    assert f"(facts.detail = {quoted[:192]}… ({len(quoted) - 192} characters more))" in record["steps"][0]["message"]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(),
                 (run_dir / "report.html").read_text(), result.stderr):
        assert PART not in text


def test_with_no_redact_the_cut_stays_at_the_limit(tmp_path):
    result, _, record = _run(tmp_path, "--no-redact")
    assert result.code == 1, result.stderr
    quoted = repr("y" * 190 + f" {SECRET} end")
    assert f"(facts.detail = {quoted[:200]}… ({len(quoted) - 200} characters more))" in record["steps"][0]["message"]
