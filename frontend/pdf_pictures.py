"""Pictures of the PDF reports (``make screenshot``, or ``make pdf-pictures`` for these alone):
``docs/pictures/<name>.png``, one page of every kind of PDF the app hands over.

On ``screenshot.running_app``'s app (the embedded default, ``frontend/page_corpus.py``'s content
stored), ``build`` asks the app's API, as the signed-in engineer "Ada Lovelace" preparing them
for :data:`CUSTOMER`, for each PDF: the corpus's estimates (and the one without CPU data, saved
here), an estimate from the corpus's calibration, a comparison, a job of every kind (run
in-process by the real engine, as the jobs panel's Start does without a broker), the corpus's
plan and a placement into the corpus's machine.  Each named page is drawn by poppler's
``pdftoppm`` at :data:`DPI` and reduced to 256 colours.  docs/pictures/README.md says what each
shows; look at every one as a customer would after a change to a report.

``python frontend/pdf_pictures.py job-batch-pdf-page1`` redraws only the pictures named.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from frontend.page_corpus import NAMES, SCENARIOS  # noqa: E402 (the repository on the path first)

DPI = 75  # A4 at 620 x 877 px: the body's 9 pt text readable
CUSTOMER = "Bank A"
AUTHOR = ("Ada", "Lovelace")

#: picture name: (the PDF it is a page of, the page: 1-based, -1 the last)
PICTURES: dict[str, tuple[str, int]] = {
    "estimate-pdf-fits-page1": ("estimate-fits", 1),
    "estimate-pdf-fits-last-page": ("estimate-fits", -1),
    "estimate-pdf-overloaded-page1": ("estimate-overloaded", 1),
    "estimate-pdf-does-not-fit-page1": ("estimate-does-not-fit", 1),
    "estimate-pdf-lower-bound-page1": ("estimate-lower-bound", 1),
    "estimate-pdf-no-cpu-data-page1": ("estimate-no-cpu", 1),
    "calibration-pdf-page1": ("calibration", 1),
    "comparison-pdf-page1": ("comparison", 1),
    **{f"job-{kind}-pdf-page1": (f"job-{kind}", 1) for kind in ("curve", "closed", "montecarlo", "optimize", "mix")},
    "job-batch-pdf-page1": ("job-batch", 1),
    "job-batch-pdf-page2": ("job-batch", 2),  # the scenarios' table
    "plan-pdf-page1": ("plan", 1),
    "cec-placement-pdf-page1": ("cec-placement", 1),
}

FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region"}
#: A batch with a row of each status and generations of both specialty engines (zAAP on the z10
#: and zEC12, zIIP on the z13 and z16).
BATCH = """name,path,configuration,machine,tps
Branch A,fiteq-authenticator,multi-region,z16,7000
API layer,zosconnect-cics,channel,z16,3000
Gateway,hostbridge-http,default-tcpip,z13,100
Peak on the z10,fiteq-authenticator,multi-region,z10,60000
Catalog,cicstg,ipic-channel-64,zec12,3000
Typo,fiteq-authenticator,multi-region,z16,-5
"""
#: A job of each kind, as the jobs panel would send it.
JOBS: dict[str, dict[str, Any]] = {
    "curve": {**FITEQ, "machine": "zec12", "tps": 2000, "cps_list": [4, 6]},  # a zAAP generation
    "closed": {
        **FITEQ,
        "machine": "z16",
        "cps": 6,
        "clients": [10, 4000, 8000, 12000, 16000],
        "think_time_s": 1.0,
        "response_time_sla_ms": 20,
    },
    "montecarlo": {**FITEQ, "machine": "z16", "tps": 7000, "samples": 500, "seed": 3, "response_time_sla_ms": 10},
    "optimize": {
        "path": "cicstg",
        "configuration": "ipic-channel-64",
        "machine": "z13",
        "tps": 3000,
        "costs": {"gcp": 1.0, "ziip": 0.3},
    },
    "mix": {
        "machine": "z16",
        "workloads": [
            {**FITEQ, "tps": 3000},
            {"path": "zosconnect-cics", "configuration": "channel", "tps": 1000},
        ],
    },
    "batch": {"csv": BATCH},
}
#: z/OS Connect at 2,000 TPS into the corpus machine's PROD LPAR (a z15 T01).
PLACEMENT = {"lpar": "PROD", "workloads": [{"path": "zosconnect-cics", "configuration": "channel", "tps": 2000}]}


def build(ids: dict[str, int], folder: str) -> None:
    """In the app (``manage.py shell``): write ``folder/<pdf>.pdf`` for every PDF of PICTURES."""
    from django.contrib.auth import get_user_model
    from django.test import override_settings
    from rest_framework.test import APIClient

    user = get_user_model().objects.get(username="presales")
    user.first_name, user.last_name = AUTHOR
    user.save()
    client = APIClient()
    client.force_authenticate(user)
    customer = urlencode({"customer": CUSTOMER})

    def made(response: Any) -> int:
        assert response.status_code in (200, 201, 202), (response.status_code, response.content[:500])
        return int(response.json()["id"])

    def save(name: str, response: Any) -> None:
        assert response.status_code == 200 and response.content.startswith(b"%PDF-"), (name, response.content[:500])
        (Path(folder) / f"{name}.pdf").write_bytes(response.content)

    def get(name: str, url: str) -> None:
        save(name, client.get(f"{url}{'&' if '?' in url else '?'}{customer}"))

    with override_settings(ALLOWED_HOSTS=["testserver"]):
        estimates = {kind: ids[kind] for kind in SCENARIOS if kind in ids}
        no_cpu = {**SCENARIOS["no-cpu"], "name": NAMES["no-cpu"]}  # the corpus does not save it
        estimates["no-cpu"] = made(client.post("/api/v1/estimates/", no_cpu, format="json"))
        for kind, pk in estimates.items():
            get(f"estimate-{kind}", f"/api/v1/estimates/{pk}/report.pdf")
        calibrated = {"calibration": ids["calibration"], "machine": "z16", "tps": 7000, "name": "Bank A on a z16"}
        get(
            "calibration",
            f"/api/v1/estimates/{made(client.post('/api/v1/estimates/', calibrated, format='json'))}/report.pdf",
        )
        # a fit on a z17, a z10 that does not fit (zAAPs) and a z13 at a lower bound (zIIPs)
        trio = ",".join(str(estimates[k]) for k in ("fits", "does-not-fit", "lower-bound"))
        get("comparison", f"/api/v1/estimates/report.pdf?ids={trio}")
        for kind, params in JOBS.items():
            pk = made(client.post("/api/v1/jobs/", {"kind": kind, "params": params}, format="json"))
            deadline = time.monotonic() + 600
            while (job := client.get(f"/api/v1/jobs/{pk}/").json())["status"] in ("queued", "running"):
                assert time.monotonic() < deadline, (kind, job)  # a thread of this process runs it
                time.sleep(0.5)
            assert job["status"] == "succeeded", (kind, job)
            get(f"job-{kind}", f"/api/v1/jobs/{pk}/report.pdf")
        get("plan", f"/api/v1/plans/{ids['plan']}/report.pdf")
        save("cec-placement", client.post(f"/api/v1/cecs/{ids['cec']}/place.pdf?{customer}", PLACEMENT, format="json"))


def _page_png(pdf: Path, page: int) -> bytes:
    if page < 0:
        info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
        page += 1 + int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    out = pdf.with_name(f"{pdf.stem}-{page}")
    subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-f", str(page), "-l", str(page), "-singlefile", str(pdf), str(out)], check=True)  # fmt: skip
    return out.with_suffix(".png").read_bytes()


def draw(app: Any, only: list[str]) -> list[Path]:
    """Every picture of PICTURES named in ``only`` (all by default) from ``app``'s PDFs."""
    from frontend.screenshot import PICTURES as FOLDER
    from frontend.screenshot import save_png

    wanted = [name for name in PICTURES if not only or name in only]
    if not wanted:
        return []
    written = []
    with tempfile.TemporaryDirectory(prefix="zsizer-pdfs-") as folder:
        app.manage("shell", "-c", f"from frontend.pdf_pictures import build; build({json.dumps(app.ids)}, {folder!r})")
        for name in wanted:
            pdf, page = PICTURES[name]
            save_png(_page_png(Path(folder) / f"{pdf}.pdf", page), FOLDER / f"{name}.png", max_height=10_000)
            written.append(FOLDER / f"{name}.png")
    return written


def main(only: list[str]) -> int:
    from frontend.screenshot import REPO, running_app

    with running_app() as app:
        written = draw(app, only)
    for path in written:
        print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
