"""A regex that backtracks for ever on one line of output is refused when the playbook loads.

`matches: "(a+)+$"` against a server log line of forty "a"s and a "b" tries 2**40 ways to split
it: the step's thread never came back and the whole fleet run hung, with nothing to say why
(Python's re cannot be interrupted from another thread). Now the playbook is refused with the
regex's line:column before anything runs; the usual safe forms still load and capture.
"""

from __future__ import annotations

import pytest

from tests.conftest import only_run, run_cli
from tests.core.test_hardening8_playbook_shapes import validate

LONG_LINE = "a" * 40 + "b"


def test_a_run_with_a_backtracking_regex_is_refused_instead_of_hanging(tmp_path, write_playbook):
    playbook = write_playbook(f"""\
name: hang
steps:
  - id: server_log
    run: echo {LONG_LINE}
    expect:
      - matches: "(a+)+$"
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), timeout=30)
    assert result.code == 2
    message = " ".join(result.stderr.split())
    assert "playbook.yaml:6:9: invalid regex: a repetition inside a repetition, like (a+)+, can backtrack for ever" in message
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


@pytest.mark.parametrize("pattern", [
    r"(?P<n>(\w+\s?)*)$",        # words and optional spaces: the classic log-line blow-up
    r"(?P<n>(.*,)+)x",            # .* can eat the comma that ends each round
    r"(?P<n>(\d+\.\d+)+)",        # rounds can trade digits at both ends
    r"(?P<n>(a{1,100}){1,100})",  # bounded, but large enough to blow up the same way
    r"(?i)(?P<n>(a+A)+)",         # A is a under IGNORECASE
    r"(?i:(?P<n>(a+A)+))",        # ...and in a group that turns it on
])
def test_capture_regexes_that_repeat_a_repetition_are_refused(write_playbook, pattern):
    playbook = write_playbook(f"name: x\nsteps:\n  - id: a\n    run: echo\n    capture:\n      - regex: '{pattern}'\n")
    code, message = validate(playbook)
    assert code == 2
    assert "playbook.yaml:6:9: invalid regex: a repetition inside a repetition" in message


def test_safe_repeated_groups_still_load_and_capture(tmp_path, write_playbook):
    # Each round ends at a character its inner repetition cannot match, or never gives back.
    playbook = write_playbook("""\
name: safe
steps:
  - id: versions
    run: "echo 'sglang 0.4.6.post1 cuda 12.4.1 flags a,b,c, words one two '"
    capture:
      - regex: 'sglang (?P<sglang>(?:\\d+\\.)+\\w+)'
      - regex: 'flags (?P<flags>(?:[^,\\s]*,)*)'
      - regex: 'words (?P<words>(?:\\w+\\s)+)'
      - regex: 'cuda (?P<cuda>(?:\\d++\\.?)+)'
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), timeout=60)
    assert result.code == 0, result.stderr
    _, record = only_run(tmp_path / "runs")
    facts = record["steps"][0]["facts"]
    assert facts["sglang"] == "0.4.6.post1"
    assert facts["flags"] == "a,b,c,"
    assert facts["words"] == "one two "
    assert facts["cuda"] == "12.4.1"
