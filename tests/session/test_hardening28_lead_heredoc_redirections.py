"""A shell that reads a heredoc after a redirection or a substitution on its line: `sudo bash
2>&1 <<EOF` is still a shell running the script (round 27 took the `&` of `2>&1` for a
separator and read no script, so distill could keep an `apt-get install` as a diagnostic)."""

from __future__ import annotations

import pytest

from spec_debug.session.host_changes import changes_host
from spec_debug.session.shell_words import shell_scripts


@pytest.mark.parametrize("head", ["bash 2>&1", "bash &>/tmp/log", "bash 1>&2", "bash >| log", "env A=$(pwd) bash",
                                  "sudo bash 2>&1"])
def test_the_shell_before_the_heredoc_reads_it(head):
    assert shell_scripts(f"{head} <<EOF\nnvidia-smi\nEOF") == ["nvidia-smi\n"]


def test_a_script_that_installs_after_2_and_1_changes_the_host():
    assert changes_host("sudo bash 2>&1 <<EOF\napt-get install -y foo\nEOF") is not None


def test_separators_still_separate():
    assert shell_scripts("echo a & bash <<EOF\nls\nEOF") == ["ls\n"]
    assert shell_scripts("bash && cat <<EOF\nls\nEOF") == []
    assert shell_scripts("cat <<EOF | sudo sh\nls\nEOF") == ["ls\n"]
