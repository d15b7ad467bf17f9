"""What the pages tell players: each ply's description for people (``actions.info``: the
game's ``describe_action``, whether it starts a turn, whom it skips), each game's count of
turns (``games.turns``, for the lobby), and whether each human seat has opened its link
(``seats.arrived``: a clock starts once every one has).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("info", sa.Text(), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("turns", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("arrived", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("arrived")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("turns")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("info")
