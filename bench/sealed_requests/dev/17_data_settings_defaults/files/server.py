from settings import load_settings


def banner(settings):
    mode = "debug" if settings["debug"] else "production"
    return f"serving on {settings['host']}:{settings['port']} with {settings['workers']} workers ({mode})"


def main(path="config.json"):
    settings = load_settings(path)
    print(banner(settings))
    return settings


if __name__ == "__main__":
    main()
