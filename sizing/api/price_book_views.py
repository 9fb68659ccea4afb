"""Your price book: one per user, read, replaced (PUT) and removed at ``/api/v1/price-book``.

One resource per user rather than a collection: a spreadsheet that keeps the prices PUTs the
whole book and GETs it back, with no id to remember.  Every cost the app shows (an estimate's
``cost``, the ``least-cost`` objective of estimates, jobs and plans) comes from this book only.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from sizing.api.estimate_serializers import ErrorSerializer
from sizing.api.parsers import StrictJSONParser
from sizing.api.throttles import ThrottledView
from sizing.models import PriceBook
from sizing.selectors.price_books import BOOK_FIELDS, price_book_row
from sizing.services.price_books import (
    PriceBookInputSerializer,
    price_book_delete,
    price_book_save,
    validated_price_book,
)
from sizing.users import signed_in_user

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input: field name -> list of reasons; nothing stored"),
    401: OpenApiResponse(ErrorSerializer, description="Not authenticated"),
}
NOT_FOUND = OpenApiResponse(ErrorSerializer, description="You have no price book (no cost is shown)")


class PriceBookOutputSerializer(serializers.ModelSerializer[PriceBook]):
    class Meta:
        model = PriceBook
        fields = [*BOOK_FIELDS, "updated_at"]


def _no_book() -> Response:
    return Response({"detail": "You have no price book: PUT one to see costs."}, status=status.HTTP_404_NOT_FOUND)


class PriceBookView(ThrottledView, APIView):
    """Your prices: per CP and per specialty engine (one-off or per year), per MSU per year
    (installed, or consumed for sub-capacity contracts), a term in years and a currency."""

    parser_classes = [StrictJSONParser]
    throttle_scopes = {"put": "writes", "delete": "writes"}

    @extend_schema(responses={200: PriceBookOutputSerializer, 404: NOT_FOUND, **ERRORS}, summary="Read your price book")
    def get(self, request: Request) -> Response:
        row = price_book_row(user=signed_in_user(request))
        return _no_book() if row is None else Response(PriceBookOutputSerializer(row).data)

    @extend_schema(
        request=PriceBookInputSerializer,
        responses={200: PriceBookOutputSerializer, 201: PriceBookOutputSerializer, **ERRORS},
        summary="Create or replace your price book (every field; JSON body)",
    )
    def put(self, request: Request) -> Response:
        data = validated_price_book(request.data)
        row, created = price_book_save(user=signed_in_user(request), data=data)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(PriceBookOutputSerializer(row).data, status=code)

    @extend_schema(responses={204: None, 404: NOT_FOUND, **ERRORS}, summary="Remove your price book")
    def delete(self, request: Request) -> Response:
        if not price_book_delete(user=signed_in_user(request)):
            return _no_book()
        return Response(status=status.HTTP_204_NO_CONTENT)
