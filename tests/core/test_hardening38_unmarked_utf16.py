"""A playbook in UTF-16 or UTF-32 without a byte order mark loads, as YAML says it does.

`Get-Content p.yaml | Set-Content -Encoding Unicode`, .NET's `new UnicodeEncoding(false, false)`
and `iconv -t UTF-16LE` write UTF-16 with no mark. YAML tells the encoding of such a stream by
the NUL bytes around its first character, which is ASCII (YAML 1.2.2, 5.2 Character Encodings);
the loader knew only the marks, and said "character U+0000 is not allowed in YAML" at 1:2 with
the hint "remove it".
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: unmarked
vars:
  model: ""
steps:
  - id: show
    run: echo "Pr\u00fcfung {{ model }}"
"""


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_an_unmarked_utf16_or_utf32_playbook_and_var_file_run(tmp_path, codec):
    playbook = tmp_path / "playbook.yaml"
    playbook.write_bytes(PLAYBOOK.replace("\n", "\r\n").encode(codec))
    var_file = tmp_path / "vars.yaml"
    var_file.write_bytes("model: Llama \u2013 EAGLE3\n".encode(codec))
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"),
                     "--var-file", str(var_file), "--json")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][0]["stdout"] == "Pr\u00fcfung Llama \u2013 EAGLE3\n"


def test_a_mistake_in_an_unmarked_utf16_playbook_has_its_place(tmp_path):
    playbook = tmp_path / "playbook.yaml"
    playbook.write_bytes("name: t\nsteps:\n  - id: a\n\t  run: echo\n".encode("utf-16-le"))
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    assert "playbook.yaml:4:1:" in result.stderr and "tab" in result.stderr, result.stderr


def test_a_binary_file_with_a_nul_second_byte_is_still_not_utf8(tmp_path):
    # A safetensors header starts with its length as 8 little-endian bytes: `x 00 00 00 ...`.
    playbook = tmp_path / "model.safetensors"
    playbook.write_bytes(b"\x80\x00\x00\x00\x00\x00\x00\x00" + b'{"w": {"dtype": "F16"}}' + b"\xff" * 16)
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    assert "not UTF-8 text" in result.stderr, result.stderr
