# Shared by scripts/*: create .venv if missing and install the project into it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.kernelbounds-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "installing kernelbounds into .venv (log: .venv/install.log)" >&2
  if ! { .venv/bin/python -m pip install --disable-pip-version-check --upgrade pip \
         && .venv/bin/python -m pip install --disable-pip-version-check -e ".[test]"; } > .venv/install.log 2>&1; then
    tail -30 .venv/install.log >&2
    echo "installation failed; see .venv/install.log" >&2
    exit 1
  fi
  touch "$stamp"
fi
# CaDiCaL (Debian's package) proves the rank refutations; the tests that run it need it.
if ! command -v cadical >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing the SAT solver cadical (log: .venv/install-cadical.log)" >&2
    { apt-get install -y cadical || { apt-get update && apt-get install -y cadical; }; } > .venv/install-cadical.log 2>&1 \
      || echo "cadical did not install (see .venv/install-cadical.log): the tests that run it are skipped" >&2
  else
    echo "cadical is not installed and cannot be installed here (apt-get as root): the tests that run it are skipped" >&2
  fi
fi
export PATH="$PWD/.venv/bin:$PATH"
export MPLBACKEND=Agg
