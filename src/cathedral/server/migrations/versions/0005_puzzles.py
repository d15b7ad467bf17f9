"""Puzzle ratings: each account's Glicko-2 rating at puzzles (``puzzle_ratings``) and the
puzzles it has tried (``puzzle_attempts``: the first try of each counts).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("tried", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("solved", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("account_id", sa.String(32),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("puzzle_id", sa.String(64), primary_key=True),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
