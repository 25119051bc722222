# claimcheck: the CLI (and, later, the Discord bot) in a small image.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY checks ./checks
COPY extractors ./extractors
COPY bot ./bot
RUN pip install . && useradd --create-home claimcheck
USER claimcheck
# The fetch cache lives in the user's data dir; mount a volume there to keep it.
VOLUME ["/home/claimcheck/.local/share/claimcheck"]
ENTRYPOINT ["claimcheck"]
CMD ["audit", "--example"]
