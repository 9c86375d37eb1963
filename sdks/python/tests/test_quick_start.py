"""The README's quick start is examples/quick_start.py, verbatim, and it runs: it prints the code."""
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_readme_quick_start_is_the_example_and_prints_the_code(base_url, api_key):
    example = (ROOT / "examples" / "quick_start.py").read_text()
    assert f"```python\n{example}```" in (ROOT / "README.md").read_text()
    env = {**os.environ, "SERVICE_API_KEY": api_key, "LATCHKEY_BASE_URL": base_url}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "quick_start.py")], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "code: 246810" in done.stdout
