"""A failed Maven build, Gradle's Kotlin compile and an eslint run were named by their first line
("[INFO] Scanning for projects...", "> Task :app:compileKotlin FAILED", the path eslint lists a
file's problems under) with no place, though each says what failed and where: the Maven compiler
plugin's ``[ERROR] /w/Main.java:[12,5] cannot find symbol`` (plexus-compiler ``CompilerMessage``),
Kotlin's ``e: file:///w/Main.kt:12:5 Unresolved reference`` (JetBrains/kotlin
``GradleStyleMessageRenderer``), eslint's ``  12:5  error  ...  no-undef`` under the file's path
(eslint ``lib/cli-engine/formatters/stylish.js``). The outputs have the shape each tool prints;
the paths are mine."""

from __future__ import annotations

import pytest

from spec_debug.session.failures import extract_errors

MAVEN_COMPILE = """[INFO] Scanning for projects...
[INFO]
[INFO] ------------------------< com.acme:bench >-------------------------
[INFO] Building bench 1.0-SNAPSHOT
[INFO] --------------------------------[ jar ]---------------------------------
[INFO] --- maven-compiler-plugin:3.11.0:compile (default-compile) @ bench ---
[INFO] Compiling 3 source files with javac [debug target 17] to target/classes
[INFO] -------------------------------------------------------------
[ERROR] COMPILATION ERROR :
[INFO] -------------------------------------------------------------
[ERROR] /home/u/bench/src/main/java/com/acme/Main.java:[12,5] cannot find symbol
  symbol:   variable acceptRate
  location: class com.acme.Main
[INFO] 1 error
[INFO] -------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project bench: Compilation failure
[ERROR] /home/u/bench/src/main/java/com/acme/Main.java:[12,5] cannot find symbol
[ERROR]   symbol:   variable acceptRate
[ERROR] -> [Help 1]
"""

MAVEN_DEPENDENCY = """[INFO] Scanning for projects...
[INFO] Building bench 1.0-SNAPSHOT
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal on project bench: Could not resolve dependencies for project com.acme:bench:jar:1.0-SNAPSHOT: Could not find artifact com.acme:draft:jar:0.3 in central (https://repo.maven.apache.org/maven2) -> [Help 1]
[ERROR]
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.
"""

GRADLE_KOTLIN = """> Task :app:compileKotlin FAILED
e: file:///home/u/app/src/main/kotlin/Main.kt:12:5 Unresolved reference: acceptRate

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:compileKotlin'.
> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction
   > Compilation error. See log for more details

BUILD FAILED in 3s
"""

GRADLE_KOTLIN_OLD = """> Task :app:compileKotlin FAILED
w: /home/u/app/src/main/kotlin/Util.kt: (3, 9): Variable 'x' is never used
e: /home/u/app/src/main/kotlin/Main.kt: (12, 5): Unresolved reference: acceptRate

FAILURE: Build failed with an exception.
"""

ESLINT = """
/home/u/app/src/server.js
  20:1   warning  Unexpected console statement                  no-console
  22:5   error    'acceptRate' is not defined                   no-undef
  30:9   error    'unused' is assigned a value but never used   no-unused-vars

/home/u/app/src/util.js
  2:1  error  Parsing error: Unexpected token

\u2716 4 problems (3 errors, 1 warning)
"""


@pytest.mark.parametrize("output, message, file, line", [
    (MAVEN_COMPILE, "[ERROR] /home/u/bench/src/main/java/com/acme/Main.java:[12,5] cannot find symbol",
     "/home/u/bench/src/main/java/com/acme/Main.java", 12),
    (MAVEN_DEPENDENCY, "[ERROR] Failed to execute goal on project bench: Could not resolve dependencies for project "
     "com.acme:bench:jar:1.0-SNAPSHOT: Could not find artifact com.acme:draft:jar:0.3 in central "
     "(https://repo.maven.apache.org/maven2)", None, None),
    (GRADLE_KOTLIN, "e: file:///home/u/app/src/main/kotlin/Main.kt:12:5 Unresolved reference: acceptRate",
     "/home/u/app/src/main/kotlin/Main.kt", 12),
    (GRADLE_KOTLIN_OLD, "e: /home/u/app/src/main/kotlin/Main.kt: (12, 5): Unresolved reference: acceptRate",
     "/home/u/app/src/main/kotlin/Main.kt", 12),
    (ESLINT, "22:5  error  'acceptRate' is not defined  no-undef", "/home/u/app/src/server.js", 22),
], ids=["maven-compile", "maven-dependency", "kotlin", "kotlin-before-1.7", "eslint"])
def test_the_build_s_first_error_is_named_with_its_place(output, message, file, line):
    [error] = extract_errors(output, exit_code=1)
    assert (error.kind, error.message, error.file, error.line) == ("exit_code", message, file, line)


def test_an_eslint_report_of_warnings_alone_names_no_error_row():
    out = "\n/home/u/app/src/server.js\n  20:1  warning  Unexpected console statement  no-console\n\n" \
          "\u2716 1 problem (0 errors, 1 warning)\n"
    [error] = extract_errors(out, exit_code=1)
    assert (error.message, error.file, error.line) == ("/home/u/app/src/server.js", None, None)


def test_a_gcc_error_before_a_kotlin_like_line_keeps_its_own_place():
    # a compiler line that says "error:" is found first, as before
    out = "src/kv.c:41:9: error: 'n' undeclared\ne: not a kotlin line\n"
    [error] = extract_errors(out, exit_code=1)
    assert (error.message, error.file, error.line) == ("src/kv.c:41:9: error: 'n' undeclared", "src/kv.c", 41)
