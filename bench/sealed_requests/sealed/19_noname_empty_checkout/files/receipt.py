from checkout import checkout_total, subtotal


def receipt(cart):
    lines = [f"{name}: {qty} x {price:.2f}" for name, (price, qty) in sorted(cart.items())]
    lines.append(f"subtotal {subtotal(cart):.2f}")
    lines.append(f"total {checkout_total(cart):.2f}")
    return "\n".join(lines)
