"""The words a newcomer meets, each explained once.

One source for the pages (``{% term "MSU" %}`` in a template: the word with its definition on
hover, on keyboard focus and on tap; ``sizing/templatetags/glossary.py``,
``frontend/static/zsizer/glossary.js``) and for ``docs/glossary.md``, which
``tests/sizing/test_glossary.py`` holds to these definitions word for word.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    term: str
    expansion: str  # what the letters stand for ("" where the word is not an abbreviation)
    definition: str

    @property
    def sentence(self) -> str:
        """The definition as one tooltip reads it: the expansion first, where there is one."""
        return f"{self.expansion}: {self.definition}" if self.expansion else self.definition


TERMS: tuple[Term, ...] = (
    Term(
        "ETR",
        "External throughput rate",
        "the transactions completed per second as the workload's users see them; the rate you size for (TPS).",
    ),
    Term(
        "TPS",
        "Transactions per second",
        "the rate of work; the published benchmarks and this tool state it as the ETR.",
    ),
    Term(
        "CP",
        "Central processor",
        "the general-purpose engine (also GCP) that runs any z/OS work; software is priced on the capacity of the CPs. An LPAR "
        "needs at least one.",
    ),
    Term(
        "GCP",
        "General-purpose central processor",
        "another name for a CP, used beside the specialty engines (zIIP, zAAP) to say which pool.",
    ),
    Term(
        "zIIP",
        "IBM Z Integrated Information Processor",
        "a specialty engine that runs eligible work (Java, parts of TCP/IP and of z/OS Connect, "
        "for example) with no software charge; eligible work that finds no zIIP free runs on a CP. "
        "zIIPs are configured in a ratio to the CPs and run at full speed on sub-capacity models.",
    ),
    Term(
        "zAAP",
        "IBM System z Application Assist Processor",
        "the specialty engine for Java work on the z10 to the zEC12 and zBC12, in the place the zIIP "
        "takes on later machines; this tool names the generation's engine.",
    ),
    Term(
        "specialty engine",
        "",
        "a zIIP (or a zAAP on older machines): an engine for eligible work only, carrying no "
        "software charge, configured in a ratio to the CPs the machine's rules allow.",
    ),
    Term(
        "MIPS",
        "Millions of instructions per second",
        "a conventional measure of a machine's capacity, derived from IBM's LSPR ratings, used to "
        "compare machines and CP counts; not an instruction rate anyone measures.",
    ),
    Term(
        "MSU",
        "Millions of service units per hour",
        "IBM's measure of capacity that software is priced on: the MSU of the CPs installed, or the "
        "MSU the workload consumes on them; zIIPs and zAAPs carry none.",
    ),
    Term(
        "LSPR",
        "Large Systems Performance Reference",
        "IBM's capacity ratings of every IBM Z model; the capacity per engine falls as the engine "
        "count grows. This tool moves a cost measured on one machine and CP count to another with them.",
    ),
    Term(
        "CEC",
        "Central electronics complex",
        "the physical machine (a z16 A01, for example) with all its engines, shared by its LPARs.",
    ),
    Term(
        "LPAR",
        "Logical partition",
        "one of the machine's partitions, running one z/OS image on logical engines with a weight in "
        "each pool; the sizing is for the LPAR that runs the workload.",
    ),
    Term(
        "ICF",
        "Internal Coupling Facility",
        "an engine that runs a coupling facility (shared data between z/OS images) outside the "
        "LPAR; its busy is reported apart and never counted in the CPs sized.",
    ),
    Term(
        "model capacity identifier",
        "",
        "the machine type and model that names a machine's capacity, such as 3931-710: a z16 at "
        "full speed (7xx) with 10 CPs.",
    ),
    Term(
        "sub-capacity",
        "",
        "a model whose CPs run slower than full speed (4xx, 5xx and 6xx settings, midrange letters "
        "below Z), at a lower MSU and price; specialty engines still run at full speed.",
    ),
    Term(
        "CPU per transaction",
        "",
        "the CPU time one transaction costs, in CP-milliseconds: the busy CPs divided by the ETR.",
    ),
    Term(
        "utilisation ceiling",
        "",
        "the busiest the CPs may be at the target rate (0.85 of their capacity unless you say "
        "otherwise); the sizing takes the fewest CPs that stay under it.",
    ),
    Term(
        "saturation",
        "",
        "the rate at which a resource is busy all the time and queues grow without bound; the answer "
        "gives the rate at which the sized configuration saturates.",
    ),
    Term(
        "binding resource",
        "",
        "the resource that saturates first as the rate grows (the CPs, the CPs with the specialty "
        "engines, the software station or the client population) and so sets the most the "
        "configuration carries.",
    ),
    Term(
        "software station",
        "",
        "a queue fitted to a benchmark's published response times that stands for a limit outside "
        "the engines (a pool of channels, connections or regions); more CPs do not raise it.",
    ),
    Term(
        "knee",
        "",
        "the point of the response-time curve after which queueing makes the response time rise "
        "steeply; a sizing keeps the target rate below it.",
    ),
    Term(
        "peak-to-average",
        "",
        "the ratio of a workload's busiest interval to its average rate; a plan sizes each period's "
        "average times this ratio, the peak the machine must carry.",
    ),
    Term(
        "projection band",
        "",
        "the error assumed in the LSPR projection from the measured machine to the target, as a "
        "share (0.1 for ±10%); it widens every range.",
    ),
    Term(
        "RMF",
        "Resource Measurement Facility",
        "z/OS's measurement reports; the Workload Activity report's intervals (rate, CPU, response "
        "time) calibrate a sizing to your own system.",
    ),
)

BY_NAME: dict[str, Term] = {t.term.lower(): t for t in TERMS}


def term(name: str) -> Term:
    """The term named (case-insensitive); a ``KeyError`` naming it where there is none."""
    try:
        return BY_NAME[name.lower()]
    except KeyError:
        raise KeyError(f"no glossary term {name!r}; terms: {', '.join(t.term for t in TERMS)}") from None


def markdown() -> str:
    """docs/glossary.md as it must read (tests/sizing/test_glossary.py compares it)."""
    lines = [
        "# Glossary",
        "",
        "The words the pages, the answers and the docs use. The pages show the same definitions on a",
        "dotted word (hover, focus or tap); both come from `sizing/glossary.py`.",
        "",
    ]
    for t in TERMS:
        head = f"**{t.term}**" + (f" ({t.expansion})" if t.expansion else "")
        lines.append(f"- {head}: {t.definition}")
    return "\n".join(lines) + "\n"
