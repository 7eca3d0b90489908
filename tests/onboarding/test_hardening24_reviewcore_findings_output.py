"""`spec-debug findings` into a file or a pipe (the real CLI).

`findings SD101 > notes.txt` rendered the entry for an 80-column terminal: the Sources URLs were
cut in two across lines, and the unknown-code hint's `spec-debug findings` command was folded on
stderr. Not a terminal, the entry is its Markdown (as `explain` writes it) and the error lines are
not folded, as cli_common.print_error's are not. The catalog is one write: its second write, after
`| head -1` had read its line and left, was a broken pipe (exit 1, every other command 0)."""

from __future__ import annotations

import io
import os
import subprocess
import sys

from rich.console import Console

from spec_debug.diagnose.findings_cli import findings_command


def _cli(*args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}  # the 80 columns of a file or pipe
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=120, env=env)


def test_an_entry_written_to_a_file_keeps_each_source_url_on_one_line(tmp_path):
    with open(tmp_path / "notes.txt", "w") as notes:
        assert _cli("findings", "SD101", stdout=notes).returncode == 0
    text = (tmp_path / "notes.txt").read_text()
    assert text.startswith("## SD101: ")
    assert "- <https://github.com/sgl-project/sglang/blob/main/docs/advanced_features/speculative_decoding.md>" in text


def test_the_unknown_code_hint_is_one_line():
    proc = _cli("findings", "SD1010")
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[1] == ("  hint: known codes include SD101, SD102, SD103, SD104; "
                                           "`spec-debug findings` lists them all")


class _Writes(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def write(self, text: str) -> int:
        self.calls += 1
        return super().write(text)


def test_the_catalog_is_one_write():
    out = _Writes()
    assert findings_command(None, False, Console(file=out, width=100)) == 0
    assert out.calls == 1 and "explains one code" in out.getvalue()


def test_the_catalog_into_head_exits_0():
    producer = subprocess.Popen([sys.executable, "-m", "spec_debug", "findings"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    head = subprocess.run(["head", "-1"], stdin=producer.stdout, capture_output=True, timeout=120)
    assert producer.stdout is not None
    producer.stdout.close()
    assert producer.wait(timeout=120) == 0 and head.stdout.strip()
