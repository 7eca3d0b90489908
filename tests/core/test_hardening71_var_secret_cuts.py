"""A text cut before it is masked keeps no part of a secret known only by its value.

`--var db_password=ZebraCactusMoonlight77`: the value matches no pattern of redact.py; the run
masks it because of its var's name (secret_values, then Run._clean). A finding's title (cut at
300), each output line of its evidence (cut at 300) and a refused capture's quote (cut at 80)
are cut *before* they are masked: a cut inside the value left its first part ("x ZebraCact"),
which is no longer the value, so run.json, report.md and report.html held it. Recorded with a
real `--host local` run. The cut now moves to the value's start, as for a pattern's secret
(redact.cut_outside_secret with the run's values: redact.known_secret_values).
"""

from __future__ import annotations

from spec_debug.redact import cut_outside_secret, known_secret_values
from tests.conftest import only_run, run_cli

SECRET = "ZebraCactusMoonlight77"
PART = SECRET[:8]


def _run(tmp_path, steps: str, *extra: str):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(f"name: p\nvars:\n  db_password: ''\nsteps:\n{steps}")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var", f"db_password={SECRET}", *extra)
    run_dir, record = only_run(out)
    texts = [(run_dir / name).read_text() for name in ("run.json", "report.md", "report.html")]
    return result, record, texts


def test_an_output_line_cut_inside_the_value_keeps_none_of_it(tmp_path):
    # The value starts at character 291 of the line: the evidence's cut at 300 fell inside it.
    result, record, texts = _run(tmp_path, """\
  - id: a
    run: python3 -c "print('x' * 290 + ' {{ db_password }} tail'); raise SystemExit(1)"
""")
    assert result.code == 1, result.stderr
    (finding,) = record["findings"]
    assert finding["evidence"] == ["exit code 1", "x" * 290 + " "]  # cut before the value
    assert record["steps"][0]["stdout"] == "x" * 290 + " ***REDACTED*** tail\n"
    for text in (*texts, result.stderr):
        assert PART not in text


def test_a_title_cut_inside_the_value_keeps_none_of_it(tmp_path):
    result, record, texts = _run(tmp_path, """\
  - id: a
    run: python3 -c "print('detail=' + 'y' * 280 + ' {{ db_password }} end')"
    capture:
      - regex: 'detail=(?P<detail>.*)'
    expect:
      - that: facts.detail == "ok"
        finding:
          code: SD201
          title: "db said: {{ facts.detail }}"
""")
    assert result.code == 1, result.stderr
    (finding,) = record["findings"]
    title = f"db said: {'y' * 280} "
    more = len(f"db said: {'y' * 280} {SECRET} end") - len(title)
    assert finding["title"] == f"{title}… ({more} characters more: the whole title is its first evidence)"
    assert finding["evidence"][0] == f"title: {title}***REDACTED*** end"
    for text in (*texts, result.stderr):
        assert PART not in text


def test_a_refused_capture_quote_cut_inside_the_value_keeps_none_of_it(tmp_path):
    result, record, texts = _run(tmp_path, """\
  - id: a
    run: python3 -c "print('n=' + 'z' * 70 + '{{ db_password }}')"
    capture:
      - regex: 'n=(?P<n>.*)'
        type: int
""")
    assert result.code == 0, result.stderr  # SD003 is a warning
    said = " ".join(f["evidence"][0] for f in record["findings"] if f["code"] == "SD003")
    assert f"cannot read '{'z' * 70}'... ({70 + len(SECRET)} characters)" in said, said
    for text in (*texts, result.stderr):
        assert PART not in text


def test_where_the_cut_falls_with_known_values():
    text = "a" * 10 + SECRET + "b" * 10
    assert cut_outside_secret(text, 15) == 15  # no value known here: at the limit, as before
    with known_secret_values((SECRET,)):
        assert cut_outside_secret(text, 15) == 10  # inside the value: before it
        assert cut_outside_secret(text, 10) == 10  # at its start
        assert cut_outside_secret(text, 10 + len(SECRET)) == 10 + len(SECRET)  # at its end
        assert cut_outside_secret(text, 35) == 35  # after it
        assert cut_outside_secret(text, 500) == len(text)
        # two occurrences back to back, the cut inside the second: before the second only
        twice = SECRET + SECRET
        assert cut_outside_secret(twice, len(SECRET) + 3) == len(SECRET)
    assert cut_outside_secret(text, 15) == 15  # the block over: no value known
