import offline  # noqa: F401  (must run before any heavy import)
