from phones import normalize


class AddressBook:
    def __init__(self):
        self.entries = {}  # normalized number -> name

    def add(self, name, number):
        self.entries[normalize(number)] = name.strip()

    def who_is(self, number):
        """The name saved for the number, however it is written; None for an unknown number."""
        try:
            return self.entries.get(normalize(number))
        except ValueError:
            return None

    def names(self):
        return sorted(set(self.entries.values()))
