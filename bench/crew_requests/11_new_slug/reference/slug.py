def slugify(text):
    kept = "".join(ch for ch in text.lower() if ch.isalnum() or ch == " ")
    return "-".join(kept.split())
