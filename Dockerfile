# syntax=docker/dockerfile:1
# One image for the three services; docker-compose.yml picks the command per service:
#   bff (default), worker, renderer; `bff migrate` applies the migrations and exits.

# --- UI: ui/dist ------------------------------------------------------------------------------
FROM node:22-bookworm-slim AS ui
WORKDIR /src/ui
ENV CI=true NO_UPDATE_NOTIFIER=1
COPY ui/package.json ui/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY ui/ ./
# Shared fixtures and the design schema live beside ui/.
COPY schema/ /src/schema/
RUN npm run build

# --- Go: bff, worker (static, CGO off) and renderer (CGO on) ----------------------------------
# The renderer's WebP encoder is the libwebp that github.com/chai2010/webp bundles as C sources: it
# needs cgo at build time (gcc is in this image) and only glibc at run time (bookworm, as below).
FROM golang:1.26-bookworm AS go
WORKDIR /src
ENV GOFLAGS=-trimpath
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -ldflags="-s -w" -o /out/bff ./bff/cmd/bff \
 && CGO_ENABLED=0 go build -ldflags="-s -w" -o /out/worker ./worker/cmd/worker \
 && CGO_ENABLED=1 go build -ldflags="-s -w" -o /out/renderer ./renderer/cmd/renderer \
 && CGO_ENABLED=0 go build -ldflags="-s -w" -o /out/storefront ./storefront/cmd/storefront

# --- runtime ----------------------------------------------------------------------------------
FROM debian:bookworm-slim
# Chromium and fonts for the renderer (3D mockups, text), curl for the health checks,
# tini to reap Chromium's children.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates curl tini chromium \
      fonts-roboto-unhinted fonts-liberation fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /var/lib/pressroom --create-home --shell /usr/sbin/nologin pressroom
COPY --from=go /out/ /usr/local/bin/
COPY --from=ui /src/ui/dist/ /usr/share/pressroom/ui/
ENV PRESSROOM_ENV=production \
    PRESSROOM_HTTP_ADDR=0.0.0.0:8080 \
    PRESSROOM_RENDERER_HTTP_ADDR=127.0.0.1:8081 \
    PRESSROOM_DATA_DIR=/var/lib/pressroom \
    PRESSROOM_UI_DIR=/usr/share/pressroom/ui \
    PRESSROOM_CHROMIUM_PATH=/usr/bin/chromium \
    PRESSROOM_LOG_LEVEL=info \
    PRESSROOM_LOG_FORMAT=json
USER pressroom
WORKDIR /var/lib/pressroom
VOLUME ["/var/lib/pressroom"]
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["bff"]
