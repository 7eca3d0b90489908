"""`spec-debug findings SD101 --markdown sd101.md` wrote the whole catalog to sd101.md, the code
never read: `findings SD999 --markdown x.md` said "wrote x.md" too. With a code, --markdown now
writes that code's entry (the Markdown `findings SD101 > file` gives), and an unknown code or a
list of codes is refused as `findings` refuses them, with no file written. Without a code it is
the whole catalog, as docs/findings.md is made."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli


def test_a_codes_markdown_is_its_entry(tmp_path: Path) -> None:
    result = run_cli("findings", "sd101", "--markdown", "sd101.md", cwd=tmp_path)
    assert (result.code, result.stderr) == (0, "wrote sd101.md\n")
    written = (tmp_path / "sd101.md").read_text(encoding="utf-8")
    assert written.startswith("## SD101: Speculation capped at one drafted token per round\n")
    assert written == run_cli("findings", "SD101", cwd=tmp_path).stdout
    assert run_cli("findings", "SD101", "--markdown", "-", cwd=tmp_path).stdout == written


def test_an_unknown_code_writes_nothing(tmp_path: Path) -> None:
    result = run_cli("findings", "SD999", "--markdown", "x.md", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines()[0] == "error: unknown finding code 'SD999'"
    several = run_cli("findings", "SD101", "SD201", "--markdown", "x.md", cwd=tmp_path)
    assert several.code == 2
    assert several.stderr.splitlines()[0] == "error: 'SD101 SD201' is 2 finding codes; `spec-debug findings` takes one at a time"
    assert not (tmp_path / "x.md").exists()


def test_without_a_code_it_is_the_whole_catalog(tmp_path: Path) -> None:
    result = run_cli("findings", "--markdown", "all.md", cwd=tmp_path)
    assert result.code == 0
    assert (tmp_path / "all.md").read_text(encoding="utf-8").startswith("# Finding codes\n")
