from validators import is_email


def register(name, email):
    if not name:
        raise ValueError("name is empty")
    if not is_email(email):
        raise ValueError("bad email")
    return {"name": name, "email": email}
