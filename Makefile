# Desk Atlas — every command a developer or a scheduler needs. `make help` lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NPM ?= npm
# a test's time limit guards against hangs only: the pipeline's kill-and-rebuild tests take up to
# 2 minutes on a loaded machine
NODE_TEST := node --import tsx --test --test-concurrency=1 --test-timeout=300000

## install: install dependencies as locked (npm install, not npm ci: the registry mirror here lacks other platforms' optional DuckDB binaries, which npm ci insists on)
node_modules/.install-stamp: package.json package-lock.json
	$(NPM) install --no-audit --no-fund
	@touch $@
install: node_modules/.install-stamp

## system-deps: Debian packages the tests use (redis-server for the shared rate limit, chromium and a font for the page tests: the charts are measured in it); apt-get as root, only what is missing
SYSTEM_DEPS := /usr/bin/redis-server:redis-server /usr/bin/chromium:chromium /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:fonts-dejavu-core
system-deps:
	@missing="$(foreach d,$(SYSTEM_DEPS),$(if $(wildcard $(word 1,$(subst :, ,$(d)))),,$(word 2,$(subst :, ,$(d)))))"; \
	if [ -n "$${missing// /}" ]; then \
	  if [ "$$(id -u)" != 0 ]; then echo "make system-deps: need root to apt-get install$$missing" >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

## kernels: assemble the engine's WebAssembly kernels, api/catalog/kernels/*.wat, with WABT into the .wasm beside each (git-ignored), which the engine reads: a prerequisite of every target that runs it
KERNELS := $(patsubst %.wat,%.wasm,$(wildcard api/catalog/kernels/*.wat))
$(KERNELS): %.wasm: %.wat node_modules/.install-stamp scripts/kernels.ts
	$(NPM) run --silent kernels -- $<
kernels: $(KERNELS)

## build: compile the pipeline to JavaScript in dist/app and bundle the API server into dist/server (what make data and make serve run: they start faster than under tsx)
dist/server/server.js: node_modules/.install-stamp tsconfig.json tsconfig.build.json scripts/bundle-server.ts $(shell find contract pipeline api -name '*.ts' -o -name '*.md' -o -name examples.json -o -name '*.eta' -o -name '*.sql' -o -name '*.wat')
	$(NPM) run --silent build
build: kernels dist/server/server.js

## start: install, build the sample data, serve the API (the one command for a fresh machine)
start: install data serve

# The pipeline's input snapshot and the directory that holds builds/ and current (make data DATA=DIR DIST=DIR).
DATA ?= data
DIST ?= $(or $(DIST_DIR),dist)

## data: run the nightly pipeline on DATA (default data/) and publish DIST/current (default dist/, or DIST_DIR); ALLOW_SHRINK=1 (or ARGS=--allow-shrink) publishes although a table shrank beyond its volume guard
data: install build
	$(NPM) run --silent data -- --data $(DATA) --dist $(DIST) $(if $(filter 1 true yes,$(ALLOW_SHRINK)),--allow-shrink) $(ARGS)

## serve: serve DIST/current on PORT (default 3000); compiles the server if its sources changed, never rebuilds the data
serve: install build
	DIST_DIR=$(DIST) $(NPM) run --silent serve

## test: install, type-check, lint the OpenAPI description, build the server, run every test
test: install system-deps typecheck lint-openapi build
	$(NODE_TEST) $$(find test -name '*.test.ts' -not -path 'test/bench/*' | sort)

## check: the fast inner loop: type-check, lint the OpenAPI description, run the unit tests (no system packages, browser, database or server process; scripts/unit-tests.ts picks them by their imports)
check: install typecheck lint-openapi kernels
	$(NODE_TEST) $$(node --import tsx scripts/unit-tests.ts)

## typecheck: strict TypeScript check of the whole tree
typecheck: install
	$(NPM) run --silent typecheck

## lint-openapi: Spectral (spectral:oas, .spectral.yaml) on api/openapi/openapi.json; fails on any error
lint-openapi: install
	npx --no-install spectral lint -q --fail-severity=error --ruleset .spectral.yaml api/openapi/openapi.json

## openapi: regenerate api/openapi/examples.json (from a build of data/) and api/openapi/openapi.json (from the routes and zod schemas); commit both
openapi: install kernels
	$(NPM) run --silent openapi

## generate: regenerate the committed sample snapshot in data/ (seeded, deterministic)
generate: install
	$(NPM) run --silent generate

## bench: the benchmark table at 100,000 spaces: pipeline, server start-up and RSS, API with caches off and on (ARGS="--duration 3 --rows list,detail --reuse-build")
bench: install build
	$(NPM) run --silent bench -- $(ARGS)

## bench-1m: the same table at 1,000,000 spaces (writes ~3 GB of input once; reports what does not fit this machine)
bench-1m: install build
	$(NPM) run --silent bench -- --spaces 1000000 $(ARGS)

## leads: operator CLI for enquiries (make leads ARGS="list")
leads: install
	$(NPM) run --silent leads -- $(ARGS)

## mcp: the read-only MCP server over stdio for a local client, on DIST/current (the HTTP server offers the same at /mcp)
mcp: install kernels
	@DIST_DIR=$(DIST) $(NPM) run --silent mcp

## help: list the targets
help:
	@grep -E '^## ' $(MAKEFILE_LIST) | sed 's/^## /  make /'

.PHONY: system-deps install kernels build start data serve test check typecheck lint-openapi openapi generate bench bench-1m leads mcp help
