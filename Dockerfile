# zsizer application image: the web app (gunicorn) and the Celery worker share it.
# Production settings by default: DJANGO_SECRET_KEY, DATABASE_URL and CELERY_BROKER_URL must be
# given at run time (config/settings/production.py refuses to start without them).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production
WORKDIR /app

COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY . .
# Hashed, gzip-compressed static files (plotly.js included) into STATIC_ROOT.  collectstatic
# touches neither database nor broker: the URLs below only satisfy the settings' checks.
RUN DJANGO_SECRET_KEY=build-only-not-a-secret-build-only-not-a-secret-build-only \
    DATABASE_URL=postgres://build@localhost/build CELERY_BROKER_URL=redis://localhost:6379/0 \
    python manage.py collectstatic --noinput
RUN useradd --system --home /app zsizer && chown -R zsizer /app
USER zsizer

EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=5 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz/live', timeout=4)"
# config/gunicorn.py: gthread workers with keep-alive (WEB_CONCURRENCY x ZSIZER_GUNICORN_THREADS), docs/speed.md.
CMD ["gunicorn", "-c", "config/gunicorn.py", "config.wsgi:application", "--bind", "0.0.0.0:8000"]
