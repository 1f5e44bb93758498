"""The account pages: ``/account`` (your password) and ``/users`` (an admin's list of the club's users: create,
disable, enable). Both talk to the JSON API (``auth.py``, ``users.py``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from .pages import page_user, render, to_login

router = APIRouter(include_in_schema=False)


@router.get("/account")
def account_page(request: Request) -> Response:
    user = page_user(request)
    if user is None:
        return to_login(request)
    return render(request, "account.html", user=user)


@router.get("/users")
def users_page(request: Request) -> Response:
    user = page_user(request)
    if user is None:
        return to_login(request)
    return render(request, "users.html", user=user, status=200 if user.role == "admin" else 403,
                  is_admin=user.role == "admin")
