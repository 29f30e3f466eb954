"""Write a GGUF with a real model's shape and tokenizer but all-zero weights.

For checks where only sizes matter (how much VRAM llama.cpp allocates, how fast a layout decodes)
and the real file cannot be had: a GPU machine without network gets a 7B-shaped model from the
0.5B's tokenizer. Needs llama.cpp's gguf-py (`pip install gguf`, or PYTHONPATH at the copy
vendored in llama-cpp-python's sdist).

    python -m bench.zero_gguf --vocab-from qwen2.5-coder-0.5b.gguf --shape qwen2.5-coder-7b out.gguf
    python -m bench.zero_gguf --vocab-from big.gguf --vocab-only vocab.gguf
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

# Published shapes (config.json of each Qwen2.5-Coder model); Q4_K_M keeps attn_v, ffn_down and
# the output head at Q6_K, the rest at Q4_K.
SHAPES: dict[str, dict[str, int]] = {
    "qwen2.5-coder-7b": {"n_embd": 3584, "n_layer": 28, "n_ff": 18944, "n_head": 28, "n_head_kv": 4},
    "qwen2.5-coder-1.5b": {"n_embd": 1536, "n_layer": 28, "n_ff": 8960, "n_head": 12, "n_head_kv": 2},
}


def _copy_fields(reader: Any, writer: Any, prefixes: tuple[str, ...]) -> None:
    from gguf import GGUFValueType

    for field in reader.fields.values():
        if not field.name.startswith(prefixes):
            continue
        vtype = field.types[0]
        sub_type = field.types[-1] if vtype == GGUFValueType.ARRAY else None
        writer.add_key_value(field.name, field.contents(), vtype, sub_type)


def write_zero_model(vocab_from: Path, shape_name: str, out: Path) -> Path:
    import numpy as np
    from gguf import GGMLQuantizationType as Q
    from gguf import GGUFReader, GGUFWriter

    shape = SHAPES[shape_name]
    reader = GGUFReader(vocab_from)
    n_vocab = len(reader.fields["tokenizer.ggml.tokens"].data)
    e, ff, hd = shape["n_embd"], shape["n_ff"], shape["n_embd"] // shape["n_head"]
    kv = hd * shape["n_head_kv"]

    writer = GGUFWriter(out, arch="qwen2")
    writer.add_name(f"{shape_name} (zero weights)")
    writer.add_file_type(15)  # MOSTLY_Q4_K_M
    writer.add_context_length(32768)
    writer.add_embedding_length(e)
    writer.add_block_count(shape["n_layer"])
    writer.add_feed_forward_length(ff)
    writer.add_head_count(shape["n_head"])
    writer.add_head_count_kv(shape["n_head_kv"])
    writer.add_rope_freq_base(1_000_000.0)
    writer.add_layer_norm_rms_eps(1e-6)
    _copy_fields(reader, writer, ("tokenizer.",))

    def quant(name: str, cols: int, rows: int, qtype: Any) -> None:
        block_elems, block_bytes = {Q.Q4_K: (256, 144), Q.Q6_K: (256, 210)}[qtype]
        data = np.zeros((rows, cols // block_elems * block_bytes), dtype=np.uint8)
        writer.add_tensor(name, data, raw_dtype=qtype)

    def f32(name: str, n: int) -> None:
        writer.add_tensor(name, np.zeros(n, dtype=np.float32))

    quant("token_embd.weight", e, n_vocab, Q.Q4_K)
    f32("output_norm.weight", e)
    quant("output.weight", e, n_vocab, Q.Q6_K)
    for i in range(shape["n_layer"]):
        b = f"blk.{i}."
        f32(b + "attn_norm.weight", e)
        f32(b + "ffn_norm.weight", e)
        for part, rows, qtype in (("q", e, Q.Q4_K), ("k", kv, Q.Q4_K), ("v", kv, Q.Q6_K)):
            quant(f"{b}attn_{part}.weight", e, rows, qtype)
            f32(f"{b}attn_{part}.bias", rows)
        quant(b + "attn_output.weight", e, e, Q.Q4_K)
        quant(b + "ffn_gate.weight", e, ff, Q.Q4_K)
        quant(b + "ffn_up.weight", e, ff, Q.Q4_K)
        quant(b + "ffn_down.weight", ff, e, Q.Q6_K)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out


def write_vocab_only(vocab_from: Path, out: Path) -> Path:
    """The tokenizer and chat template alone: small enough to carry where the model is not."""
    from gguf import GGUFReader, GGUFWriter

    reader = GGUFReader(vocab_from)
    writer = GGUFWriter(out, arch="qwen2")
    _copy_fields(reader, writer, ("tokenizer.",))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--vocab-from", type=Path, required=True, help="a GGUF whose tokenizer to copy")
    parser.add_argument("--shape", choices=sorted(SHAPES), default="qwen2.5-coder-7b")
    parser.add_argument("--vocab-only", action="store_true", help="write the tokenizer fields alone")
    args = parser.parse_args(argv)
    if args.vocab_only:
        write_vocab_only(args.vocab_from, args.out)
    else:
        write_zero_model(args.vocab_from, args.shape, args.out)
    print(f"{args.out}: {args.out.stat().st_size / 2**30:.2f} GiB")


if __name__ == "__main__":
    main()
