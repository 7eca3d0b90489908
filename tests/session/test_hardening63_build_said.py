"""A failed Go build was named by its first line, "# example.com/bench", the package ``go build``
prints before the compiler's errors (golang/go src/cmd/go/internal/work/shell.go, reportCmd: "#
desc" then the output, e.g. "../fmt/print.go:1090: undefined: asdf"), whose lines say no "error";
a failed link (``pip install`` of a CUDA extension, a kernel's ``make``) by gcc's closing
"collect2: error: ld returned 1 exit status" rather than the linker's own "cannot find -lcudart".
A failed ``go test`` had no place though its ``t.Errorf`` line gives one. Now the line that names
the failure is the message, with its place."""

from __future__ import annotations

import pytest

from spec_debug.session.failures import extract_errors

GO_BUILD = "# example.com/bench\n./stats.go:12:5: undefined: acceptRate\n./main.go:14:2: declared and not used: x\n"
GO_VET = "# example.com/bench\n# [example.com/bench]\n./main.go:9:2: fmt.Printf format %d has arg s of wrong type string\n"
GO_TEST = ("=== RUN   TestAcceptLength\n    accept_test.go:31: got 1.2, want at least 2.5\n"
           "--- FAIL: TestAcceptLength (0.00s)\nFAIL\nFAIL\texample.com/bench\t0.002s\nFAIL\n")
LD_LIB = "/usr/bin/ld: cannot find -lcudart: No such file or directory\ncollect2: error: ld returned 1 exit status\n"
LD_UNDEFINED = ("/usr/bin/ld: /tmp/ccX1.o: in function `main':\nmain.c:(.text+0x1e): undefined reference to "
                "`launch_kernel'\ncollect2: error: ld returned 1 exit status\nmake: *** [Makefile:3: app] Error 1\n")


@pytest.mark.parametrize("output,message,place", [
    (GO_BUILD, "./stats.go:12:5: undefined: acceptRate", ("./stats.go", 12)),
    (GO_VET, "./main.go:9:2: fmt.Printf format %d has arg s of wrong type string", ("./main.go", 9)),
    (GO_TEST, "--- FAIL: TestAcceptLength (0.00s)", ("accept_test.go", 31)),
    (LD_LIB, "/usr/bin/ld: cannot find -lcudart: No such file or directory", (None, None)),
    (LD_UNDEFINED, "main.c:(.text+0x1e): undefined reference to `launch_kernel'", (None, None)),
])
def test_the_line_that_names_the_failure(output, message, place):
    assert [(e.kind, e.message, (e.file, e.line)) for e in extract_errors(output, exit_code=1)] == \
        [("exit_code", message, place)]


def test_other_first_lines_are_kept():
    # a heading with no Go error under it, a collect2 verdict with no complaint before it
    assert [e.message for e in extract_errors("# Results\nsee below\n", exit_code=1)] == ["# Results"]
    assert [e.message for e in extract_errors("collect2: error: ld returned 1 exit status\n", exit_code=1)] == \
        ["collect2: error: ld returned 1 exit status"]


PYLINT = ("************* Module app\napp.py:1:0: C0114: Missing module docstring (missing-module-docstring)\n"
          "app.py:3:0: E0602: Undefined variable 'foo' (undefined-variable)\n\n"
          "------------------------------------------------------------------\nYour code has been rated at 0.00/10\n")


@pytest.mark.parametrize("output,message,place", [
    # pylint's banner names the module only: its first error names the failure
    (PYLINT, "app.py:3:0: E0602: Undefined variable 'foo' (undefined-variable)", ("app.py", 3)),
    # no error: the first message
    ("************* Module app\napp.py:1:0: C0114: Missing module docstring (missing-module-docstring)\n",
     "app.py:1:0: C0114: Missing module docstring (missing-module-docstring)", ("app.py", 1)),
    # flake8's (and ruff's concise) line gives its place
    ("src/serve.py:3:1: F401 'os' imported but unused\n", "src/serve.py:3:1: F401 'os' imported but unused",
     ("src/serve.py", 3)),
])
def test_a_python_linter_names_its_first_error(output, message, place):
    assert [(e.kind, e.message, (e.file, e.line)) for e in extract_errors(output, exit_code=2)] == \
        [("exit_code", message, place)]


def test_a_failed_go_tests_own_line():
    """The place is the failed test's own line (under its ``=== RUN``, or under its ``--- FAIL``
    without -v), not a line an earlier passing test logged."""
    verbose = ("=== RUN   TestLoad\n    load_test.go:8: loaded 3 layers\n--- PASS: TestLoad (0.00s)\n" + GO_TEST)
    assert [(e.message, e.file, e.line) for e in extract_errors(verbose, exit_code=1)] == \
        [("--- FAIL: TestAcceptLength (0.00s)", "accept_test.go", 31)]
    quiet = "--- FAIL: TestAcceptLength (0.00s)\n    accept_test.go:31: got 1.2, want at least 2.5\nFAIL\n"
    assert [(e.file, e.line) for e in extract_errors(quiet, exit_code=1)] == [("accept_test.go", 31)]
