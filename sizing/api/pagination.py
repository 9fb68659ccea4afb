"""Page-number pagination that refuses a page or page size that is not a whole number (400)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from sizing.services.quotas import quota_usage
from sizing.users import signed_in_user


class Pagination(PageNumberPagination):
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        errors = {}
        for name, top in ((self.page_query_param, None), (self.page_size_query_param, self.max_page_size)):
            raw = request.query_params.get(name)
            if raw is None:
                continue
            if not raw.isdigit() or int(raw) < 1 or (top is not None and int(raw) > top):
                limit = f"1..{top}" if top else "1 or more"
                errors[name] = [f"Must be a whole number, {limit}."]
        if errors:
            raise ValidationError(errors)
        self.view = view
        return super().paginate_queryset(queryset, request, view)

    def get_paginated_response(self, data: Any) -> Response:
        """The page, and where the view keeps a quota (``list_quota``), the quota as used / allowed."""
        response = super().get_paginated_response(data)
        name = getattr(getattr(self, "view", None), "list_quota", None)
        if name is not None:
            usage = quota_usage(owner_id=signed_in_user(self.request).pk, name=name)  # type: ignore[arg-type]
            response.data = {"count": response.data["count"], "quota": usage.to_dict(), **response.data}
        return response

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        out = super().get_paginated_response_schema(schema)
        out["properties"]["quota"] = {
            "type": "object",
            "description": "lists of what is stored per user: the quota, used / allowed, and its setting",
            "properties": {
                "name": {"type": "string"},
                "used": {"type": "integer"},
                "allowed": {"type": "integer"},
                "setting": {"type": "string"},
            },
            "required": ["name", "used", "allowed", "setting"],
            "additionalProperties": False,
        }
        return out

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"]["maximum"] = self.max_page_size
        return parameters
