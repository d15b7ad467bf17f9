"""The games, registered by name; each is imported only when first loaded."""

from cathedral.core.registry import register

register("allmer", "cathedral.games.allmer:AllmerGame")
register("classic", "cathedral.games.classic:ClassicGame")
register("red", "cathedral.games.red:RedGame")
