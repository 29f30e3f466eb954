from loan import monthly_payment, total_interest


def offer_cost(offer, principal):
    """What an offer costs on top of the loan itself: the interest and the bank's fee."""
    return round(total_interest(principal, offer["rate"], offer["months"]) + offer.get("fee", 0), 2)


def cheapest(offers, principal):
    """The name of the offer that costs the least."""
    return min(offers, key=lambda name: offer_cost(offers[name], principal))


def affordable(offers, principal, budget):
    """Names of the offers whose monthly payment fits in the monthly budget, cheapest payment first."""
    payments = {name: monthly_payment(principal, o["rate"], o["months"]) for name, o in offers.items()}
    return sorted((name for name, p in payments.items() if p <= budget), key=payments.get)
