from menu import load_menu


def card(menu):
    return "\n".join(f"{i['dish']:<16}{i['price']:>6.2f}{' (v)' if i['vegetarian'] else ''}" for i in menu)


if __name__ == "__main__":
    print(card(load_menu()))
