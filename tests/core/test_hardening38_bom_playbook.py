"""A playbook saved "UTF-8 with BOM" (Notepad, VS Code's encoding menu) that has a mistake further
down is told that mistake, where it is.

The byte order mark opens the stream and is no character of line 1 (YAML 1.2.2, 5.2). The loader
kept it in the text, and its check for characters pasted from a web page took it for a
zero-width space "in the indentation" of line 1: every syntax error of such a file, a tab on
line 3 or a ': ' in a command on line 4, was reported as 1:1 "indent with plain spaces".
"""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

BOM = b"\xef\xbb\xbf"


@pytest.mark.parametrize("body, where, said", [
    # the tab an editor set in the indentation of the steps
    ("name: t\nsteps:\n\t- id: a\n\t  run: echo hi\n", ":3:1:", "replace the tab here with spaces"),
    # a command holding ': ', which YAML reads as a new key
    ("name: t\nsteps:\n  - id: a\n    run: echo: hi: ho\n", ":4:14:", "write 'run: |'"),
])
@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
def test_a_mistake_in_a_bom_playbook_is_said_where_it_is(tmp_path, body, where, said, line_end):
    path = tmp_path / "playbook.yaml"
    path.write_bytes(BOM + body.replace("\n", line_end).encode())
    result = run_cli("playbooks", "validate", str(path))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    error = " ".join(result.stderr.split())
    assert f"playbook.yaml{where}" in error and said in error, error
    assert "U+FEFF" not in error and "pasted" not in error, error


def test_a_bom_playbook_with_crlf_and_merge_keys_runs(tmp_path):
    text = ("name: windows_saved\nsteps:\n  - id: first\n    <<: &defaults {timeout: 30, retries: 1}\n"
            "    run: echo one\n  - id: second\n    <<: *defaults\n    run: echo two\n")
    path = tmp_path / "playbook.yaml"
    path.write_bytes(BOM + text.replace("\n", "\r\n").encode())
    result = run_cli("run", str(path), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    assert "one" in result.stdout and "two" in result.stdout
