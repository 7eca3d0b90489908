"""explain reads a var's note from the playbook as the loader reads the playbook: a UTF-16 file
(PowerShell's `>`, iconv -t UTF-16LE) or a UTF-8 one with a byte order mark loaded, and its
vars table then showed no notes, read back as UTF-8."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: noted
vars:
  server_cmdline: ""  # the server's command line; else found among the host's processes
steps:
  - id: show
    run: echo {{ server_cmdline }}
"""


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-8-sig"])
def test_var_notes_of_a_utf16_or_marked_playbook(tmp_path, codec):
    playbook = tmp_path / "noted.yaml"
    playbook.write_bytes(PLAYBOOK.encode(codec))
    result = run_cli("explain", str(playbook))
    assert result.code == 0, result.stderr
    row = next(line for line in result.stdout.splitlines() if line.startswith("| `server_cmdline`"))
    assert row.endswith("| the server's command line; else found among the host's processes |"), row
