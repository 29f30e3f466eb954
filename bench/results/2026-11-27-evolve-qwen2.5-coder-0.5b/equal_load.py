"""The hand-tuned crew and the evolved winner on the same problems, alternating A B per problem."""
import json, sys, time
import models.llama_libs  # noqa
import offline  # noqa
from agents.crew_profile import load_profile
from bench.evolve_space import CrewConfig
from bench.humaneval import load_problems
from bench.humaneval_exec import grade
from bench.humaneval_modes import solve_crew
from models.engine import Engine, EngineSettings, GenerationSettings
from models.model_path import resolve_model

out = sys.argv[1]
winner = load_profile(sys.argv[2])
problems = load_problems()
engine = Engine(resolve_model("qwen2.5-coder-0.5b-q4_k_m"), EngineSettings(n_ctx=4096, seed=1234))
engine.load()
crews = {"hand-tuned": CrewConfig().settings(), winner.name: winner.settings()}
gen = GenerationSettings(temperature=0.0, repeat_penalty=1.0, seed=1234)
with open(out, "w") as fh:
    for i in range(0, 82, 9):
        for name, s in crews.items():
            sol = solve_crew(engine, problems[i], gen, s.rounds, rules=s.rules, crew=s)
            row = {"index": i, "crew": name, "passed": grade(problems[i], sol.program).passed,
                   "seconds": round(sol.seconds, 2), "tokens": sol.tokens, "llm_calls": sol.llm_calls,
                   "rounds": sol.rounds, "prompt_tokens_evaluated": sol.prompt_tokens_evaluated}
            fh.write(json.dumps(row) + "\n"); fh.flush(); print(row, flush=True)
engine.close()
