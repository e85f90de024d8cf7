# make demo: create .venv if missing, install the toolkit, run `discover wythoff`.
# make test: create .venv if missing, install with the test extras, run the whole suite.
# Installs re-run only when pyproject.toml changes (stamp files inside .venv).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip install --quiet --disable-pip-version-check

.PHONY: demo test clean

demo: $(VENV)/.installed
	$(VENV)/bin/discover wythoff

test: $(VENV)/.installed-test
	$(PY) -m pytest -n 2 -q

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PIP) -e .
	touch $@

# the test extras include everything the plain install has, so they satisfy `demo` too
$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PIP) -e '.[test]'
	touch $@ $(VENV)/.installed

clean:
	rm -rf $(VENV) .pytest_cache
