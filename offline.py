"""Switch off every call out (telemetry, version checks, hub look-ups) before heavy imports.

Import this module first in every entry point: the libraries read these variables at import time.
"""

import os

OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "GRADIO_ANALYTICS_ENABLED": "False",
    "CREWAI_DISABLE_TELEMETRY": "true",
    "CREWAI_DISABLE_TRACKING": "true",
    "CREWAI_TRACING_ENABLED": "false",
    "OTEL_SDK_DISABLED": "true",
    "DO_NOT_TRACK": "1",
    "ANONYMIZED_TELEMETRY": "False",
}


def apply_offline_env() -> None:
    """Set the offline switches unless the user set them explicitly."""
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)


apply_offline_env()
