# syntax=docker/dockerfile:1
# Build: compile TypeScript, the web app (Vite) and the embedded database's template with the dev
# dependencies; run: production dependencies only. Scripts are skipped at install: `prepare`
# does the same build, done here explicitly once the sources are in place.

FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
COPY scripts ./scripts
COPY web ./web
RUN npm run build && npm run build:web && node scripts/pglite-template.mjs

FROM node:22-slim AS run
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
# The production install is 632 MB, and the server reads a small part of it: source maps are
# 241 MB, @tensorflow/tfjs ships every browser bundle, and the face and OCR libraries ship builds
# for every platform, demos and models the service never loads. The prune step keeps of those only
# what the server loads, drops source maps and TypeScript files everywhere, and removes tsx and
# esbuild (the image runs dist/, never src/): node_modules 632 -> 161 MB, the image 853 -> 403 MB,
# the reasons per package in scripts/prune-image.mjs. It runs in the install's own layer, or the
# removed files would still be in the image, in the layer below. The lockfile and `npm ci` are untouched; `npm run test:container` loads every
# engine from the pruned image (scripts/container/engines-check.mjs).
COPY scripts/prune-image.mjs /tmp/prune-image.mjs
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && node /tmp/prune-image.mjs node_modules && rm /tmp/prune-image.mjs \
  && npm cache clean --force
# dist holds the server, the web app (dist/web) and the partner client (dist/client).
COPY --from=build /app/dist ./dist
COPY migrations ./migrations
COPY bin ./bin
# The embedded database and the blob store live under DATA_DIR: a volume owned by the app user.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.js"]
