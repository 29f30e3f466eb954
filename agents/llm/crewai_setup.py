"""Import CrewAI the LocalCrew way: offline switches first, and its console panels off.

CrewAI's console formatter draws live panels on stdout for every streamed chunk unless a crew
says verbose=False; LocalCrew shows progress through its own events, so it is always off.
"""

from __future__ import annotations

from crewai.events.event_listener import event_listener

import offline  # noqa: F401  (telemetry and tracing off before crewai is imported)

event_listener.formatter.verbose = False
