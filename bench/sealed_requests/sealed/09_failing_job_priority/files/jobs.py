def send_email(to):
    return f"email to {to}"


def resize_image(name):
    return f"resized {name}"


def backup():
    return "backup done"
