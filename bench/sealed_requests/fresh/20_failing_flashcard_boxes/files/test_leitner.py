from datetime import date

from leitner import answer, due_cards, new_card

TODAY = date(2024, 3, 1)


def test_right_answer_moves_up_one_box():
    card = answer(new_card("hola", "hello", TODAY), True, TODAY)
    assert card["box"] == 2
    assert card["due"] == date(2024, 3, 3)


def test_wrong_answer_goes_back_to_box_one():
    card = new_card("gato", "cat", TODAY)
    card["box"] = 4
    answer(card, False, TODAY)
    assert card["box"] == 1 and card["due"] == date(2024, 3, 2)


def test_box_five_is_the_top():
    card = new_card("perro", "dog", TODAY)
    card["box"] = 5
    answer(card, True, TODAY)
    assert card["box"] == 5 and card["due"] == date(2024, 3, 17)


def test_due_cards():
    cards = [new_card("a", "b", TODAY), new_card("c", "d", date(2024, 3, 5))]
    assert due_cards(cards, TODAY) == [cards[0]]
