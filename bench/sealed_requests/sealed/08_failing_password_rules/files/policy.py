from pwcheck import problems

MAX_AGE_DAYS = 90


def expired(age_days):
    return age_days >= MAX_AGE_DAYS


def accept(password, old_passwords=()):
    if password in old_passwords:
        return False, ["used before"]
    found = problems(password)
    return not found, found
