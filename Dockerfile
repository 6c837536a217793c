# cchain-node: a local Avalanche C-Chain node in a container.
#   docker build -t cchain-node .
#   docker run --rm -p 127.0.0.1:9650:9650 -v cchain-data:/data cchain-node
# Inside the container the node listens on all interfaces (so the published port reaches it);
# publish it on 127.0.0.1 as above unless other machines should reach the node.

# ---- build: install all dependencies, compile TypeScript, then drop dev dependencies
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The tests' tools' local package (a devDependency that npm ci links; pruned below with the rest).
COPY test/tools/package.json ./test/tools/
# classic-level, secp256k1 and keccak load the prebuilt linux binaries they ship; no install scripts
# (and so no compiler) are needed, and `prepare` runs below once the sources are in.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY scripts ./scripts
COPY explorer ./explorer
RUN npm run build && npm prune --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund

# ---- runtime: production dependencies, compiled JavaScript and the default genesis only
FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist/src ./dist/src
# The explorer (docs/EXPLORER.md): its compiled scripts and its page, style sheet and icon. It is off
# here (--http-host 0.0.0.0 is not loopback) unless the command line adds --explorer-enabled.
COPY --from=build --chown=root:root /app/dist/explorer ./dist/explorer
COPY --chown=root:root explorer/index.html explorer/explorer.css explorer/favicon.svg ./explorer/
COPY --chown=root:root config ./config
# The application files stay root-owned and read-only to the node; only /data is writable by it
# (a named volume takes this ownership; a bind-mounted host directory must be writable by uid cchain).
RUN groupadd --system cchain && useradd --system --gid cchain --home-dir /data --shell /usr/sbin/nologin cchain \
 && mkdir -p /data && chown cchain:cchain /data
USER cchain
VOLUME /data
EXPOSE 9650
# exec form: the node is PID 1 and receives SIGTERM from `docker stop`, and shuts down cleanly.
CMD ["node", "dist/src/main.js", "--http-host", "0.0.0.0", "--data-dir", "/data"]
