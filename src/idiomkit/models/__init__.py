"""Pretrained encoders and the trained components built over them.

:func:`resolve_model_path` finds an encoder (local folder → packaged model → hub id when online);
:class:`Encoder` embeds sentences with it.
"""

from .resolve import DEFAULT_ENCODER, packaged_models, resolve_model_path

__all__ = ["DEFAULT_ENCODER", "packaged_models", "resolve_model_path"]
