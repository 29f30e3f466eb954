import string

COMMON = {"password", "123456", "qwerty", "letmein", "iloveyou"}


def problems(password):
    """What is wrong with a password, as short messages; [] when it is fine."""
    found = []
    if len(password) < 8:
        found.append("too short")
    if password.lower() in COMMON:
        found.append("too common")
    if not any(c.isdigit() for c in password):
        found.append("no digit")
    if not any(c in string.punctuation for c in password):
        found.append("no symbol")
    if not any(c.isupper() for c in password):
        found.append("no upper case letter")
    if not any(c.islower() for c in password):
        found.append("no lower case letter")
    return found


def strength(password):
    """'weak', 'ok' or 'strong'."""
    if problems(password):
        return "weak"
    return "strong" if len(password) > 12 else "ok"
