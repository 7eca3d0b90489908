"""`explain --format html`: a description's paragraphs and a why's list items keep their shape,
as the Markdown walkthrough keeps them (before, each was put in one <p>, run together)."""

from __future__ import annotations

from html.parser import HTMLParser

from tests.conftest import run_cli

PLAYBOOK = """\
name: layered
description: |
  Finds why speculation is slower than the baseline.

  Run it on the serving host; it never restarts the server <port> stays up.
steps:
  - id: launch
    title: launch flags
    why: |
      The launch line decides the speculation depth.
      Checks:
      - the `--speculative-num-steps` value
      - the draft token budget

      A second paragraph with <model> in it.
    run: ps -eo args
"""


class _Blocks(HTMLParser):
    """Each <p> and <li>'s text, in order, with the tag it sits in."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks: list[tuple[str, str]] = []
        self._open: list[str] = []
        self.codes: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag in ("p", "li"):
            self.blocks.append((tag, ""))
        self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        while self._open and self._open.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        if self._open and self._open[-1] == "code":
            self.codes.append(data)
        if self.blocks and any(t in ("p", "li") for t in self._open):
            tag, text = self.blocks[-1]
            self.blocks[-1] = (tag, text + data)


def test_html_walkthrough_keeps_paragraphs_and_list_items(tmp_path):
    playbook = tmp_path / "layered.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("explain", str(playbook), "--format", "html")
    assert result.code == 0, result.stderr
    page = _Blocks()
    page.feed(result.stdout)
    texts = [(tag, " ".join(text.split())) for tag, text in page.blocks]
    assert ("p", "Finds why speculation is slower than the baseline.") in texts, texts
    assert ("p", "Run it on the serving host; it never restarts the server <port> stays up.") in texts, texts
    assert ("p", "Why it matters. The launch line decides the speculation depth. Checks:") in texts, texts
    assert ("li", "the --speculative-num-steps value") in texts, texts
    assert ("li", "the draft token budget") in texts, texts
    assert ("p", "A second paragraph with <model> in it.") in texts, texts
    assert "--speculative-num-steps" in page.codes
    assert "<model>" not in result.stdout and "&lt;model&gt;" in result.stdout  # escaped, not a tag
