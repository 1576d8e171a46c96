# Augur: the validation service and command-line tool.
#
#   docker build -t augur .
#   docker run -p 8080:8080 augur                  # embedded SQLite, in-process workers
#   docker run augur validate SPEC PROG            # the command-line tool
#
# Build stage: Go with the C toolchain and Z3's headers (the smt package
# links the system Z3 through cgo).
FROM golang:1.26-bookworm AS build
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libz3-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/augur ./cmd/augur

# Runtime stage: Debian with Z3's shared library only.
FROM debian:bookworm-slim
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libz3-4 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home /var/lib/augur --create-home augur
COPY --from=build /out/augur /usr/local/bin/augur
# The examples, submitted at start by the default command so that the
# dashboard shows verdicts at once.
COPY examples /usr/share/augur/examples
USER augur
WORKDIR /usr/share/augur
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD ["/usr/local/bin/augur", "version"]
ENTRYPOINT ["/usr/local/bin/augur"]
CMD ["serve", "--addr", ":8080", "--db", "sqlite:/var/lib/augur/augur.db", "--examples"]
