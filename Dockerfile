# claimcheck: the Discord bot (and the CLI) in a small image.
#   docker build -t claimcheck .
#   docker run -d --name claimcheck -e CLAIMCHECK_TOKEN=... -v claimcheck-data:/data claimcheck
#   docker run --rm claimcheck audit --example          # the CLI, same image
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    MPLBACKEND=Agg MPLCONFIGDIR=/tmp/matplotlib \
    CLAIMCHECK_DB_PATH=/data/claimcheck.sqlite3
WORKDIR /app
COPY pyproject.toml README.md ./
COPY checks ./checks
COPY extractors ./extractors
COPY bot ./bot
# The same install as the README's: `pip install .`
RUN pip install . \
    && useradd --create-home --uid 10001 claimcheck \
    && mkdir -p /data && chown claimcheck:claimcheck /data
USER claimcheck
# The store (fetched pages, audits, guild settings, digests): keep it on a volume.
VOLUME ["/data"]
ENTRYPOINT ["claimcheck"]
CMD ["bot"]
