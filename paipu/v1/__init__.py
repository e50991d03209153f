"""Generated Python code of the protobuf contract paipu.v1 (proto/paipu/v1/*.proto).

Do not edit the *_pb2*.py(i) files: run ``python scripts/gen_proto.py``.
"""
