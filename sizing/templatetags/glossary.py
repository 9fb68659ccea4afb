"""``{% term "MSU" %}`` or ``{% term "CP" "CPs" %}``: a word with its glossary definition.

The word is focusable (``tabindex="0"``) and described by its tooltip (``role="tooltip"``,
``aria-describedby``): the definition shows on hover and on keyboard focus (CSS), and on tap
(``frontend/static/zsizer/glossary.js`` toggles it; Escape closes it).  Definitions come from
``sizing.glossary``, the one source docs/glossary.md is checked against.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from sizing import glossary

register = template.Library()


@register.simple_tag(takes_context=True)
def term(context: Any, name: str, text: str = "") -> SafeString:
    entry = glossary.term(name)
    counter = context.render_context.get("glossary_count", 0) + 1
    context.render_context["glossary_count"] = counter
    tip = f"term-tip-{counter}"
    return format_html(
        '<span class="term" tabindex="0" data-term="{}" aria-describedby="{}">{}'
        '<span class="term-tip" role="tooltip" id="{}">{}</span></span>',
        entry.term,
        tip,
        text or entry.term,
        tip,
        entry.sentence,
    )
