def is_email(text):
    if text.count("@") != 1:
        return False
    user, domain = text.split("@")
    return bool(user) and "." in domain
