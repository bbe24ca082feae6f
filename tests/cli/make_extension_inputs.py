#!/usr/bin/env python3
"""Writes tests/cli/inputs/extension_columns.arrow with pyarrow: an extension type no reader
knows over int8, over a struct and inside a list, and the canonical arrow.uuid. cli_test.py
checks that `rowbridge inspect` names the extensions and that `convert` refuses them, naming
the column and the extension (CONTRACTS.md §2).

    build/venv/bin/python3 tests/cli/make_extension_inputs.py
"""
import os

import pyarrow as pa
import pyarrow.ipc as ipc


class Unregistered(pa.ExtensionType):
    def __init__(self, storage):
        super().__init__(storage, "example.unregistered")

    def __arrow_ext_serialize__(self):
        return b""

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type, serialized):
        return cls(storage_type)


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")
    small = pa.array([1, -2, None, 127, -128, 0], pa.int8())
    point = pa.array([{"x": 1.5, "tag": "a"}, None, {"x": -0.0, "tag": ""},
                      {"x": 2.0, "tag": None}, {"x": 3.25, "tag": "é"}, {"x": 0.0, "tag": "z"}],
                     pa.struct([("x", pa.float64()), ("tag", pa.string())]))
    offsets = pa.array([0, 2, 2, 3, 5, 6, 6], pa.int32())
    uuids = pa.array([bytes(range(i, i + 16)) if i % 4 else None for i in range(6)], pa.binary(16))
    extended = {
        "small": pa.ExtensionArray.from_storage(Unregistered(pa.int8()), small),
        "point": pa.ExtensionArray.from_storage(Unregistered(point.type), point),
        "items": pa.ListArray.from_arrays(
            offsets, pa.ExtensionArray.from_storage(Unregistered(pa.int8()), small)),
        "id": pa.ExtensionArray.from_storage(pa.uuid(), uuids),
    }
    storage = {name: column.storage if isinstance(column, pa.ExtensionArray) else column
               for name, column in extended.items()}
    storage["items"] = pa.ListArray.from_arrays(offsets, small)
    for name, columns in (("extension_columns", extended), ("extension_storage", storage)):
        table = pa.table(columns)
        with ipc.new_file(os.path.join(out, name + ".arrow"), table.schema) as writer:
            writer.write_table(table)


if __name__ == "__main__":
    main()
