"""`spec-debug playbooks show FILE` on a file that is not text (a checkpoint, a tarball given
by mistake) said one clear thing, not a UnicodeDecodeError traceback; text still prints as is."""

from __future__ import annotations

from tests.conftest import run_cli


def test_binary_file_is_refused_with_one_message(tmp_path):
    blob = tmp_path / "model.safetensors"
    blob.write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00{\"__metadata__\xd9\xff\x00\x01")
    result = run_cli("playbooks", "show", str(blob))
    assert result.code == 2
    assert "Traceback" not in result.stderr
    assert "not a text file" in result.stderr and "not UTF-8" in result.stderr
    assert result.stdout == ""


def test_text_playbook_prints_byte_for_byte(tmp_path):
    text = "name: mine\n# café, a comment kept as written\nsteps:\n  - id: a\n    run: echo a\n"
    path = tmp_path / "mine.yaml"
    path.write_text(text, encoding="utf-8")
    result = run_cli("playbooks", "show", str(path), env={"PYTHONIOENCODING": "utf-8"})
    assert result.code == 0, result.stderr
    assert result.stdout == text
