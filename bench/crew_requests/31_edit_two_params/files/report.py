def join_names(names):
    return ", ".join(names)


def header(title):
    return title.upper() + "\n" + "=" * len(title)


def bullet_list(items):
    return "\n".join("- " + item for item in items)
