"""Turn what the player typed into (verb, noun)."""

VERBS = ("go", "look", "take", "quit")
DIRECTIONS = ("north", "south", "east", "west")
SHORT = {direction[0]: direction for direction in DIRECTIONS}


def parse(command):
    words = command.lower().split()
    if not words:
        return (None, None)
    verb = words[0]
    noun = " ".join(words[1:]) or None
    if len(words) == 1 and verb in SHORT:
        return ("go", SHORT[verb])
    if verb in DIRECTIONS:
        return ("go", verb)
    if verb not in VERBS:
        return (None, None)
    if verb == "go" and noun in SHORT:
        noun = SHORT[noun]
    return (verb, noun)
