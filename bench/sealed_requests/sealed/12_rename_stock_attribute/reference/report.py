def stock_lines(warehouse):
    lines = []
    for sku in sorted(warehouse.items):
        item = warehouse.items[sku]
        flag = " (reorder)" if item.needs_reorder() else ""
        lines.append(f"{sku} {item.name}: {item.quantity}{flag}")
    return lines
