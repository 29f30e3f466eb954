from split import split_evenly


def subtotal(items):
    """items: (dish, price) pairs."""
    return round(sum(price for _dish, price in items), 2)


def receipt(items, people):
    total = subtotal(items)
    return {"subtotal": total, "shares": split_evenly(total, people)}


def receipt_text(items, people):
    bill = receipt(items, people)
    lines = [f"{dish:<20}{price:>8.2f}" for dish, price in items]
    lines.append(f"{'total':<20}{bill['subtotal']:>8.2f}")
    lines += [f"{'person ' + str(n):<20}{share:>8.2f}" for n, share in enumerate(bill["shares"], 1)]
    return "\n".join(lines)
