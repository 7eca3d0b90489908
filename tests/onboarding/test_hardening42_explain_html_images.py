"""`spec-debug explain PLAYBOOK -o walkthrough.html`: a Markdown image in a step's why or the
playbook's description (`![plot](http://host/x.png)`) became <img src="http://host/x.png">, so
the walkthrough, one file meant to be read offline and passed around, fetched from that server
each time it was opened (a playbook piped from a URL could track its readers). An image is now a
link to its address with its alt text as the words; nothing in the file loads from elsewhere."""

from __future__ import annotations

import os
import re
import subprocess
import sys

PLAYBOOK = """\
name: pictured
description: "Read the plot first: ![throughput plot](http://127.0.0.1:9/desc.png)"
steps:
  - id: look
    why: |
      The accept length is flat (![accept](http://127.0.0.1:9/why.png "title")), and
      ![](http://127.0.0.1:9/bare.png) has no alt text.
    run: echo hi
"""


def test_images_in_the_walkthrough_are_links_not_fetched(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "explain", "p.yaml", "-o", "w.html"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "w.html").read_text()
    # Nothing that a browser loads by itself on opening the file.
    assert not re.search(r"<img|<iframe|<link|<script[^>]*src|\bsrc=|url\(|@import", html, re.I), html
    assert '<a href="http://127.0.0.1:9/desc.png">throughput plot</a>' in html
    assert '<a href="http://127.0.0.1:9/why.png">accept</a>' in html
    assert '<a href="http://127.0.0.1:9/bare.png">http://127.0.0.1:9/bare.png</a>' in html


def test_the_markdown_walkthrough_keeps_the_image_as_written(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "explain", "p.yaml"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "![accept](http://127.0.0.1:9/why.png" in proc.stdout
