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
# OpenCV, which the OCR extra's RapidOCR loads, needs libGL and glib at import time.
RUN apt-get update && apt-get install -y --no-install-recommends libgl1 libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/*
# The same install as the README's: `pip install .`, plus screenshot reading (the `ocr` extra,
# whose OCR models ship in the wheel: nothing is downloaded at run time).
RUN pip install . \
    && pip install '.[ocr]' \
    && useradd --create-home --uid 10001 claimcheck \
    && mkdir -p /data && chown claimcheck:claimcheck /data
USER claimcheck
# The store (fetched pages, audits, guild settings, digests): keep it on a volume.
VOLUME ["/data"]
ENTRYPOINT ["claimcheck"]
CMD ["bot"]
