"""An agent's own note that it killed a command for its timeout is a timeout error.

Kimi CLI's Shell tool says "Command killed by timeout (60s)" (MoonshotAI/kimi-cli
src/kimi_cli/tools/shell/__init__.py, its test asserts "Command killed by timeout (1s)") and
OpenCode's bash tool appends "bash tool terminated command after exceeding timeout 120000 ms"
(newer: "shell tool ...") in a <bash_metadata> block. Neither matched _TIMEOUT: the kind was
tool_error (or whatever the output's first line said), and the message "(no output)".
"""

from spec_debug.session.failures import extract_errors


def _kinds(output, exit_code=None):
    return [(e.kind, e.message) for e in extract_errors(output, exit_code, True)]


def test_kimi_clis_timeout_note():
    assert _kinds("Command killed by timeout (60s)\nINFO Loading weights\n") == \
        [("timeout", "Command killed by timeout (60s)")]
    assert _kinds("ERROR: Command killed by timeout (5s)") == [("timeout", "ERROR: Command killed by timeout (5s)")]


def test_opencodes_timeout_note_is_the_message():
    out = "(no output)\n\n<bash_metadata>\nbash tool terminated command after exceeding timeout 120000 ms\n</bash_metadata>"
    assert _kinds(out) == [("timeout", "bash tool terminated command after exceeding timeout 120000 ms")]
    out = ("INFO Loading weights\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout 300000 ms."
           " If this command is expected to take longer, retry with a larger timeout.\n</shell_metadata>")
    assert [k for k, _ in _kinds(out)] == ["timeout"]
    assert _kinds(out)[0][1].startswith("shell tool terminated command after exceeding timeout 300000 ms.")


def test_other_timeouts_keep_their_first_line():
    assert _kinds("curl: (28) Operation timed out after 5000 milliseconds\n", 28) == \
        [("timeout", "curl: (28) Operation timed out after 5000 milliseconds")]
