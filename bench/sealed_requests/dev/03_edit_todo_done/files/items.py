def make_item(text):
    text = text.strip()
    if not text:
        raise ValueError("an item needs some text")
    return {"text": text, "done": False}
