from seating import Screening

PRICES = {"standard": 11.5, "child": 7.0}


def new_screening(film):
    return Screening(film, "ABCDEFGH", 14)


def sell(screening, row, first, tickets):
    """tickets: a list of 'standard' or 'child', one per seat -> the price to pay."""
    screening.book(row, first, len(tickets))
    return round(sum(PRICES[t] for t in tickets), 2)


def sold_out(screening):
    return screening.free_count() == 0
