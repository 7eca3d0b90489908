"""Heredoc bodies read as bash reads them (bash(1), Here Documents; each case checked with bash
5): the body ends at a line that is the word alone, flush left ("  EOF", "EOF " and "EOFX" are
body lines; `<<-` strips leading tabs only), runs to the end of the input when no such line
comes ("here-document ... delimited by end-of-file"), and several heredocs on one line read their
bodies in turn. Body lines are no commands: `rm -rf /x` in a script fed to a remote bash is not
a change to the local host, and a body line the old reader took for the end was."""

import pytest

from spec_debug.session.host_changes import changes_host
from spec_debug.session.shell_words import pipelines


@pytest.mark.parametrize("command, expected", [
    # an indented or padded word is a body line; the script after it is still the body
    ("ssh h bash <<EOF\nnvidia-smi\n  EOF\nrm -rf /x\nEOF\necho done", [[["ssh", "h", "bash"]], [["echo", "done"]]]),
    ("cat <<EOF\nx\nEOF \nrm -rf /x\nEOF\nls", [[["cat"]], [["ls"]]]),
    ("cat <<EOF\nx\n\tEOF\nrm -rf /x\nEOF\nls", [[["cat"]], [["ls"]]]),
    # <<- strips leading tabs from the terminator
    ("cat <<-EOF\n\trm -rf /x\n\tEOF\nls", [[["cat"]], [["ls"]]]),
    # a longer word is no terminator
    ("cat <<EOF\nEOFX\nrm -rf /x\nEOF\nls", [[["cat"]], [["ls"]]]),
    # no terminator: bash feeds the rest of the input to cat
    ("ssh h bash <<EOF\nnvidia-smi\nrm -rf /x", [[["ssh", "h", "bash"]]]),
    # two heredocs on one line: A's body, then B's
    ("cat <<A <<B\nrm a\nA\nrm -rf /x\nB\nls", [[["cat"]], [["ls"]]]),
    # a quoted word written with a backslash
    ("cat <<\\EOF\nrm -rf /x\nEOF\nls", [[["cat"]], [["ls"]]]),
])
def test_body_lines_are_no_commands(command, expected):
    assert pipelines(command) == expected


@pytest.mark.parametrize("command, expected", [
    # a shift and a quoted << are no heredoc: the lines after them are commands
    ('python3 -c "print(1 << n)"\nrm -rf /x', ["python3", "rm"]),
    ("echo \"it's\" && cat <<EOF\nrm x\nEOF\nls", ["echo", "cat", "ls"]),
    ('cat <<< "x"\nrm -rf /x', ["cat", "rm"]),
])
def test_no_heredoc_keeps_the_lines_after(command, expected):
    assert [p[0][0] for p in pipelines(command)] == expected


def test_a_shift_before_a_heredoc_leaves_the_heredoc_read():
    programs = [p[0][0] for p in pipelines("echo $((1<<20))\ncat <<EOF\nrm x\nEOF\nls")]
    assert "rm" not in programs and programs[-2:] == ["cat", "ls"]


def test_an_unterminated_remote_script_does_not_change_the_local_host():
    assert changes_host("ssh gpu01 bash <<'EOF'\nnvidia-smi\n    EOF\nrm -rf /tmp/cache") is None
    assert changes_host("cat <<'EOF'\nEOF\nrm -rf /tmp/cache") is not None  # ended: rm runs here


def test_many_shift_operators_on_one_line_are_read_in_linear_time():
    import time

    line = "echo " + " ".join(["a << b"] * 2000) + "\nls\n"  # a C++ one-liner's `cout << x << y ...`
    started = time.thread_time()
    pipelines(line)
    assert time.thread_time() - started < 0.5  # each op's own scan of its line took 0.9 s
