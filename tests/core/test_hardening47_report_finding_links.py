"""Each finding in report.html links to its step's row in the Steps table and to the step's raw
output in the appendix. Before, a finding only named its step in plain text: in a
fleet report of thousands of steps and a 10,000-line output the reader had to search for the
step and its output by hand. A step that printed nothing has no appendix entry and so no raw
output link. report.md keeps no inline HTML (an anchor would need one), so it names the step
as before. Through the real CLI, real local steps."""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser

PLAYBOOK = r'''name: links
steps:
  - id: quiet
    run: "true"
  - id: loud
    run: "seq 1 10000; exit 3"
    expect:
      - exit_code: 0
  - id: silent_fail
    run: "exit 4"
    expect:
      - exit_code: 0
'''


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.hrefs.append(attrs["href"])


def _run(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 1, proc.stderr
    (run_dir,) = (tmp_path / "runs").iterdir()
    return run_dir


def test_findings_link_to_their_step_and_raw_output(tmp_path):
    run_dir = _run(tmp_path)
    parser = _Anchors()
    parser.feed((run_dir / "report.html").read_text())
    # steps in record order: quiet (1), loud (2), silent_fail (3)
    assert {"step-1", "step-2", "step-3", "output-2"} <= parser.ids
    assert "#step-2" in parser.hrefs and "#output-2" in parser.hrefs    # loud: row and output
    assert "#step-3" in parser.hrefs and "#output-3" not in parser.hrefs  # silent: row only
    assert all(href[1:] in parser.ids for href in parser.hrefs if href.startswith("#"))

