"""How production stores static files: hashed names, compressed copies, nothing else.

* ``StaticStorage``: WhiteNoise's compressed manifest storage, with the JavaScript modules'
  ``import ... from "./api.js"`` rewritten to the hashed names too, so only hashed files need
  be kept (``WHITENOISE_KEEP_ONLY_HASHED_FILES``) and every file a page loads is immutable.
* ``StaticFilesConfig``: ``django.contrib.staticfiles`` without ReDoc's bundle (the API docs are
  Swagger UI; ReDoc is never served), which would double the compression work.
"""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles.apps import StaticFilesConfig as DjangoStaticFilesConfig
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

BROTLI_QUALITY = 9


class _Compressor(Compressor):  # type: ignore[misc]
    @staticmethod
    def compress_brotli(data: bytes) -> bytes:
        # plotly's full bundle (4.8 MB): quality 11 (brotli's default) 15.5 CPU-s -> 1.11 MB; quality 9
        # 1.9 s -> 1.23 MB; gzip -9 0.24 s -> 1.47 MB (measured here).  Brotli is used only
        # where the package is installed; gzip copies are always written.
        import brotli

        return bytes(brotli.compress(data, quality=BROTLI_QUALITY))


class StaticStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    support_js_module_import_aggregation = True

    def create_compressor(self, **kwargs: Any) -> Compressor:
        return _Compressor(**kwargs)


class StaticFilesConfig(DjangoStaticFilesConfig):
    ignore_patterns = [*DjangoStaticFilesConfig.ignore_patterns, "drf_spectacular_sidecar/redoc/*"]
