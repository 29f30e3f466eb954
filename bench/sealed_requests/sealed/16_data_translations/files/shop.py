from i18n import t


def greeting(name, lang="en"):
    return t("hello", lang, name=name)


def cart_line(count, lang="en"):
    return t("items", lang, count=count)
