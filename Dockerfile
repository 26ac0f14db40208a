# The bot in a container: `docker build -t rummikub .` then see compose.yaml, or
#   docker run --env-file .env -v rummikub-data:/data -p 127.0.0.1:9464:9464 rummikub
# Official Python slim base, the locked install (requirements/run.txt, hashes checked), the
# solver compiled with mypyc in a build stage, a non-root user, HEALTHCHECK on /healthz.
FROM python:3.11-slim AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY requirements/run.txt requirements/run.txt
RUN python -m venv /opt/rummikub \
 && /opt/rummikub/bin/pip install --require-hashes -r requirements/run.txt
COPY pyproject.toml setup.py README.md ./
COPY engine engine
COPY renderers renderers
COPY storage storage
COPY bot bot
RUN /opt/rummikub/bin/pip install --no-deps --no-build-isolation .

FROM python:3.11-slim
RUN useradd --system --uid 10001 --user-group --home-dir /data --create-home rummikub
COPY --from=build /opt/rummikub /opt/rummikub
ENV PATH=/opt/rummikub/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/rummikub.db \
    METRICS_LISTEN=0.0.0.0 \
    METRICS_PORT=9464 \
    WEB_LISTEN=0.0.0.0
USER rummikub
WORKDIR /data
VOLUME ["/data"]
EXPOSE 9464 8480
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ['METRICS_PORT'], timeout=4)"]
CMD ["rummikub", "run"]
