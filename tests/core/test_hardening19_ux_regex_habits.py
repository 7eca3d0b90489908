"""Regexes copied from grep, sed and JavaScript into a playbook.

`matches: 'accept len: [[:digit:].]+'` (grep's POSIX class) loaded, printed a raw Python
FutureWarning, and never matched SGLang's "accept len: 1.93" line: the check failed with
"no match" on a healthy server. `(?<accept_len>...)` (PCRE/JavaScript named group) and
`(?P<accept-len>...)` were refused with re's "unknown extension ?<a" / "bad character in group
name" and no way forward. Each now names the habit and gives the pattern to write, which loads
and matches the line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

# A decode-batch line as SGLang 0.4/0.5 logs it with speculative decoding on.
LOG_LINE = ("[2025-06-10 10:01:02 TP0] Decode batch. #running-req: 8, #token: 20480, token usage: 0.12, "
            "accept len: 1.93, gen throughput (token/s): 54.80, #queue-req: 0")


def _playbook(check: str) -> str:
    command = f"echo '{LOG_LINE}'"
    quoted = "'" + command.replace("'", "''") + "'"  # a YAML single-quoted scalar
    return f"name: accept\nsteps:\n  - id: log\n    run: {quoted}\n    {check}\n"


@pytest.mark.parametrize("check, fixed, probe", [
    ("expect: [{matches: 'accept len: [[:digit:].]+'}]", "accept len: [0-9.]+", None),
    ("capture: [{regex: 'accept len: (?<accept_len>[[:digit:].]+)', type: float}]", None, None),
    ("capture: [{regex: 'accept len: (?<accept_len>[0-9.]+)', type: float}]", "accept len: (?P<accept_len>[0-9.]+)", "accept_len"),
    ("capture: [{regex: 'accept len: (?P<accept-len>[0-9.]+)', type: float}]", "accept len: (?P<accept_len>[0-9.]+)", "accept_len"),
])
def test_a_foreign_regex_is_refused_with_the_python_pattern(check, fixed, probe):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no raw FutureWarning on the author's terminal
        with pytest.raises(PlaybookError) as caught:
            load_playbook_text(_playbook(check), "accept.yaml")
    message = caught.value.message
    assert caught.value.line == 5, message
    written = message.split(": write ", 1)[1].split(" (at steps", 1)[0]
    if fixed is not None:
        assert written == fixed
    match = re.search(written, LOG_LINE)
    assert match is not None and "1.93" in match.group(0)
    if probe:
        assert match.group(probe) == "1.93"


def test_the_fixed_pattern_passes_on_the_real_log_line(tmp_path):
    (tmp_path / "accept.yaml").write_text(_playbook("expect: [{matches: 'accept len: [0-9.]+'}]"))
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "accept.yaml", "--host", "local", "--out", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_lookbehinds_still_load():
    load_playbook_text(_playbook("expect: [{matches: '(?<=accept len: )[0-9.]+'}, {matches: '(?<!#)token'}]"), "accept.yaml")
