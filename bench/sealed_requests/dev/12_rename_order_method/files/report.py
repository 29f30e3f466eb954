def daily_report(orders):
    lines = [f"{len(orders)} orders"]
    for order in orders:
        state = "shipped" if order.shipped else "open"
        lines.append(f"#{order.number} {order.customer}: {order.calc_total():.2f} ({state})")
    lines.append(f"revenue: {sum(order.calc_total() for order in orders):.2f}")
    return "\n".join(lines)


def biggest(orders):
    return max(orders, key=lambda order: order.calc_total())
