"""A var file written by Windows PowerShell 5 (`echo "model: /models/x" > vars.yaml`, or
Out-File): UTF-16LE with a byte order mark. The playbook beside it, written the same way, loads
(YAML streams may be UTF-16: loader.text_encoding), but the var file was refused as "not UTF-8
text". It now loads the same way; a file with the mark and broken text is still one line."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = "name: p\nvars:\n  model: m\nsteps:\n  - id: a\n    run: echo {{ model }}\n"


def test_a_utf16_var_file_from_powershell_sets_the_vars(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    (tmp_path / "vars.yaml").write_text("model: /models/Llama-3 — 70B\r\n", encoding="utf-16")  # BOM, LE here
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"),
                     "--var-file", str(tmp_path / "vars.yaml"), "--json")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][0]["stdout"] == "/models/Llama-3 — 70B\n"


def test_a_utf16_var_file_with_a_var_the_playbook_lacks_is_named_at_its_line(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    (tmp_path / "vars.yaml").write_text("model: x\nmodle: y\n", encoding="utf-16")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"),
                     "--var-file", str(tmp_path / "vars.yaml"))
    assert result.code == 2
    assert f"{tmp_path / 'vars.yaml'}:2:1: modle is not a var of playbook 'p'" in result.stderr, result.stderr


def test_a_byte_order_mark_over_broken_text_is_one_line(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    (tmp_path / "vars.yaml").write_bytes(b"\xff\xfem\x00\x00\xd8")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"),
                     "--var-file", str(tmp_path / "vars.yaml"))
    assert result.code == 2 and "Traceback" not in result.stderr
    assert "starts with a UTF-16 byte order mark but is not UTF-16 text" in result.stderr, result.stderr
