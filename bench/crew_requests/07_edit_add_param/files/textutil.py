def shout(text):
    return text.upper() + "!"


def whisper(text):
    return text.lower() + "..."


def initials(name):
    return "".join(part[0].upper() for part in name.split())
