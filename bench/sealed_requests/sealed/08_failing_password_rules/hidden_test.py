import hashlib
from pathlib import Path

from policy import accept
from pwcheck import problems, strength
from test_policy import test_reuse  # noqa: F401
from test_pwcheck import test_common_in_any_case, test_needs_a_capital_and_a_lower_case_letter, test_short, test_strength  # noqa: F401

HERE = Path(__file__).resolve().parent
# test_policy.py's expiry test fails for a reason of its own (policy.py), which nobody asked about.
UNCHANGED = {"test_pwcheck.py": "48855bf562e70024a2039699b47009d786a0c927c365977712d9e31d291140a2", "test_policy.py": "22bfb1d17b28e0b0236f498bf96333df231ebf2fe61d88e77522a368db4b113c"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_other_passwords():
    assert problems("Summer2024!") == []
    assert "no upper case letter" in problems("summer2024!")
    assert "no digit" in problems("Summer!!!!")
    assert strength("SUMMER2024!") == "weak"
    assert accept("Winter#2025") == (True, [])
