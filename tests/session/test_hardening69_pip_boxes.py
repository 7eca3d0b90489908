"""pip 24.1 on end a failed install with lines the older "ERROR: Could not build wheels" check missed.

- pip 24.1 to 25.1: "ERROR: Failed to build installable wheels for some pyproject.toml based
  projects (X)" (24.1 to 24.3 doubled "ERROR: ERROR: ...": pip 24.2 commands/install.py raises
  InstallationError("ERROR: Failed to build installable wheels ...") and the logger adds another).
- pip 25.2 on: a box (pip 26.3 pip/_internal/exceptions/_base.py DiagnosticPipError.__rich_console__,
  raised by commands/install.py as InstallWheelBuildError), "error: failed-wheel-build-for-install",
  "× Failed to build installable wheels for some pyproject.toml based projects", "╰─> flash-attn";
  pip logs it last and exits with ERROR (cli/base_command.py), its version notice before it.

`pip install flash-attn 2>&1 | tail -4` (tail's status 0) was no error, and a failed status gave
the box's reference name, "error: failed-wheel-build-for-install", as the message instead of the
package that did not build. Real outputs of the box: ShenhanQian/GaussianAvatars#124.
"""

from spec_debug.session.failures import extract_errors

WHEEL = """\
Collecting flash-attn
  Downloading flash_attn-2.8.3.tar.gz (8.4 MB)
  Preparing metadata (setup.py) ... done
Building wheels for collected packages: flash-attn
  Building wheel for flash-attn (setup.py) ... error
  error: subprocess-exited-with-error
  
  × python setup.py bdist_wheel did not run successfully.
  │ exit code: 1
  ╰─> [3 lines of output]
      running bdist_wheel
      Precompiled wheel not found. Building from source...
      error: command 'nvcc' failed: No such file or directory
      [end of output]
  
  note: This error originates from a subprocess, and is likely not a problem with pip.
  ERROR: Failed building wheel for flash-attn
  Running setup.py clean for flash-attn
Failed to build flash-attn
error: failed-wheel-build-for-install

× Failed to build installable wheels for some pyproject.toml based projects
╰─> flash-attn
"""
SAID = "Failed to build installable wheels for some pyproject.toml based projects: flash-attn"


def _tail(text: str, n: int) -> str:
    return "\n".join(text.splitlines()[-n:]) + "\n"


def _found(output, exit_code):
    return [(e.kind, e.message) for e in extract_errors(output, exit_code=exit_code)]


def test_the_box_under_tail_is_pip_giving_up():
    for n in (2, 3, 4, 8):
        assert _found(_tail(WHEEL, n), 0) == [("tool_error", SAID)], n


def test_a_failed_status_names_the_package_not_the_reference():
    assert _found(WHEEL, 1) == [("exit_code", SAID)]
    assert _found(_tail(WHEEL, 4), 1) == [("exit_code", SAID)]


def test_pip_24_and_25_0_line_under_tail():
    line = "ERROR: Failed to build installable wheels for some pyproject.toml based projects (flash-attn, xformers)"
    assert _found("Failed to build flash-attn xformers\n" + line + "\n", 0) == [("tool_error", line)]
    assert _found("ERROR: " + line + "\n", 0) == [("tool_error", "ERROR: " + line)]


METADATA = """\
  Getting requirements to build wheel ... error
  error: subprocess-exited-with-error
  
  × Getting requirements to build wheel did not run successfully.
  │ exit code: 1
  ╰─> [2 lines of output]
      *** compiler not found: nvcc
      [end of output]
  
  note: This error originates from a subprocess, and is likely not a problem with pip.
error: subprocess-exited-with-error

× Getting requirements to build wheel did not run successfully.
│ exit code: 1
╰─> See above for output.

note: This error originates from a subprocess, and is likely not a problem with pip.
"""


def test_any_box_that_ends_pip_says_what():
    said = "Getting requirements to build wheel did not run successfully. exit code: 1"
    assert _found(_tail(METADATA, 7), 0) == [("tool_error", said)]
    assert _found(METADATA, 1) == [("exit_code", said)]
    managed = ("error: externally-managed-environment\n\n× This environment is externally managed\n"
               "╰─> To install Python packages system-wide, try apt install\n"
               "    python3-xyz, where xyz is the package you are trying to\n    install.\n    \n"
               "    See /usr/share/doc/python3.12/README.venv for more information.\n\n"
               "note: If you believe this is a mistake, please contact your Python installation or OS distribution "
               "provider. You can override this, at the risk of breaking your Python installation or OS, by passing "
               "--break-system-packages.\nhint: See PEP 668 for the detailed specification.\n")
    assert _found(managed, 0) == [("tool_error", "This environment is externally managed")]
    # the box's own context lines are no part of the message where they are several
    assert _found("Exit code 1\n" + managed, None) == [("tool_error", "This environment is externally managed")]


def test_a_box_not_at_the_end_is_no_failure():
    # a nested build's box that pip went on from (pip 22's fallback to setup.py install)
    went_on = (_tail(WHEEL, 24).split("  ERROR: Failed building wheel")[0]
               + "  Running setup.py install for flash-attn ... done\nSuccessfully installed flash-attn-2.8.3\n")
    assert "╰─> [3 lines of output]" in went_on
    assert _found(went_on, 0) == []
    # a note that quotes a box, words after it
    quoted = ("Seen yesterday:\n\n× Failed to build installable wheels for some pyproject.toml based projects\n"
              "╰─> flash-attn\n\nthen we installed nvcc.\n")
    assert _found(quoted, 0) == []
    # the arrow line alone says nothing of what failed
    assert _found("╰─> flash-attn\n", 0) == []
