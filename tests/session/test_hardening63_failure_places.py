"""A failed compile or test run of a non-Python tool was named ("error[E0308]: mismatched types",
"panic: ...", jest's "Tests: 1 failed") with no place, though the output says where: rustc's
``-->`` line under its diagnostic, the first frame of a Go panic's goroutine outside the runtime,
the stack of jest's first failed test, the place gcc and tsc put before "error". The postmortem's
timeline shows an error's ``(file:line)`` where it has one, as for a Python traceback; these had
none. Each output below has the shape its tool prints (the sources are named in
:mod:`spec_debug.session.failure_places`); the paths are mine."""

from __future__ import annotations

import pytest

from spec_debug.session.failures import extract_errors

RUSTC = """   Compiling draft-server v0.1.0 (/home/u/draft-server)
error[E0308]: mismatched types
  --> src/scheduler.rs:41:24
   |
41 |     let accept_len: u32 = stats.mean();
   |                     ---   ^^^^^^^^^^^^ expected `u32`, found `f64`
   |                     |
   |                     expected due to this

For more information about this error, try `rustc --explain E0308`.
error: could not compile `draft-server` (bin "draft-server") due to 1 previous error
"""

GO_PANIC = """panic: runtime error: integer divide by zero [recovered]
\tpanic: runtime error: integer divide by zero

goroutine 1 [running]:
panic({0x4a5b20?, 0x56c8f0?})
\t/usr/local/go/src/runtime/panic.go:770 +0x132
main.acceptRate(...)
\t/home/u/bench/stats.go:27
main.main()
\t/home/u/bench/main.go:14 +0x25
exit status 2
"""

JEST = """ FAIL  src/utils/validation.test.ts
  \u25cf Validation \u203a should validate email format

    expect(received).toBe(expected) // Object.is equality

    Expected: true
    Received: false

      12 |   it('should validate email format', () => {
      13 |     const result = validateEmail('invalid');
    > 14 |     expect(result).toBe(true);
         |                    ^
      15 |   });

      at Object.<anonymous> (src/utils/validation.test.ts:14:20)

Test Suites: 1 failed, 2 passed, 3 total
Tests:       1 failed, 14 passed, 15 total
"""

JEST_NO_OWN_FRAME = """ FAIL  src/api.test.ts
  \u25cf Test suite failed to run

    Cannot find module 'supertest' from 'src/api.test.ts'

      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)

Test Suites: 1 failed, 1 total
Tests:       0 total
"""

GCC = """kv_cache.c: In function 'alloc_blocks':
kv_cache.c:41:9: error: 'block_size' undeclared (first use in this function)
   41 |         block_size * n;
      |         ^~~~~~~~~~
make: *** [Makefile:4: kv_cache.o] Error 1
"""

TSC = "> tsc\n\nsrc/server.ts(88,7): error TS2322: Type 'string' is not assignable to type 'number'.\n"


@pytest.mark.parametrize("output,exit_code,message,place", [
    (RUSTC, 101, "error[E0308]: mismatched types", ("src/scheduler.rs", 41)),
    (GO_PANIC, 2, "panic: runtime error: integer divide by zero [recovered]", ("/home/u/bench/stats.go", 27)),
    (JEST, 1, "Tests:       1 failed, 14 passed, 15 total", ("src/utils/validation.test.ts", 14)),
    (JEST_NO_OWN_FRAME, 1, "FAIL  src/api.test.ts", ("src/api.test.ts", None)),
    (GCC, 2, "kv_cache.c:41:9: error: 'block_size' undeclared (first use in this function)", ("kv_cache.c", 41)),
    (TSC, 2, "src/server.ts(88,7): error TS2322: Type 'string' is not assignable to type 'number'.",
     ("src/server.ts", 88)),
])
def test_a_failed_run_says_where(output, exit_code, message, place):
    errors = extract_errors(output, exit_code=exit_code)
    assert [(e.kind, e.message, (e.file, e.line)) for e in errors] == [("exit_code", message, place)]


def test_no_place_where_the_output_names_none():
    # cargo's closing line alone: no diagnostic, no arrow
    out = "error: could not compile `draft-server` (bin \"draft-server\") due to 1 previous error\n"
    assert [(e.file, e.line) for e in extract_errors(out, exit_code=101)] == [(None, None)]
    # an arrow far below another error is not its place
    far = "error: linking with `cc` failed: exit status: 1\n" + "  note: x\n" * 200 + "  --> src/a.rs:1:1\n"
    assert [(e.file, e.line) for e in extract_errors(far, exit_code=1)] == [(None, None)]
    # a panic whose frames are all the runtime's
    runtime = "panic: boom\n\ngoroutine 1 [running]:\nruntime.main()\n\t/usr/local/go/src/runtime/proc.go:271 +0x29\n"
    assert [(e.file, e.line) for e in extract_errors(runtime, exit_code=2)] == [(None, None)]


def test_ruffs_arrow_under_its_first_line():
    """ruff's default ("full") output since 0.12 puts the place under the rule's line, as rustc
    (``F401 [*] `os` imported but unused`` then `` --> src/serve.py:1:8``; astral-sh/ruff
    ruff_linter snapshots, 0.15)."""
    out = ("F401 [*] `os` imported but unused\n --> src/serve.py:1:8\n  |\n1 | import os\n  |        ^^\n  |\n"
           "help: Remove unused import: `os`\n\nFound 1 error.\n[*] 1 fixable with the `--fix` option.\n")
    assert [(e.message, e.file, e.line) for e in extract_errors(out, exit_code=1)] == \
        [("F401 [*] `os` imported but unused", "src/serve.py", 1)]


NODE_MODULE = ("node:internal/modules/cjs/loader:1147\n  throw err;\n  ^\n\nError: Cannot find module 'express'\n"
               "Require stack:\n- /home/u/app/server.js\n"
               "    at Module._resolveFilename (node:internal/modules/cjs/loader:1144:15)\n"
               "    at Object.<anonymous> (/home/u/app/server.js:1:17)\n\nNode.js v20.11.0\n")
NODE_REFERENCE = ("/home/u/app/index.js:3\nfoo();\n^\n\nReferenceError: foo is not defined\n"
                  "    at Object.<anonymous> (/home/u/app/index.js:3:1)\n"
                  "    at Module._compile (node:internal/modules/cjs/loader:1376:14)\n\nNode.js v20.11.0\n")
JAVA = ('Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "s" is null\n'
        "\tat com.acme.Main.run(Main.java:14)\n\tat com.acme.Main.main(Main.java:5)\n")


@pytest.mark.parametrize("output,place", [
    (NODE_MODULE, ("/home/u/app/server.js", 1)),  # past Node's own loader frame
    (NODE_REFERENCE, ("/home/u/app/index.js", 3)),
    (JAVA, ("Main.java", 14)),
])
def test_an_uncaught_exception_says_where(output, place):
    """Node's uncaught error and the JVM's uncaught exception name where they were thrown in
    their stack; the error had no place."""
    assert [(e.file, e.line) for e in extract_errors(output, exit_code=1)] == [place]


def test_a_python_exception_line_alone_has_no_place():
    assert [(e.exception, e.file) for e in extract_errors("RuntimeError: CUDA error: an illegal memory access "
                                                           "was encountered\n", exit_code=1)] == [("RuntimeError", None)]
