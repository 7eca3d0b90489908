"""`distill -o current.yaml`, current.yaml a symbolic link to playbooks/kimi_v3.yaml (the playbook
its author edits), renamed a new file over the link: the link was gone and kimi_v3.yaml kept the
old playbook, where the shell's `>` writes through a link. Every -o now replaces the file the link
leads to, all at once, and keeps the link; a link to nothing is replaced as before."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import run_cli

SESSION = Path(__file__).parents[1] / "data" / "transcripts_hardening19" / "session-2026-10-02T08-00-5d2c1e6a.jsonl"


def _linked_playbook(tmp_path: Path) -> tuple[Path, Path]:
    target = tmp_path / "playbooks" / "kimi_v3.yaml"
    target.parent.mkdir()
    target.write_text("# my edits\n")
    target.chmod(0o640)
    link = tmp_path / "current.yaml"
    link.symlink_to(Path("playbooks") / "kimi_v3.yaml")
    return link, target


def test_distill_writes_through_a_link_and_keeps_it(tmp_path: Path) -> None:
    link, target = _linked_playbook(tmp_path)
    result = run_cli("distill", str(SESSION), "-o", str(link))
    assert result.code == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == os.path.join("playbooks", "kimi_v3.yaml")
    assert target.read_text().startswith("# Distilled by `spec-debug distill`")
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)
    assert sorted(p.name for p in target.parent.iterdir()) == ["kimi_v3.yaml"]  # no temp file left


def test_schema_writes_through_a_link(tmp_path: Path) -> None:
    link, target = _linked_playbook(tmp_path)
    assert run_cli("schema", "-o", str(link)).code == 0
    assert link.is_symlink()
    assert target.read_text() != "# my edits\n"


def test_a_link_to_nothing_is_replaced_by_the_file(tmp_path: Path) -> None:
    link = tmp_path / "current.yaml"
    link.symlink_to(tmp_path / "gone" / "kimi.yaml")
    result = run_cli("distill", str(SESSION), "-o", str(link))
    assert result.code == 0, result.stderr
    assert not link.is_symlink() and link.read_text().startswith("# Distilled by `spec-debug distill`")


def test_distill_that_cannot_write_keeps_the_edited_playbook_whole(tmp_path: Path) -> None:
    """A write that fails half-way (a full disk; here `ulimit -f`, SIGXFSZ ignored so the write
    fails with EFBIG) must leave the playbook its author edited as it was, and no temp file."""
    import resource
    import signal
    import subprocess
    import sys

    link, target = _linked_playbook(tmp_path)
    edited = "# my edits\n" + "# kept\n" * 20
    target.write_text(edited)

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))  # the playbook is over 1 KB

    proc = subprocess.run([sys.executable, "-m", "spec_debug", "distill", str(SESSION), "-o", str(link)],
                          capture_output=True, text=True, timeout=120, preexec_fn=small_files,
                          env={**os.environ, "COLUMNS": "400"})
    assert proc.returncode == 3, proc.stderr
    assert f"cannot write {target}: File too large (the previous version is kept)" in proc.stderr
    assert target.read_text() == edited and link.is_symlink()
    assert sorted(p.name for p in target.parent.iterdir()) == ["kimi_v3.yaml"]
