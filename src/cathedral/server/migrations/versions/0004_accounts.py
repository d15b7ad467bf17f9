"""Accounts: people with a lasting name (``accounts``), their passkeys, sessions and the
WebAuthn challenges under way (``tickets``); ratings per setting and their history; challenges;
notifications; the site's secret. A seat may belong to an account (``seats.account_id``,
``seats.name``: the name shown, kept with the seat so a game reads the same on every
process); a game may be rated (``games.rated``, ``games.setting``, ``games.rating_state``:
``none`` | ``due`` | ``done``). Every existing game stays as it was: anonymous, unrated.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(32), nullable=True),
        sa.Column("name_key", sa.String(32), nullable=True, unique=True),
        sa.Column("password_hash", sa.Text(), nullable=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("notify", sa.Text(), nullable=False, server_default="{}"),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("deleted", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), index=True),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), index=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False, index=True),
    )
    op.create_table(
        "tickets",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("challenge", sa.Text(), nullable=False),
        sa.Column("name", sa.String(32), nullable=True),
        sa.Column("user_id", sa.String(64), nullable=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("expires", sa.Float(), nullable=False, index=True),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("setting", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_index("ix_ratings_setting_rating", "ratings", ["setting", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("setting", sa.String(16), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("by_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), index=True),
        sa.Column("to_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True,
                  index=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("params", sa.Text(), nullable=False),
        sa.Column("clock", sa.Text(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("setting", sa.String(16), nullable=True),
        sa.Column("range_lo", sa.Float(), nullable=True),
        sa.Column("range_hi", sa.Float(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("accepted_by", sa.String(32), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), index=True),
        sa.Column("kind", sa.String(16), nullable=False),
        # whose doing it tells of (its text names them): gone with their account
        sa.Column("actor_id", sa.String(32), nullable=True, index=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("read", sa.Boolean(), nullable=False, server_default=sa.false()),
        # none | due | sending | sent | failed: claimed by one process before it is sent
        sa.Column("email", sa.String(16), nullable=False, server_default="none", index=True),
    )
    op.create_table(
        "secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    # Plain ALTER TABLE ADD COLUMN, never a batch copy: on SQLite a copied ``games`` would be
    # dropped, and its seats and actions with it (ON DELETE CASCADE).
    op.add_column("seats", sa.Column("account_id", sa.String(32), nullable=True))
    op.add_column("seats", sa.Column("name", sa.String(32), nullable=True))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.add_column("games", sa.Column("rated", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))
    op.add_column("games", sa.Column("setting", sa.String(16), nullable=True))
    op.add_column("games", sa.Column("rating_state", sa.String(8), nullable=False,
                                     server_default="none"))
    op.add_column("games", sa.Column("rating_changes", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for column in ("rating_changes", "rating_state", "setting", "rated"):
            batch.drop_column(column)
    op.drop_index("ix_seats_account_id", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("name")
        batch.drop_column("account_id")
    for table in ("secrets", "notifications", "challenges", "rating_history", "ratings",
                  "tickets", "sessions", "passkeys", "accounts"):
        op.drop_table(table)
