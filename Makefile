# make demo: create .venv if missing, install the toolkit, run `discover wythoff`.
# make test: create .venv if missing, install with the test extras, check the import layers, run the whole suite.
# make test-fast: the daily loop: the same without the tests marked slow (larger bounds).
# Installs re-run only when pyproject.toml changes (stamp files inside .venv).
# torch is installed first and pinned: left to resolve it alone, pip would pull several GB of CUDA packages.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip install --quiet --disable-pip-version-check
TORCH  := torch==2.13.0

.PHONY: demo test test-fast clean

demo: $(VENV)/.installed
	$(VENV)/bin/discover wythoff

test: $(VENV)/.installed-test
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -n 2 -q

test-fast: $(VENV)/.installed-test
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -n 2 -q -m "not slow"

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PIP) $(TORCH)
	$(PIP) -e .
	touch $@

# the test extras include everything the plain install has, so they satisfy `demo` too
$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PIP) $(TORCH)
	$(PIP) -e '.[test]'
	touch $@ $(VENV)/.installed

clean:
	rm -rf $(VENV) .pytest_cache
