"""A bidi override or isolate in what a step ran, printed or was titled, in report.md and
report.html. A terminal shows none of them; a browser or a Markdown viewer reorders the text
after one, so the report showed a different command than ran ("Trojan Source",
CVE-2021-42574). They are now marked <U+XXXX> as step-through and explain mark them; LRM and
RLM in right-to-left log text are left as they are. Through the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser

# printf's octal escapes write U+202E (RLO) into the output; the command and the title hold one.
PLAYBOOK = '''name: bidi
steps:
  - id: a
    title: "check \\u202etxt.hsab"
    run: "printf 'out \\\\342\\\\200\\\\256 rev\\\\n'; echo \\u2067 isolate; printf '\\\\342\\\\200\\\\217rtl\\\\n'"
'''


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data) -> None:
        self.parts.append(data)


def test_bidi_controls_are_marked_in_both_reports(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    parser = _Text()
    parser.feed((run_dir / "report.html").read_text())
    html_text = "".join(parser.parts)
    markdown = (run_dir / "report.md").read_text()
    for shown in (html_text, markdown):
        assert "\u202e" not in shown and "\u2067" not in shown
        assert "out <U+202E> rev" in shown                      # the output
        assert "echo <U+2067> isolate" in shown                 # the command
        assert "\u200frtl" in shown                             # an RLM in RTL text stays
    # the title (in a Markdown table cell its < is escaped, as for any <tag>-like text)
    assert "check <U+202E>txt.hsab" in html_text and "check \\<U+202E>txt.hsab" in markdown
