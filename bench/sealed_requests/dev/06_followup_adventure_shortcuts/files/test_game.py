from game import Game


def test_walk_and_back():
    game = Game()
    assert "library" not in game.step("go west")
    game.step("go north")
    assert game.room == "library"
    game.step("go south")
    assert game.room == "hall"


def test_take():
    game = Game()
    assert game.step("take lamp") == "You take the lamp."
    assert game.inventory == ["lamp"]
