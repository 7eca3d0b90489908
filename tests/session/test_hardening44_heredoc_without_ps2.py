"""A terminal log whose here-document lines show no PS2 (a shell with ``PS2=''``, or a log copied
into a note without the ``> ``): bash reads the body to its delimiter before it runs anything
(bash(1), Here Documents), yet the command was cut at its first line and the body read as the
log's own lines: the script's launch line a launch that ran (no host), its ``# comment`` a
heading, a README's ``$ pip install`` a command."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path


def _commands(tmp_path: Path, lines: list[str]) -> list[tuple[int, str, str | None]]:
    path = tmp_path / "session.log"
    path.write_text("\n".join(lines) + "\n")
    return [(c.line, c.command, c.host) for c in analyze_path(path).commands]


_LAUNCH = "python -m sglang.launch_server --model m --speculative-algorithm EAGLE3"


def test_an_unprefixed_heredoc_body_is_the_commands(tmp_path: Path) -> None:
    assert _commands(tmp_path, [
        "root@gpu01:~# cat > run.sh <<'EOF'", "# start the server", _LAUNCH, "EOF",
        "root@gpu01:~# bash run.sh", "RuntimeError: CUDA error: out of memory",
    ]) == [(1, f"cat > run.sh <<'EOF'\n# start the server\n{_LAUNCH}\nEOF", "gpu01"), (5, "bash run.sh", "gpu01")]


def test_a_readme_written_at_a_dollar_prompt_keeps_its_examples(tmp_path: Path) -> None:
    assert _commands(tmp_path, [
        "$ cat > README.md <<EOF", "Install:", "$ pip install sglang", "EOF", "$ ls", "README.md",
    ]) == [(1, "cat > README.md <<EOF\nInstall:\n$ pip install sglang\nEOF", None), (5, "ls", None)]


def test_a_heredoc_that_never_ends_gives_its_lines_back(tmp_path: Path) -> None:
    # Ctrl-C abandoned it; elsewhere the prompt came back without its delimiter; or the log ends
    assert _commands(tmp_path, ["$ cat <<EOF", "^C", "$ nvidia-smi", "No devices were found"]) == [
        (1, "cat <<EOF", None), (3, "nvidia-smi", None)]
    assert _commands(tmp_path, ["root@gpu01:~# cat <<EOF", "hello", "root@gpu01:~# nvidia-smi", "ok"]) == [
        (1, "cat <<EOF", "gpu01"), (3, "nvidia-smi", "gpu01")]
    assert _commands(tmp_path, ["$ python - <<EOF", "print(1)", "$ nvidia-smi"]) == [
        (1, "python - <<EOF", None), (3, "nvidia-smi", None)]


def test_a_heredoc_shown_with_ps2_is_read_as_before(tmp_path: Path) -> None:
    assert _commands(tmp_path, [
        "root@gpu01:~# cat > run.sh <<'EOF'", "> " + _LAUNCH, "> EOF", "root@gpu01:~# bash run.sh",
    ]) == [(1, f"cat > run.sh <<'EOF'\n{_LAUNCH}\nEOF", "gpu01"), (4, "bash run.sh", "gpu01")]
