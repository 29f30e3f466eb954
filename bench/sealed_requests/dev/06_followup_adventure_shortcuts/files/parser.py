"""Turn what the player typed into (verb, noun)."""

VERBS = ("go", "look", "take", "quit")
DIRECTIONS = ("north", "south", "east", "west")


def parse(command):
    words = command.split()
    if not words:
        return (None, None)
    verb = words[0]
    noun = " ".join(words[1:]) or None
    if verb in DIRECTIONS:
        return ("go", verb)
    if verb not in VERBS:
        return (None, None)
    return (verb, noun)
