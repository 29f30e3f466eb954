from parser import parse

from rooms import ROOMS


class Game:
    def __init__(self, start="hall"):
        self.room = start
        self.inventory = []
        self.over = False

    def step(self, command):
        verb, noun = parse(command)
        if verb == "go":
            exits = ROOMS[self.room]["exits"]
            if noun not in exits:
                return "You can't go that way."
            self.room = exits[noun]
            return ROOMS[self.room]["description"]
        if verb == "look":
            return ROOMS[self.room]["description"]
        if verb == "take":
            items = ROOMS[self.room]["items"]
            if noun not in items:
                return f"There is no {noun} here."
            items.remove(noun)
            self.inventory.append(noun)
            return f"You take the {noun}."
        if verb == "quit":
            self.over = True
            return "Bye."
        return "I don't understand."


if __name__ == "__main__":
    game = Game()
    print(ROOMS[game.room]["description"])
    while not game.over:
        print(game.step(input("> ")))
