"""A failed ``gradle test`` was named by the build's first line (``> Task :compileJava``) with no
place, though Gradle's console names the failed test and where: ``AppTest > testRate() FAILED``,
then indented the exception and the test's own frame, ``    org.opentest4j.AssertionFailedError at
AppTest.java:12`` (newer releases put the message's first line after the class; gradle/gradle
``ShortExceptionFormatter``, the default exception format of the console's test logging). The
output has the shape Gradle prints; the test is mine."""

from __future__ import annotations

import pytest

from spec_debug.session.failures import extract_errors

GRADLE_TEST = """> Task :compileJava
> Task :test FAILED

AppTest > testRate() FAILED
    org.opentest4j.AssertionFailedError at AppTest.java:12

2 tests completed, 1 failed

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':test'.
> There were failing tests. See the report at: file:///home/u/app/build/reports/tests/test/index.html

BUILD FAILED in 2s
"""


@pytest.mark.parametrize("shown, said", [
    ("org.opentest4j.AssertionFailedError", "AppTest > testRate() FAILED: org.opentest4j.AssertionFailedError"),
    ("org.opentest4j.AssertionFailedError: expected: <2.5> but was: <1.2>",
     "AppTest > testRate() FAILED: org.opentest4j.AssertionFailedError: expected: <2.5> but was: <1.2>"),
], ids=["class-only", "with-message"])
def test_the_failed_test_and_its_line_are_named(shown: str, said: str):
    out = GRADLE_TEST.replace("org.opentest4j.AssertionFailedError", shown)
    [error] = extract_errors(out, exit_code=1)
    assert (error.kind, error.message, error.file, error.line) == ("exit_code", said, "AppTest.java", 12)


def test_a_failed_task_line_alone_is_no_test():
    out = "> Task :app:run FAILED\n\nFAILURE: Build failed with an exception.\n\nBUILD FAILED in 1s\n"
    [error] = extract_errors(out, exit_code=1)
    assert (error.message, error.file) == ("> Task :app:run FAILED", None)
