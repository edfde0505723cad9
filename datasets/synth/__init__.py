"""Synthetic reveal-scene generator for the card-index detector (``python -m datasets.synth``)."""

from .scene import Scene, generate, jpeg_bytes

__all__ = ["Scene", "generate", "jpeg_bytes"]
