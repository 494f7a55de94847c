# a2a-conform as a container image: a static binary on an empty base, run
# as a non-root user. See docs/ci.md ("Container image").
#
#   docker build -t a2a-conform \
#     --build-arg VERSION=$(git describe --tags --always) \
#     --build-arg REVISION=$(git rev-parse HEAD) .
#   docker run --rm a2a-conform                      # scores builtin:reference
#   docker run --rm a2a-conform run --orchestrator http://host.docker.internal:9000/a2a-conform
#
# The image holds the harness only: an exec: orchestrator needs its own
# runtime, so build FROM an image that has it and COPY the binary in:
#   COPY --from=a2a-conform /usr/local/bin/a2a-conform /usr/local/bin/
#
# GO_IMAGE names the build stage's base (any image with Go 1.26 and a
# shell); the stamps go through -ldflags because a build from a context
# without .git has no VCS settings in its build info.
ARG GO_IMAGE=golang:1.26-bookworm

FROM ${GO_IMAGE} AS build
WORKDIR /src
# Modules first, so a source change keeps the download layer.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
ARG REVISION=
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X main.version=${VERSION} -X main.revision=${REVISION}" \
      -o /out/usr/local/bin/a2a-conform ./cmd/a2a-conform \
 && mkdir -p /out/etc /out/tmp /out/home/a2a-conform \
 && chmod 1777 /out/tmp \
 && echo 'a2a-conform:x:65532:65532:a2a-conform:/home/a2a-conform:/sbin/nologin' > /out/etc/passwd \
 && echo 'a2a-conform:x:65532:' > /out/etc/group \
 && chown 65532:65532 /out/home/a2a-conform \
 && /out/usr/local/bin/a2a-conform version

# The fleet writes its CA to $TMPDIR (/tmp) and makes its certificates in
# memory; it needs no system roots, shell or libc.
FROM scratch
COPY --from=build /out/ /
USER 65532:65532
WORKDIR /home/a2a-conform
ENV PATH=/usr/local/bin HOME=/home/a2a-conform TMPDIR=/tmp
ENTRYPOINT ["a2a-conform"]
CMD ["run"]
