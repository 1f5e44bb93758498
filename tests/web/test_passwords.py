"""The password hasher a server uses: argon2id with argon2-cffi's defaults (RFC 9106's second recommendation:
64 MiB, 3 passes, 4 lanes). The test process itself hashes with the cheapest parameters (tests/conftest.py), so
this is checked in a fresh interpreter, as ``sportmafia serve`` starts."""

from __future__ import annotations

import subprocess
import sys

from sportmafia.web.security import password_hasher
from sportmafia.web.throttle import PasswordChecker

PRINT_HASH = """
from sportmafia.web.security import hash_password
from sportmafia.web.throttle import PasswordChecker
checker = PasswordChecker()
print(hash_password("a password"))
print(checker.hash("a password"))
checker.close()
"""


def test_a_server_hashes_with_argon2id_at_its_full_cost() -> None:
    out = subprocess.run([sys.executable, "-c", PRINT_HASH], capture_output=True, text=True, check=True).stdout
    made, checked = out.split()
    assert made.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert checked.startswith("$argon2id$v=19$m=65536,t=3,p=4$")


def test_the_checker_uses_the_processs_hasher_unless_given_one() -> None:
    checker = PasswordChecker()
    try:
        assert checker.hasher is password_hasher()
        assert checker.verify(checker.hash("secret"), "secret")
        assert not checker.verify(checker.hash("secret"), "Secret")
    finally:
        checker.close()
