"""Which keyboard-interactive questions the account's password answers.

sshd relays its PAM stack's questions as keyboard-interactive prompts (RFC 4256), in the words
the stack chose: Linux-PAM's pam_unix asks "Password: " in the server's language ("Passwort: ",
"Mot de passe : ", "密码： ": Linux-PAM po/*.po, msgid "Password: "); FreeIPA/SSSD's two-factor
login asks "First Factor: " then "Second Factor (optional): " (SSSD/sssd:
src/sss_client/pam_sss.c, prompt_2fa); TACACS and FreeBSD stacks say "TACACS Password: " or
"Password for user@host:" (ansible/pylibssh#311, hierynomus/sshj#815). Looking for the English
word alone left a host with the inventory's password unanswered ("login abandoned") or asked
on the terminal for a password the inventory holds.

A host whose password has expired asks for a new one in the same login (sshd runs PAM's
password change inside keyboard-interactive: openssh-portable auth-pam.c, sshpam_thread calls
pam_chauthtok; pam_unix then asks "Current password: ", "New password: ", "Retype new
password: "). Sending the account's password there too was refused ("The password has not
been changed") and reported as a wrong password; asks_for_new_password tells those apart.

Pure functions: ssh_auth asks them while it answers the server.
"""

from __future__ import annotations

import re

# The Linux-PAM translations of "Password: " (and the words other PAM modules and Windows use),
# casefolded. One of them in the question's last line means the account's password.
_PASSWORD_WORDS = (
    "password", "passwort", "mot de passe", "contraseña", "contrasenya", "senha", "palavra-passe",
    "wachtwoord", "lösenord", "passord", "adgangskode", "salasana", "hasło", "heslo", "jelszó",
    "parola", "parolă", "parool", "pasahitza", "pasvorto", "lozinka", "şifre", "şifrə", "sandi",
    "mật khẩu", "пароль", "парола", "лозинка", "密码", "密碼", "口令", "パスワード", "암호", "비밀번호",
    "סיסמה", "ססמה", "كلمة السر", "كلمة المرور",
)

# Questions for a one-time code or a second factor (google-authenticator's "Verification code: ",
# pam_oath's "One-time password (OATH) for ...", SecurID's "PASSCODE: ", SSSD's "Second Factor",
# "Password + Token value: "): the account's password is never their answer, even where the
# question also says "password". Short words must stand alone (`pin`, not "spinning").
_ONE_TIME_WORDS = (
    "one-time", "one time", "second factor", "two-factor", "passcode", "verification", "token",
    "authenticator", "yubikey", "code", "einmal", "验证码", "動態", "动态", "令牌", "ワンタイム",
)
_ONE_TIME_TOKENS = re.compile(r"\b(?:otp|totp|hotp|oath|pin|2fa|mfa|duo)\b")


def asks_for_password(question: str, echo: bool, *, password_sent: bool) -> bool:
    """Whether `question` (one prompt of a keyboard-interactive request) takes the password.

    A question shown as typed (`echo`) never does: it asks a user name or a menu choice
    (Duo's "Passcode or option (1-3): "). A one-time-code question never does. A question
    that names the password in one of PAM's languages does. Any other hidden question does
    while the password has not been sent in this login: it is the PAM stack's first secret
    ("First Factor: " in SSSD's two-factor login, a prompt in a language not listed here),
    as `sshpass -P PROMPT` or Ansible's `ansible_sshpass_prompt` would be set to answer.
    """
    if echo or asks_for_new_password(question):
        return False
    text = _last_line(question)  # what is asked; lines above it are PAM's notices
    if any(word in text for word in _ONE_TIME_WORDS) or _ONE_TIME_TOKENS.search(text):
        return False
    if any(word in text for word in _PASSWORD_WORDS):
        return True
    return not password_sent


# Linux-PAM's "New password: " and "Retype new password: " (po/*.po for the languages above),
# casefolded; pam_unix asks them when the password has expired.
_NEW_PASSWORD_WORDS = (
    "new password", "neues passwort", "neue passwort", "nouveau mot de passe", "nueva contraseña", "nova senha",
    "nuova password", "nieuw wachtwoord", "nytt lösenord", "nowe hasło", "nové heslo", "новый пароль",
    "нового пароля", "新的密码", "新密码", "新 密碼", "新的 密碼", "新しい パスワード", "새 암호",
)


def asks_for_new_password(question: str) -> bool:
    """Whether `question` asks to choose a new password (an expired one being changed): the
    account's password is never that answer, and under --batch no one can give it."""
    last_line = _last_line(question)
    return any(word in last_line for word in _NEW_PASSWORD_WORDS)


def _last_line(question: str) -> str:
    """The question's last line, casefolded: pam_unix puts its notices ("You are required to
    change your password immediately", "The password has not been changed.") above it."""
    lines = question.strip().splitlines()
    return lines[-1].casefold() if lines else ""
