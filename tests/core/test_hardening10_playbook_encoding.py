"""A playbook saved as UTF-16 by Windows runs as the UTF-8 one does.

Windows PowerShell 5 writes UTF-16LE with a byte order mark from `>` and Out-File (the default
of `spec-debug distill ... > playbook.yaml` there, or of an editor's "Unicode" encoding). YAML
allows UTF-16 and UTF-32 streams that start with a mark (YAML 1.2, 5.2 Character Encodings); the
loader refused them as "not UTF-8" with a hint to convert from latin1, which mangles the file.
"""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """\
name: windows_saved
description: Pr\u00fcft den Server
vars:
  model: "Llama-3.1-8B \u2013 EAGLE3"
steps:
  - id: show
    run: echo {{ model }}
    expect:
      - contains: "\u2013 EAGLE3"
"""


def test_a_utf16_playbook_with_its_byte_order_mark_runs(tmp_path):
    path = tmp_path / "playbook.yaml"
    path.write_bytes(PLAYBOOK.replace("\n", "\r\n").encode("utf-16"))  # BOM + UTF-16LE, CRLF as Windows writes
    result = run_cli("run", str(path), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["playbook"]["name"] == "windows_saved"
    assert record["steps"][0]["stdout"] == "Llama-3.1-8B \u2013 EAGLE3\n"


def test_a_file_that_only_starts_like_utf16_names_the_encoding(tmp_path):
    path = tmp_path / "playbook.yaml"
    path.write_bytes(b"\xff\xfe" + PLAYBOOK.encode("utf-16-le")[:-1])  # an odd byte count: cut short
    result = run_cli("playbooks", "validate", str(path))
    assert result.code == 2 and "Traceback" not in result.stderr
    assert "UTF-16" in result.stderr and "latin1" not in result.stderr, result.stderr
