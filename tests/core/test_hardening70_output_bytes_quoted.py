"""A byte of command output that is no UTF-8 is shown as `\\xe9` in run.json (the step's stdout,
its facts). A check that quoted it said `matched 'caf\\udce9.log'` (repr() of its surrogate) for
the kept output and `matched 'caf\ufffd.log'` for the part cut from the record (searched as it
passed, decoded with U+FFFD), a capture from that cut part held U+FFFD, and a failed `that:`
said `facts.log = 'caf\\udce9.log'`: three forms of one byte, none of them run.json's."""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = r"""
name: latin-quoted
steps:
  - id: list
    run: printf 'caf\351.log\n'
    capture:
      - regex: '^(?P<log>\S+)$'
  - id: kept
    run: printf 'reading caf\351.log\n'
    expect:
      - matches: 'caf.\.log'
      - that: "facts.log == 'other'"
  - id: cut
    run: python3 -c "import sys; o=sys.stdout.buffer; o.write(b'x'*3000+b'\n'+b'name=caf\xe9.bin\n'+b'y'*3000+b'\n')"
    capture:
      - regex: '^name=(?P<bin>\S+)$'
    expect:
      - matches: 'caf.\.bin'
"""


def test_a_quoted_byte_reads_as_run_json_shows_it(tmp_path):
    playbook = tmp_path / "latin.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--capture-limit", "1024")
    assert result.code == 1, result.stderr
    _, record = only_run(tmp_path / "runs")
    _, kept, cut = record["steps"]
    assert [e["observed"] for e in kept["expectations"]] == [
        "matched 'caf\\xe9.log'", "False (facts.log = 'caf\\xe9.log')"]
    assert "caf" not in cut["stdout"]  # the line is in the part cut from the record
    assert cut["facts"] == {"bin": "caf\\xe9.bin"}
    assert [e["observed"] for e in cut["expectations"]] == [
        "matched 'caf\\xe9.bin' (in the part of the output cut from the record)"]
    assert "\ufffd" not in str(record) and "udce9" not in str(record)


def test_shown_repr_leaves_text_that_only_looks_like_an_escape():
    from spec_debug.runner.output import shown_repr

    assert shown_repr("caf\udce9") == "'caf\\xe9'"
    assert shown_repr(["a\udcff", {"k": "\udc80"}]) == "['a\\xff', {'k': '\\x80'}]"
    assert shown_repr("a\\udce9") == "'a\\\\udce9'"  # a backslash the host printed, then udce9
    assert shown_repr("a\\\udce9") == "'a\\\\\\xe9'"  # a backslash, then the byte
    assert shown_repr("caf\u00e9 \ud800") == "'caf\u00e9 \\ud800'"  # not a byte's surrogate


CAPTURE = r"""
name: latin-int
steps:
  - id: count
    run: printf 'count=12\351\n'
    capture:
      - regex: 'count=(?P<n>\S+)'
        type: int
"""


def test_a_capture_that_cannot_read_the_value_quotes_the_byte_as_run_json_does(tmp_path):
    playbook = tmp_path / "capint.yaml"
    playbook.write_text(CAPTURE)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert result.code == 0, result.stderr  # SD003 is a warning
    _, record = only_run(tmp_path / "runs")
    [step] = record["steps"]
    assert step["stdout"] == "count=12\\xe9\n"
    assert step["message"].startswith("capture failed: n (type: int): cannot read '12\\xe9' as an int (")
    [finding] = record["findings"]
    assert finding["evidence"] == [step["message"]]
    assert "udce9" not in str(record)
