# Permit Desk — set-up, run, test, bench, lint.
# `make run` and `make test` do all the set-up on a fresh machine.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Debian packages the app needs at run time (Qt offscreen/xcb, fonts) and for looking at PDFs.
# Qt 6's xcb platform plugin (the X11 desktop) will not load without the libxcb-* ones; xvfb and
# xauth give the tests a real X display (tests/ui/test_real_display.py).
DEB_PKGS := fonts-dejavu-core libegl1 libgl1 libfontconfig1 libxkbcommon0 libxkbcommon-x11-0 \
            libdbus-1-3 poppler-utils \
            libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 \
            libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 \
            xvfb xauth

.PHONY: run test bench lint format sysdeps install clean package

$(STAMP): pyproject.toml
	@$(MAKE) --no-print-directory sysdeps
	@test -x $(BIN)/python || $(PY) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

# Installs missing Debian packages when we are root (CI and the dev machines); otherwise says what is missing.
sysdeps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
	    echo "Installing Debian packages:$$missing"; \
	    for try in 1 2 3 4; do \
	      apt-get -o DPkg::Lock::Timeout=120 update -qq \
	        && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 install -y -qq $$missing >/dev/null \
	        && break; \
	      [ $$try = 4 ] && { echo "apt-get install failed for:$$missing"; exit 1; }; \
	      echo "apt-get is busy (another install?); trying again"; sleep 15; \
	    done; \
	  else echo "Please install these Debian packages:$$missing"; fi; \
	fi

run: $(STAMP)
	$(BIN)/permitdesk gui

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy desk db permitdesk ui reports bench

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# One worker per core; a test file stays on one worker (its module fixtures are built once), and
# each worker makes its own PostgreSQL database (tests/conftest.py).
test: $(STAMP) lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -n auto --dist loadfile

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m bench.run

# The one-folder app in dist/PermitDesk (on Windows, installer.iss then makes the installer).
package: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[package]'
	$(BIN)/pyinstaller --noconfirm --distpath dist --workpath build/pyinstaller packaging/permitdesk.spec

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist *.egg-info
