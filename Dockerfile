# syntax=docker/dockerfile:1
# Bagh server image: builds the whole workspace, then keeps only the server's production files.
#   docker build -t bagh .        docker compose up --build   (see docker-compose.yml)

# --- build: every package, with the toolchain better-sqlite3 needs --------------------------------
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
RUN npm i -g pnpm@10
WORKDIR /src
# Manifests first, so the dependency layer is reused while only sources change.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY packages/rules/package.json packages/rules/
COPY packages/protocol/package.json packages/protocol/
COPY packages/engine/package.json packages/engine/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm build
# The server with its production dependencies only (workspace packages copied in, built).
RUN pnpm --filter @bagh/server deploy --prod --legacy /out \
 && rm -rf /out/src /out/test /out/bench /out/support /out/dist-bench /out/tsconfig*.json /out/vitest.config.ts

# --- runtime: node, the server, the web build; no compiler, no dev dependencies -----------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    WEB_DIST=/app/web
WORKDIR /app/server
COPY --from=build --chown=node:node /out /app/server
COPY --from=build --chown=node:node /src/apps/web/dist /app/web
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.js"]
