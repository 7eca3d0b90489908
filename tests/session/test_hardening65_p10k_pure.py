"""powerlevel10k's pure style (romkatv/powerlevel10k ``config/p10k-pure.zsh`` at 604f19a9): two
rows, the first ``root@vm /srv`` (the context, shown as root or over ssh, before the folder), the
command after ``❯`` on the second, the ``❯`` magenta after success and red (colour 1) after a
failure, no status shown. Before, its first row was not taken for the prompt's (it does not start
with the folder), so the commands had no host, and the failed launch read as one that went well.
A real recording (data_hardening65/SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_hardening65"
LAUNCH = ("python3 -c 'import sys; print(\"loading draft\"); sys.exit(3)' --model-path /models/llama-3.1-8b-instruct "
          "--speculative-draft-model-path /models/eagle3")


def test_a_recorded_pure_prompt_s_host_and_failure() -> None:
    a = analyze_path(DATA / "p10k_pure_failed_zsh59.typescript")
    assert [(c.command, c.host, c.user, c.exit_code, c.is_error) for c in a.commands] == [
        ("zsh -i", None, None, None, False),
        (LAUNCH, "vm", "root", None, True),
        ("echo done", "vm", "root", None, False),
        ("exit", "vm", "root", None, False),
    ]


def test_an_output_line_with_user_at_host_is_no_prompt_row(tmp_path: Path) -> None:
    # a line of output shaped like pure's first row, with no blank line before it, stays output
    rows = ["❯ ssh-keygen -l -f key.pub", "256 SHA256:abc root@gpu01 /etc/ssh (ED25519)",
            "root@gpu01 /etc/ssh", "❯ echo ok", "ok"]
    path = tmp_path / "pane.log"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert [(c.command, c.host) for c in analyze_path(path).commands] == [
        ("ssh-keygen -l -f key.pub", None), ("echo ok", None)]
