"""paipu (牌谱): an event-sourced mahjong game-log and replay service."""
__version__ = "0.1.0"
