"""The account: signing up and in (password or passkey), out, its settings, deleting it, and
its notifications (docs/accounts.md)."""

from __future__ import annotations

import json
import secrets
import time
from typing import Annotated

import webauthn
from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse, Response
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from cathedral.server import auth, models
from cathedral.server.accounts import NameTaken
from cathedral.server.auth import MaybeSigned, SignedIn, Writer
from cathedral.server.deps import Address, HubDep
from cathedral.server.errors import Conflict, Invalid, Unauthorized
from cathedral.server.logs import event
from cathedral.server.mailer import valid_address
from cathedral.server.routes import errors

router = APIRouter(prefix="/api", tags=["account"])
PASSKEY_REFUSED = "passkey not accepted"


def _name(name: str) -> str:
    if not auth.NAME.fullmatch(name):
        raise Invalid("a name is 3 to 20 letters, digits, '_' or '-'")
    return name


async def _sign_in(request: Request, hub, account_id: str, status: int = 200) -> JSONResponse:
    """Answers with a new session for ``account_id`` (the one presented ends)."""
    token, id_hash, csrf = auth.new_session()
    now = time.time()
    await hub.db(hub.accounts.open_session, id_hash, account_id, csrf, now,
                 now + auth.SESSION_S, auth.presented_hash(request))
    account = await hub.db(hub.accounts.get, account_id)
    response = JSONResponse({"account": auth.Signed(account, csrf, id_hash).view()},
                            status_code=status)
    auth.set_cookie(request, response, token)
    return response


@router.get("/me", response_model=models.Me)
async def me(who: MaybeSigned):
    return {"account": None if who is None else who.view()}


@router.post("/account/signup", status_code=201, response_model=models.Me,
             responses=errors(403, 409, 429))
async def signup(request: Request, body: Annotated[models.PasswordBody, Body()], hub: HubDep,
                 asker: Address):
    auth.same_site(request)
    name = _name(body.name)
    if len(body.password) < auth.MIN_PASSWORD:
        raise Invalid(f"a password is at least {auth.MIN_PASSWORD} characters")
    request.app.state.signin.check(asker, None)
    password_hash = await hub.hashing(auth.hash_password, body.password)
    try:
        account = await hub.db(hub.accounts.create, name, password_hash, time.time())
    except NameTaken:
        raise Conflict(f"the name {name!r} is taken: choose another") from None
    event("signup", how="password")
    return await _sign_in(request, hub, account.id, 201)


@router.post("/account/signin", response_model=models.Me, responses=errors(401, 403, 429))
async def signin(request: Request, body: Annotated[models.PasswordBody, Body()], hub: HubDep,
                 asker: Address):
    auth.same_site(request)
    request.app.state.signin.check(asker, body.name)
    account = await hub.db(hub.accounts.by_name, body.name) if auth.NAME.fullmatch(
        body.name) else None
    stored = None if account is None else account.password_hash
    if not await hub.hashing(auth.password_matches, stored, body.password):
        raise Unauthorized(auth.WRONG)
    assert account is not None
    return await _sign_in(request, hub, account.id)


@router.post("/account/signout", status_code=204, responses=errors(401, 403))
async def signout(request: Request, who: Writer, hub: HubDep):
    await hub.db(hub.accounts.end_session, who.session_hash)
    response = Response(status_code=204)
    auth.clear_session(request, response)
    return response


# ----- passkeys -----------------------------------------------------------------------------


@router.post("/account/passkey/options", responses=errors(401, 403, 409, 429))
async def passkey_options(request: Request, body: Annotated[models.PasskeyOptionsBody, Body()],
                          hub: HubDep, asker: Address, who: MaybeSigned):
    """A passkey ceremony's options and its ticket (the challenge, kept on the server)."""
    auth.same_site(request)
    now = time.time()
    ticket = secrets.token_urlsafe(24)
    rp_id = auth.rp_id(request)
    if body.purpose == "signin":
        request.app.state.signin.check(asker, None)
        # No allowCredentials: the authenticator offers its own passkeys for this site, so
        # the answer says nothing about which names exist.
        options = webauthn.generate_authentication_options(
            rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
        await hub.db(hub.accounts.put_ticket, ticket, "signin", auth.b64url(options.challenge),
                     now + auth.TICKET_S, now=now)
        return {"ticket": ticket, "options": json.loads(webauthn.options_to_json(options))}
    if body.purpose == "signup":
        name = _name(body.name or "")
        if await hub.db(hub.accounts.by_name, name) is not None:
            raise Conflict(f"the name {name!r} is taken: choose another")
        user_id, exclude, account_id = secrets.token_urlsafe(12), [], None
    else:
        if who is None:
            raise Unauthorized("sign in first to add a passkey")
        if not auth.csrf_matches(request, who):
            raise auth.Forbidden("missing or wrong X-CSRF-Token header")
        name, account_id, user_id = who.account.name, who.account.id, who.account.id
        exclude = [PublicKeyCredentialDescriptor(id=auth.unb64url(c))
                   for c in await hub.db(hub.accounts.passkey_ids, account_id)]
    options = webauthn.generate_registration_options(
        rp_id=rp_id, rp_name="Cathedral", user_name=name, user_id=user_id.encode(),
        exclude_credentials=exclude,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED))
    await hub.db(hub.accounts.put_ticket, ticket, body.purpose, auth.b64url(options.challenge),
                 now + auth.TICKET_S, name=name, user_id=user_id, account_id=account_id,
                 now=now)
    return {"ticket": ticket, "options": json.loads(webauthn.options_to_json(options))}


