def join_names(names, sep=", "):
    return sep.join(names)


def header(title):
    return title.upper() + "\n" + "=" * len(title)


def bullet_list(items, marker="- "):
    return "\n".join(marker + item for item in items)
