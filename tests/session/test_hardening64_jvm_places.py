"""A JVM exception's place is the first frame of the code that ran into it, not the JDK's or the
test framework's where it was thrown: a JUnit assertion under Maven's surefire
(``java.lang.AssertionError`` then ``\\tat org.junit.Assert.fail(Assert.java:89)`` ... ``\\tat
com.acme.AppTest.testRate(AppTest.java:12)``) had no place at all (only V8's ``    at`` frames
were read after a bare exception line), and an uncaught ``NumberFormatException`` was placed in
the JDK's ``NumberFormatException.java:67``. Frames since Java 9 name the module or class loader
before the class (``java.base/java.lang.Integer.parseInt(Integer.java:662)``, ``app//com.acme.Main
.main(Main.java:5)``; ``java.lang.StackTraceElement.toString``). The outputs have the shape
surefire 2.22 and the java launcher print; the code is mine."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

SUREFIRE = """[INFO] Running com.acme.AppTest
[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.045 s <<< FAILURE! - in com.acme.AppTest
[ERROR] testRate(com.acme.AppTest)  Time elapsed: 0.004 s  <<< FAILURE!
java.lang.AssertionError: expected:<2.5> but was:<1.2>
\tat org.junit.Assert.fail(Assert.java:89)
\tat org.junit.Assert.failNotEquals(Assert.java:835)
\tat org.junit.Assert.assertEquals(Assert.java:555)
\tat com.acme.AppTest.testRate(AppTest.java:12)

[INFO] Results:
[ERROR] Failures:
[ERROR]   AppTest.testRate:12 expected:<2.5> but was:<1.2>
[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0
[INFO] BUILD FAILURE
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:2.22.2:test (default-test) on project bench: There are test failures.
"""

UNCAUGHT = """Exception in thread "main" java.lang.NumberFormatException: For input string: "x"
\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)
\tat java.base/java.lang.Integer.parseInt(Integer.java:662)
\tat java.base/java.lang.Integer.parseInt(Integer.java:778)
\tat app//com.acme.Main.main(Main.java:5)
"""


def test_a_junit_assertion_is_placed_at_the_test_s_line():
    [error] = extract_errors(SUREFIRE, exit_code=1)
    assert (error.kind, error.exception, error.message) == (
        "exception", "java.lang.AssertionError", "expected:<2.5> but was:<1.2>")
    assert (error.file, error.line) == ("AppTest.java", 12)


def test_an_uncaught_exception_thrown_in_the_jdk_is_placed_at_its_caller():
    [error] = extract_errors(UNCAUGHT, exit_code=1)
    assert error.message == 'Exception in thread "main" java.lang.NumberFormatException: For input string: "x"'
    assert (error.file, error.line) == ("Main.java", 5)


def test_own_code_thrown_from_is_its_own_place():
    out = ('Exception in thread "main" java.lang.IllegalStateException: no draft\n'
           "\tat com.acme.Draft.load(Draft.java:31)\n\tat com.acme.Main.main(Main.java:5)\n")
    [error] = extract_errors(out, exit_code=1)
    assert (error.file, error.line) == ("Draft.java", 31)
