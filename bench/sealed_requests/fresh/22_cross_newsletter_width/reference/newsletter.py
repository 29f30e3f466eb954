"""python newsletter.py > issue.txt"""

from sections import render_section

ISSUE = [
    {
        "title": "Club news",
        "text": "The spring meeting moves to the big hall on the second floor, because so many of you "
        "said you would come that the small room would not hold everyone comfortably.",
    },
    {
        "title": "Coming up",
        "text": "Three walks are planned for April; all of them start at the station car park.",
        "items": [
            "Saturday 6th: the river path to the old mill and back, about twelve kilometres in all",
            "Sunday 14th: hill loop, bring boots",
            "Saturday 27th: the long coastal walk, with lunch at the harbour cafe at one o'clock",
        ],
    },
]


def build_newsletter(sections, width=72):
    parts = []
    for section in sections:
        parts.append("\n".join(render_section(section, width)))
    return "\n\n".join(parts) + "\n"


if __name__ == "__main__":
    print(build_newsletter(ISSUE), end="")
