"""The one CrewAI call: a one-agent, one-task crew, no memory, planning or tracing. The only file
that touches CrewAI's Crew, Agent and Task."""

from __future__ import annotations

from typing import Any

from agents.llm.roles import Role


def kickoff_one_agent(role: Role, llm: Any, tools: list[Any], description: str, expected: str) -> str:
    from crewai import Agent, Crew, Process, Task

    agent = Agent(
        role=role.role,
        goal=role.goal,
        backstory=role.backstory,
        llm=llm,
        tools=tools,
        allow_delegation=False,
        max_iter=role.max_iter,
        verbose=False,
    )
    # kickoff() without inputs does not interpolate {placeholders}: code and JSON stay literal.
    task = Task(description=description, expected_output=expected, agent=agent)
    crew = Crew(
        agents=[agent],
        tasks=[task],
        process=Process.sequential,
        memory=False,
        planning=False,
        tracing=False,
        verbose=False,
    )
    return str(crew.kickoff().raw)
