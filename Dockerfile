# syntax=docker/dockerfile:1
# Desk Atlas: the API server (bundled) and the pipeline (run as a job) in one image.
# `docker build -t desk-atlas .`; compose.yaml builds it and runs N replicas (`--scale api=N`).
# test/deploy/image.test.ts builds it without a daemon: the context as .dockerignore leaves it,
# each COPY as written, each RUN in the stage's own root, then starts the server and the job.
# npm ci works here: the image installs from the public registry for linux-x64 only, where every
# optional DuckDB binary npm ci asks for exists (the README explains why `make install` uses npm install).
ARG NODE_IMAGE=node:20-bookworm-slim

# Compilers for native modules (better-sqlite3) in case no prebuilt binary matches; build stages only.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./

# The pipeline compiled to JavaScript (dist/app), the server bundled (dist/server) with the kernels' WebAssembly, with the dev dependencies (TypeScript, esbuild, WABT).
FROM toolchain AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY contract ./contract
COPY pipeline ./pipeline
COPY api ./api
RUN npm run --silent build

# Runtime dependencies only.
FROM toolchain AS deps
RUN npm ci --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DIST_DIR=/srv/dist \
    LEADS_DB=/srv/var/leads.db \
    LEADS_MAIL_SPOOL=/srv/mail
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist/app ./dist/app
COPY --from=build /app/dist/server ./dist/server
# the pipeline job runs compiled too (`npm run data`); data/ is the sample snapshot
COPY package.json ./
COPY data ./data
# named volumes mounted here start with this ownership
RUN mkdir -p /srv/dist /srv/var /srv/mail && chown node:node /srv/dist /srv/var /srv/mail
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--no-concurrent-recompilation", "--no-allocation-site-pretenuring", "--max-semi-space-size=32", "dist/server/server.js"]
