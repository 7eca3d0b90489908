"""A real sshd whose PAM stack asks the password in its own words, for test_hardening12_prompts.

sshd (UsePAM, keyboard-interactive) relays whatever its PAM modules ask. The questions here are
asked by a small PAM module (built with gcc) whose arguments are the questions, the first
answer handed on to pam_unix (`use_first_pass`), as pam_sss hands its first factor on:

- Linux-PAM's own translations of "Password: " ("Passwort: ", "密码： ": Linux-PAM po/*.po,
  installed here as /usr/share/locale/*/LC_MESSAGES/Linux-PAM.mo), what pam_unix asks on a
  server that runs in that language; sshd here never calls setlocale(3), so its own pam_unix
  only ever asks in English;
- SSSD's two-factor login (FreeIPA): "First Factor: " then "Second Factor (optional): "
  (SSSD/sssd: src/sss_client/pam_sss.c, prompt_2fa).

The account's password and the PAM config live only in the server's own mount namespace
(bind mounts over /etc/shadow and /etc/pam.d/sshd), as in h10_helpers.
"""

from __future__ import annotations

import gettext
import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest

import tests.sshd_fixture as fixture
from tests.sshd_fixture import SshServer

_REAL_SSHD = fixture.SSHD

# The PAM ABI (Linux-PAM: libpam/include/security/_pam_types.h), declared here because the
# headers (libpam0g-dev) are not installed; the values are fixed by the X/Open PAM spec.
_QUESTIONS_MODULE = r"""
#include <stddef.h>
struct pam_message { int msg_style; const char *msg; };
struct pam_response { char *resp; int resp_retcode; };
struct pam_conv { int (*conv)(int, const struct pam_message **, struct pam_response **, void *); void *appdata_ptr; };
typedef struct pam_handle pam_handle_t;
extern int pam_get_item(const pam_handle_t *, int, const void **);
extern int pam_set_item(pam_handle_t *, int, const void *);
enum { PAM_SUCCESS = 0, PAM_AUTH_ERR = 7, PAM_CONV = 5, PAM_AUTHTOK = 6, PAM_PROMPT_ECHO_OFF = 1 };

static int ask(pam_handle_t *pamh, const char *question, char **answer) {
    const struct pam_conv *conv = NULL;
    struct pam_message message = { PAM_PROMPT_ECHO_OFF, question };
    const struct pam_message *messages[1] = { &message };
    struct pam_response *response = NULL;
    if (pam_get_item(pamh, PAM_CONV, (const void **)&conv) != PAM_SUCCESS || conv == NULL) return PAM_AUTH_ERR;
    if (conv->conv(1, messages, &response, conv->appdata_ptr) != PAM_SUCCESS || response == NULL) return PAM_AUTH_ERR;
    *answer = response[0].resp;
    return PAM_SUCCESS;
}

int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv) {
    /* argv: the questions, in order; the first answer is the password pam_unix checks. */
    char *first = NULL, *other = NULL;
    if (argc < 1 || ask(pamh, argv[0], &first) != PAM_SUCCESS || first == NULL) return PAM_AUTH_ERR;
    for (int i = 1; i < argc; i++)
        if (ask(pamh, argv[i], &other) != PAM_SUCCESS) return PAM_AUTH_ERR;
    return pam_set_item(pamh, PAM_AUTHTOK, first);
}

int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc, const char **argv) { return PAM_SUCCESS; }
"""


class PamPromptServer(SshServer):
    """Keys off; PAM keyboard-interactive only, as a host that logs people in with passwords
    through PAM (Debian's sshd_config with KbdInteractiveAuthentication yes)."""

    def _sshd_config(self) -> str:
        return (super()._sshd_config()
                .replace("UsePAM no\n", "UsePAM yes\n")
                .replace("KbdInteractiveAuthentication no\n", "KbdInteractiveAuthentication yes\n")
                .replace("PermitRootLogin prohibit-password\n", "PermitRootLogin yes\n")
                + "PubkeyAuthentication no\n")


def _compile(source: str, workdir: Path, name: str) -> Path:
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        pytest.skip("needs a C compiler to build the PAM test module")
    c_file, library = workdir / f"{name}.c", workdir / f"{name}.so"
    c_file.write_text(source)
    subprocess.run([gcc, "-shared", "-fPIC", "-o", str(library), str(c_file)], check=True, capture_output=True)
    return library


def linux_pam_password_question(language: str) -> str:
    """pam_unix's "Password: " as Linux-PAM's installed translation for `language` has it."""
    try:
        return gettext.translation("Linux-PAM", "/usr/share/locale", languages=[language]).gettext("Password: ")
    except OSError:
        pytest.skip(f"Linux-PAM's {language} translation is not installed")


def start_pam_prompt_server(
    workdir: Path, password: str, questions: list[str] | None, *, expired: bool = False, extra_config: str = "",
    check_s: int = 0,
) -> SshServer:
    """An sshd whose PAM asks `questions` in turn (each its own keyboard-interactive round, as
    sshd relays them); the first answer must be the account's password, `password`. None: the
    machine's own PAM stack for sshd (pam_unix). `expired`: the password must be changed at
    the next login (`passwd -e`, `chage -d 0`: the last change on day 0). `check_s`: seconds PAM
    takes to check the answers (pam_exec running sleep, as a slow LDAP or RADIUS server would)."""
    if os.getuid() != 0 or shutil.which("openssl") is None or shutil.which("unshare") is None:
        pytest.skip("needs root, openssl and unshare")
    if not Path("/etc/pam.d/sshd").exists():
        pytest.skip("needs PAM for sshd")
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot make a mount namespace here")
    workdir.mkdir(parents=True, exist_ok=True)
    user = pwd.getpwuid(os.getuid()).pw_name
    hashed = subprocess.run(["openssl", "passwd", "-6", password], capture_output=True, text=True, check=True).stdout.strip()
    shadow = workdir / "shadow"
    shadow.write_text("".join(
        ":".join([user, hashed, "0" if expired else "19000", *line.split(":")[3:]]) + "\n" if line.split(":")[0] == user else line + "\n"
        for line in Path("/etc/shadow").read_text().splitlines()
    ))
    shadow.chmod(0o640)
    mounts = f"mount --bind {shadow} /etc/shadow"
    if questions is not None:
        module = _compile(_QUESTIONS_MODULE, workdir, "pam_questions")
        pam_config = workdir / "pam-sshd"
        # `[...]` keeps an argument's spaces (pam.conf(5)); `]` inside is written `\]`.
        arguments = " ".join("[" + question.replace("]", "\\]") + "]" for question in questions)
        pam_config.write_text(
            f"auth requisite {module} {arguments}\n"
            "auth required pam_unix.so use_first_pass\n"
            + (f"auth required pam_exec.so /bin/sleep {check_s}\n" if check_s else "")
            + "account required pam_permit.so\n"
            "session required pam_permit.so\n"
        )
        mounts += f" && mount --bind {pam_config} /etc/pam.d/sshd"
    wrapper = workdir / "sshd-with-pam-questions"
    wrapper.write_text(
        "#!/bin/sh\n"
        f"exec unshare --mount --propagation private /bin/sh -c '{mounts} && exec {_REAL_SSHD} \"$@\"' sshd \"$@\"\n"
    )
    wrapper.chmod(0o755)
    server = PamPromptServer(workdir, [], extra_config=extra_config)
    fixture.SSHD = str(wrapper)  # read by SshServer.start; the next server starts the real one
    try:
        return server.start()
    finally:
        fixture.SSHD = _REAL_SSHD
