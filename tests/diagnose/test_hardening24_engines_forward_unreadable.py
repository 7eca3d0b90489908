"""forward_source: an engine source the probe cannot read is one clear reason (round 24).

Before, only a SyntaxError was caught: a file of another user's (PermissionError), a folder on
the way that cannot be entered (is_file raises EACCES instead of saying no), or a file in
another encoding failed the whole probe and lost the reference side too."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from spec_debug.probes import forward_source

ENGINE = ("import torch\n\nclass LlamaModel:\n    def forward(self, embeds, hidden_states):\n"
          "        hidden_states = torch.cat([embeds, hidden_states], dim=-1)\n"
          "        return self.fc(hidden_states)\n")


def test_a_source_declared_latin1_is_read_as_python_reads_it(tmp_path):
    # PEP 263: Python decodes the file by its coding line, whatever the host's locale
    path = tmp_path / "llama_eagle3.py"
    path.write_bytes(b"# -*- coding: latin-1 -*-\n# patched by J\xf6rg\n" + ENGINE.encode())
    described = forward_source.describe("sglang", [path])
    assert described["found"] is True and described["cat_orders"] == [["embeds", "hidden_states"]]


def test_a_source_that_is_not_utf8_is_a_reason_not_a_probe_failure(tmp_path):
    path = tmp_path / "llama_eagle3.py"
    path.write_bytes(b"# patched by J\xf6rg\n" + ENGINE.encode())
    described = forward_source.describe("sglang", [path])
    assert described["found"] is False
    assert str(path) in described["reason"] and "cannot be read" in described["reason"]


def test_an_unreadable_engine_file_keeps_the_reference_side(tmp_path, monkeypatch):
    path = tmp_path / "llama_eagle3.py"
    path.write_text(ENGINE)
    real = Path.read_bytes

    def denied(self):
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", denied)
    result = forward_source.run({"engine": "sglang", "engine_files": [str(path)]})
    assert result["reference"]["found"] is True
    assert result["engine"]["found"] is False
    assert result["engine"]["reason"].startswith(f"{path}: cannot be read (Permission denied)")


@pytest.mark.skipif(os.geteuid() == 0, reason="root enters any folder")
def test_a_folder_that_cannot_be_entered_is_a_reason(tmp_path):
    folder = tmp_path / "private"
    folder.mkdir()
    (folder / "llama_eagle3.py").write_text(ENGINE)
    folder.chmod(0o600)
    try:
        described = forward_source.describe("sglang", [folder / "llama_eagle3.py"])
    finally:
        folder.chmod(0o755)
    assert described["found"] is False and "cannot be read" in described["reason"]


def test_a_stat_that_is_refused_is_a_reason(tmp_path, monkeypatch):
    path = tmp_path / "llama_eagle3.py"
    path.write_text(ENGINE)

    def refused(self, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "is_file", refused)
    described = forward_source.describe("sglang", [path])
    assert described == {"package": "sglang", "version": None, "found": False,
                         "reason": described["reason"]}
    assert described["reason"].startswith(f"{path}: cannot be read (Permission denied)")