async def _registered(request: Request, hub, body: models.PasskeyBody, purpose: str):
    """The ticket and the verified new credential, or a 400."""
    ticket = await hub.db(hub.accounts.take_ticket, body.ticket, purpose, time.time())
    if ticket is None:
        raise Invalid("unknown or expired ticket: ask for new passkey options")
    try:
        verified = webauthn.verify_registration_response(
            credential=body.credential, expected_challenge=auth.unb64url(ticket.challenge),
            expected_rp_id=auth.rp_id(request), expected_origin=auth.site_origin(request))
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise Invalid(f"the passkey could not be registered: {exc}") from None
    return ticket, verified


@router.post("/account/passkey/signup", status_code=201, response_model=models.Me,
             responses=errors(403, 409))
async def passkey_signup(request: Request, body: Annotated[models.PasskeyBody, Body()],
                         hub: HubDep):
    auth.same_site(request)
    ticket, verified = await _registered(request, hub, body, "signup")
    now = time.time()
    try:
        account = await hub.db(hub.accounts.create, ticket.name, None, now, ticket.user_id)
    except NameTaken:
        raise Conflict(f"the name {ticket.name!r} is taken: choose another") from None
    await hub.db(hub.accounts.add_passkey, account.id, auth.b64url(verified.credential_id),
                 auth.b64url(verified.credential_public_key), verified.sign_count, now)
    event("signup", how="passkey")
    return await _sign_in(request, hub, account.id, 201)


@router.post("/account/passkey/add", response_model=models.Me, responses=errors(401, 403))
async def passkey_add(request: Request, body: Annotated[models.PasskeyBody, Body()],
                      hub: HubDep, who: Writer):
    ticket, verified = await _registered(request, hub, body, "add")
    if ticket.account_id != who.account.id:
        raise Invalid("this ticket belongs to another session: ask for new options")
    await hub.db(hub.accounts.add_passkey, who.account.id, auth.b64url(verified.credential_id),
                 auth.b64url(verified.credential_public_key), verified.sign_count, time.time())
    account = await hub.db(hub.accounts.get, who.account.id)
    return {"account": auth.Signed(account, who.csrf, who.session_hash).view()}


@router.post("/account/passkey/signin", response_model=models.Me,
             responses=errors(401, 403, 429))
async def passkey_signin(request: Request, body: Annotated[models.PasskeyBody, Body()],
                         hub: HubDep, asker: Address):
    auth.same_site(request)
    request.app.state.signin.check(asker, None)
    ticket = await hub.db(hub.accounts.take_ticket, body.ticket, "signin", time.time())
    credential_id = body.credential.get("id")
    found = None
    if ticket is not None and isinstance(credential_id, str) and len(credential_id) < 1400:
        found = await hub.db(hub.accounts.passkey, credential_id)
    if found is None:
        raise Unauthorized(PASSKEY_REFUSED)
    account_id, public_key, sign_count = found
    try:
        verified = webauthn.verify_authentication_response(
            credential=body.credential, expected_challenge=auth.unb64url(ticket.challenge),
            expected_rp_id=auth.rp_id(request), expected_origin=auth.site_origin(request),
            credential_public_key=auth.unb64url(public_key),
            credential_current_sign_count=sign_count)
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise Unauthorized(PASSKEY_REFUSED) from None
    await hub.db(hub.accounts.passkey_used, credential_id, verified.new_sign_count)
    return await _sign_in(request, hub, account_id)


# ----- settings, deletion -------------------------------------------------------------------


@router.post("/account/settings", response_model=models.Me, responses=errors(401, 403))
async def settings(body: Annotated[models.AccountSettings, Body()], hub: HubDep, who: Writer):
    email = ...
    if body.email != "":
        if body.email is not None and not valid_address(body.email):
            raise Invalid("that is not an e-mail address (expected name@example.org)")
        email = body.email
    notify = None
    if body.notify is not None:
        given = body.notify.model_dump(exclude_none=True)
        notify = {**who.account.notify, **given}
    await hub.db(hub.accounts.change, who.account.id, email=email, notify=notify)
    account = await hub.db(hub.accounts.get, who.account.id)
    return {"account": auth.Signed(account, who.csrf, who.session_hash).view()}


@router.post("/account/delete", status_code=204, responses=errors(401, 403))
async def delete(request: Request, body: Annotated[models.NameBody, Body()], hub: HubDep,
                 who: Writer):
    if body.name != who.account.name:
        raise Invalid("type your own name to confirm deleting the account")
    await hub.forget_account(who.account.id)
    response = Response(status_code=204)
    auth.clear_session(request, response)
    event("account deleted")
    return response


# ----- notifications ------------------------------------------------------------------------


@router.get("/me/notifications", responses=errors(401))
async def notifications(hub: HubDep, who: SignedIn,
                        after: Annotated[int, Query(ge=0)] = 0):
    found, unread = await hub.db(hub.accounts.notifications, who.account.id, after)
    return {"notifications": found, "unread": unread}


@router.post("/me/notifications/read", status_code=204, responses=errors(401, 403))
async def notifications_read(body: Annotated[models.ReadUpTo, Body()], hub: HubDep,
                             who: Writer):
    await hub.db(hub.accounts.mark_read, who.account.id, body.up_to)
    return Response(status_code=204)
