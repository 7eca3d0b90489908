"""`spec-debug explain host_smoke` said "It runs this command on the host (`{{ var }}` is filled in
at run time):" above `df -Pk . | tail -1` and the nvidia-smi query, commands with no placeholder
at all: a newcomer looked for the `{{ var }}` it spoke of. The note now stands only above a
command Jinja fills in (a `{{ }}` or a `{% %}` block outside `{% raw %}`); the raw text sent as
written keeps its own note."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """\
name: notes
steps:
  - id: plain
    run: df -Pk . | tail -1
  - id: filled
    run: "df -Pk {{ path }}"
  - id: raw_only
    run: "docker inspect --format {% raw %}'{{.State.Status}}'{% endraw %} srv"
  - id: both
    run: "docker inspect --format {% raw %}'{{.State.Status}}'{% endraw %} {{ name }}"
  - id: block
    run: "{% if path %}ls{% endif %}"
vars:
  path: .
  name: srv
"""

FILLED = "(`{{ var }}` is filled in at run time"
RAW = "`'{{.State.Status}}'` is sent as written, for the host's own tool"


def _what_it_does(text: str) -> list[str]:
    return [line for line in text.splitlines() if "What it does" in line]


def test_the_note_only_where_something_is_filled_in(tmp_path: Path) -> None:
    (tmp_path / "notes.yaml").write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("explain", "notes.yaml", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert _what_it_does(result.stdout) == [
        "**What it does.** It runs this command on the host:",
        f"**What it does.** It runs this command on the host {FILLED}):",
        f"**What it does.** It runs this command on the host ({RAW}):",
        f"**What it does.** It runs this command on the host {FILLED}; {RAW}):",
        f"**What it does.** It runs this command on the host {FILLED}):",
    ]


def test_the_html_walkthrough_says_the_same(tmp_path: Path) -> None:
    (tmp_path / "notes.yaml").write_text(PLAYBOOK, encoding="utf-8")
    html = run_cli("explain", "notes.yaml", "--format", "html", cwd=tmp_path).stdout
    lines = _what_it_does(html)
    assert len(lines) == 5
    assert lines[0].endswith("It runs this command on the host:</p>")
    assert "filled in at run time" in lines[1] and "sent as written" not in lines[1]
    assert "filled in at run time" not in lines[2] and "sent as written" in lines[2]
    assert "filled in at run time" in lines[3] and "sent as written" in lines[3]


def test_the_shipped_host_smoke_commands_have_none() -> None:
    text = run_cli("explain", "host_smoke").stdout
    assert "filled in at run time" not in text
    assert "nvidia-smi --query-gpu" in text


def test_has_placeholder() -> None:
    from spec_debug.explain import has_placeholder

    assert not has_placeholder("df -Pk . | tail -1")
    assert not has_placeholder("echo '{not jinja}' {% raw %}{{ x }}{% endraw %}")
    assert has_placeholder("echo {{ x }}")
    assert has_placeholder("{% if x %}a{% endif %}")
    assert has_placeholder("echo {{ x")  # not a template the loader takes: as it was said before
