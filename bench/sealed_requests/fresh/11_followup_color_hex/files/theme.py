from colors import luminance

PALETTE = {
    "primary": "#1e90ff",
    "danger": "#dc143c",
    "warning": "#ffd700",
    "dark": "#2f4f4f",
}


def text_colour(background):
    """Black text on light backgrounds, white on dark ones."""
    return "black" if luminance(background) > 0.5 else "white"


def css(palette=PALETTE):
    lines = [":root {"]
    for name, code in palette.items():
        lines.append(f"  --{name}: {code};")
        lines.append(f"  --{name}-text: {text_colour(code)};")
    lines.append("}")
    return "\n".join(lines)
