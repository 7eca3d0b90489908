"""A failed vitest run was named by its error ("AssertionError: expected 1.2 to be 2.5") with no
place, though vitest prints where under it: its stack is `` ❯ src/accept.test.ts:12:20`` lines
(the function first when there is one, `` ❯ acceptRate src/rate.ts:3:9``), not V8's ``at`` lines
that jest and Node print (vitest-dev/vitest ``packages/vitest/src/node/error.ts``, ``printStack``).
The outputs below have the shape vitest 1.x prints; the paths are mine."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

ASSERTION = """
 RUN  v1.6.0 /home/u/app

 \u276f src/accept.test.ts  (2 tests | 1 failed) 5ms
   \u276f src/accept.test.ts > acceptance > computes rate
     \u2192 expected 1.2 to be 2.5 // Object.is equality

\u23af\u23af\u23af\u23af\u23af\u23af\u23af Failed Tests 1 \u23af\u23af\u23af\u23af\u23af\u23af\u23af

 FAIL  src/accept.test.ts > acceptance > computes rate
AssertionError: expected 1.2 to be 2.5 // Object.is equality

- Expected
+ Received

- 2.5
+ 1.2

 \u276f src/accept.test.ts:12:20
     10|   it('computes rate', () => {
     11|     const r = rate(3, 2)
     12|     expect(r).toBe(2.5)
       |                    ^
     13|   })

\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af\u23af[1/1]\u23af

 Test Files  1 failed (1)
      Tests  1 failed | 1 passed (2)
"""

THROWN = """ FAIL  src/accept.test.ts > acceptance > throws
Error: no drafts accepted
 \u276f acceptRate src/rate.ts:3:9
      1| export function acceptRate(a: number, b: number) {
      2|   if (a === 0)
      3|     throw new Error('no drafts accepted')
       |           ^
 \u276f src/accept.test.ts:18:5

\u23af\u23af\u23af[1/1]\u23af
"""

IN_A_DEPENDENCY = """ FAIL  src/load.test.ts > loads the config
TypeError: Cannot read properties of undefined (reading 'draft')
 \u276f Object.parse node_modules/yaml/dist/index.js:40:11
 \u276f src/load.test.ts:7:18
"""


def test_an_assertion_is_placed_at_the_frame_under_it():
    [error] = extract_errors(ASSERTION, exit_code=1)
    assert (error.kind, error.exception, error.message) == (
        "exception", "AssertionError", "expected 1.2 to be 2.5 // Object.is equality")
    assert (error.file, error.line) == ("src/accept.test.ts", 12)


def test_a_terminal_log_without_status_places_it_the_same():
    [error] = extract_errors(ASSERTION, status_known=False)
    assert (error.file, error.line) == ("src/accept.test.ts", 12)


def test_a_bare_error_is_placed_at_the_function_that_threw():
    [error] = extract_errors(THROWN, exit_code=1)
    assert error.message == "Error: no drafts accepted"
    assert (error.file, error.line) == ("src/rate.ts", 3)


def test_a_dependency_frame_is_stepped_over():
    [error] = extract_errors(IN_A_DEPENDENCY, exit_code=1)
    assert error.exception == "TypeError"
    assert (error.file, error.line) == ("src/load.test.ts", 7)


def test_the_summary_pointer_above_the_error_is_no_place():
    # the run summary's "❯ file  (n tests | m failed)" names no line; with no stack under the
    # error there is no place
    out = ASSERTION.split("\n- Expected")[0]
    [error] = extract_errors(out, exit_code=1)
    assert (error.file, error.line) == (None, None)
