# The Vigencia image: API (`vigencia serve`) and dashboard (`vigencia dashboard`).
FROM python:3.11-slim

# PYTHONPATH: import the code from /app rather than site-packages, so settings and the
# dashboard find the bundled data/ and dashboard/ next to the package.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app

WORKDIR /app
COPY . .
RUN pip install . \
    && useradd --create-home --uid 10001 vigencia \
    && mkdir -p /app/var \
    && chown vigencia /app/var

USER vigencia
EXPOSE 8000 8501
CMD ["vigencia", "serve", "--host", "0.0.0.0", "--port", "8000"]
