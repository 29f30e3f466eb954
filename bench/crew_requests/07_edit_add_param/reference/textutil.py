def shout(text, times=1):
    return text.upper() + "!" * times


def whisper(text):
    return text.lower() + "..."


def initials(name):
    return "".join(part[0].upper() for part in name.split())
