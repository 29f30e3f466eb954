def coins_for(cents, coins=(200, 100, 50, 20, 10, 5)):
    """Fewest coins for an amount, largest first."""
    out = []
    for coin in coins:
        while cents >= coin:
            out.append(coin)
            cents -= coin
    if cents:
        raise ValueError("cannot pay that amount in coins")
    return out
