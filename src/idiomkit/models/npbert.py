"""A BERT forward pass in NumPy, for fast cold starts at inference time.

Importing PyTorch takes 2-5 s on a laptop CPU, longer than the whole ``idiomkit analyze`` budget;
NumPy and the Rust ``tokenizers`` import in a fraction of a second. So trained classifiers over a
BERT-type encoder (the packaged MiniLM) run here: the base weights are read from the model's
``model.safetensors`` (no pickle), the first ``num_layers`` layers are kept, and LoRA deltas are
merged into them once, so inference costs the same as the plain encoder.

The activation is the tanh approximation of GELU (what training uses too, see
:func:`idiomkit.models.train.load_encoder`): NumPy has no ``erf``, and an ``erf`` polynomial
costs as much as a matrix product here.

>>> import numpy as np
>>> [round(float(v), 4) for v in gelu_tanh(np.array([0.0, 1.0], dtype=np.float32))]
[0.0, 0.8412]
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ..errors import ModelError

_SQRT_2_OVER_PI = np.float32(np.sqrt(2.0 / np.pi))


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """GELU, tanh approximation (``gelu_pytorch_tanh`` in transformers), computed in one
    scratch array (the plain expression allocates six temporaries of ``x``'s size)."""
    y = x * x
    y *= x
    y *= np.float32(0.044715)
    y += x
    y *= _SQRT_2_OVER_PI
    np.tanh(y, out=y)
    y += np.float32(1.0)
    y *= x
    y *= np.float32(0.5)
    return y


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis, written into ``x`` (callers pass a fresh sum) and returned;
    in place it makes one temporary of ``x``'s size instead of five."""
    x -= x.mean(-1, keepdims=True)
    scale = np.einsum("...i,...i->...", x, x)[..., None]
    scale /= np.float32(x.shape[-1])
    scale += np.float32(eps)
    np.sqrt(scale, out=scale)
    x /= scale
    x *= weight
    x += bias
    return x


#: the Linear layers of a BERT layer, by their weight name under ``encoder.layer.N.``
LINEAR_NAMES = (
    "attention.self.query",
    "attention.self.key",
    "attention.self.value",
    "attention.output.dense",
    "intermediate.dense",
    "output.dense",
)


class NumpyBert:
    """The first ``num_layers`` layers of a BERT encoder, as NumPy arrays.

    ``deltas`` maps a Linear layer's name (``encoder.layer.0.attention.self.query``) to a
    weight update of the weight's shape (a merged LoRA ``scale * B @ A``).
    """

    def __init__(self, model_dir: str | Path, num_layers: int | None = None,
                 deltas: Mapping[str, np.ndarray] | None = None) -> None:
        from safetensors.numpy import load_file

        model_dir = Path(model_dir)
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        if config.get("model_type") != "bert":
            raise ModelError("E616", f"The NumPy runtime runs BERT-type encoders; "
                             f"{model_dir} is a '{config.get('model_type')}'. Use the torch "
                             "runtime (backend='torch').")
        weights_file = model_dir / "model.safetensors"
        if not weights_file.exists():
            raise ModelError("E616", f"{model_dir} has no model.safetensors; the NumPy runtime "
                             "reads only safetensors weights. Use backend='torch'.")
        raw = load_file(str(weights_file))
        raw = {k.removeprefix("bert."): v for k, v in raw.items()}
        total = int(config["num_hidden_layers"])
        self.num_layers = total if num_layers is None else int(num_layers)
        if not 1 <= self.num_layers <= total:
            raise ModelError("E612", f"The encoder has {total} layers; cannot keep "
                             f"{self.num_layers}.")
        self.hidden = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        deltas = dict(deltas or {})
        updated = {int(name.split(".")[2]) for name in deltas if name.startswith("encoder.layer.")}
        #: how many leading layers run the base weights unchanged (no weight update merged):
        #: another runtime over the same base can hand over its states after these
        self.plain_layers = min(updated | {self.num_layers})
        emb = "embeddings."
        self.word = raw[emb + "word_embeddings.weight"]
        self.position = raw[emb + "position_embeddings.weight"]
        self.token_type = raw[emb + "token_type_embeddings.weight"]
        self.emb_ln = (raw[emb + "LayerNorm.weight"], raw[emb + "LayerNorm.bias"])
        self.layers = []
        for index in range(self.num_layers):
            prefix = f"encoder.layer.{index}."
            layer = {}
            for name in LINEAR_NAMES:
                weight = raw[prefix + name + ".weight"]
                delta = deltas.pop(prefix + name, None)
                if delta is not None:
                    if delta.shape != weight.shape:
                        raise ModelError("E612", f"The weight update for {prefix + name} has "
                                         f"shape {delta.shape}; the encoder's weight has "
                                         f"{weight.shape}. The classifier was trained over "
                                         "another encoder: give its base model.")
                    weight = weight + delta
                # stored transposed and contiguous: x @ W.T as one BLAS call
                layer[name] = (np.ascontiguousarray(weight.T), raw[prefix + name + ".bias"])
            for name in ("attention.output.LayerNorm", "output.LayerNorm"):
                layer[name] = (raw[prefix + name + ".weight"], raw[prefix + name + ".bias"])
            self.layers.append(layer)
        if deltas:
            raise ModelError("E612", f"Weight updates for layers the encoder does not have: "
                             f"{', '.join(sorted(deltas)[:3])}. The classifier was trained over "
                             "another encoder or more layers.")

    def __call__(self, ids: np.ndarray, type_ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Last-layer token states ``[batch, tokens, hidden]`` (float32)."""
        return self.layers_from(self.embed(ids, type_ids), mask)

    def embed(self, ids: np.ndarray, type_ids: np.ndarray) -> np.ndarray:
        """The embedding layer's output ``[batch, tokens, hidden]``."""
        length = ids.shape[1]
        x = self.word[ids] + self.position[:length] + self.token_type[type_ids]
        return _layer_norm(x, *self.emb_ln, self.eps)

    def layers_from(self, states: np.ndarray, mask: np.ndarray, start: int = 0,
                    stop: int | None = None) -> np.ndarray:
        """Run layers ``start`` to ``stop`` (default: the last) over ``states``
        ``[batch, tokens, hidden]``, the output of the layer before ``start`` (or of the
        embeddings). Padded positions never reach real tokens (masked attention), so their
        values do not matter."""
        batch, length, hidden = states.shape
        heads = self.heads
        size = hidden // heads
        x = states.reshape(batch * length, hidden)
        additive = ((1.0 - mask.astype(np.float32)) * np.float32(-1e9))[:, None, None, :]
        scale = np.float32(1.0 / np.sqrt(size))
        for layer in self.layers[start:stop]:
            def linear(h, name, layer=layer):
                weight, bias = layer[name]
                out = h @ weight
                out += bias
                return out

            def split(h):
                return h.reshape(batch, length, heads, size).transpose(0, 2, 1, 3)

            q = split(linear(x, "attention.self.query"))
            k = split(linear(x, "attention.self.key"))
            v = split(linear(x, "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2)
            scores *= scale
            scores += additive
            scores -= scores.max(-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, hidden)
            x = _layer_norm(linear(context, "attention.output.dense") + x,
                            *layer["attention.output.LayerNorm"], self.eps)
            inner = gelu_tanh(linear(x, "intermediate.dense"))
            x = _layer_norm(linear(inner, "output.dense") + x, *layer["output.LayerNorm"],
                            self.eps)
        return x.reshape(batch, length, hidden)
