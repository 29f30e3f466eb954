"""Leitner boxes: a right answer moves a card up a box, a wrong one back to box 1.
A card in box n comes back after 2**(n-1) days."""

from datetime import timedelta

MAX_BOX = 5


def new_card(front, back, today):
    return {"front": front, "back": back, "box": 1, "due": today}


def interval(box):
    return timedelta(days=2 ** (box - 1))


def answer(card, correct, today):
    if correct:
        card["box"] = min(card["box"] + 1, MAX_BOX)
    else:
        card["box"] = 1
    card["due"] = today + interval(card["box"])
    return card


def due_cards(cards, today):
    return [card for card in cards if card["due"] <= today]
