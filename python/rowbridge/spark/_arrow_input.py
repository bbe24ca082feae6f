"""Arrow input of every type rowbridge reads, for ``create_dataframe``.

PySpark's Arrow ``createDataFrame`` refuses types that rowbridge reads (SPEC §2): the view types
(``string_view``, ``binary_view``, ``list_view``), run-end encoding, unsigned integers,
``date64`` and extension types. ``readable`` gives such a column the type PySpark's conversion
takes that has the same Spark type and the same values: views and run-end encoded or dictionary
columns decoded, unsigned integers widened (``uint64`` to ``decimal(20, 0)``), ``date64`` floored
to days, an extension column its storage. Columns PySpark takes are left as they are. A top-level
extension column's name and metadata go to its StructField's metadata, as rowbridge's scan gives
them, so that rows → Arrow writes the extension back.
"""

import ctypes

import pyarrow as pa
import pyarrow.compute as pc

EXTENSION_NAME = "ARROW:extension:name"
EXTENSION_METADATA = "ARROW:extension:metadata"

_WIDER = {pa.uint8(): pa.int16(), pa.uint16(): pa.int32(), pa.uint32(): pa.int64()}
_MS_PER_DAY = 86_400_000


def readable(table, accepts):
    """``(table, extensions)``: ``table`` with each column whose type ``accepts`` (PySpark's
    check) refuses decoded as above, and ``{column index: StructField metadata}`` of its
    top-level extension columns. A column still refused keeps its type, for the caller's error."""
    columns = []
    fields = []
    extensions = {}
    for index, (field, column) in enumerate(zip(table.schema, table.columns)):
        if not accepts(field.type):
            decoded = pa.chunked_array(
                [_decoded(chunk) for chunk in column.chunks], type=_decoded_type(field.type)
            )
            if isinstance(field.type, pa.BaseExtensionType):
                extensions[index] = _extension_metadata(field.type)
            column = decoded
            field = pa.field(field.name, decoded.type, field.nullable)
        columns.append(column)
        fields.append(field)
    return pa.Table.from_arrays(columns, schema=pa.schema(fields)), extensions


def _extension_metadata(extension):
    """The extension's keys as an Arrow reader finds them in its field's metadata. pyarrow gives
    a C++ extension type's (the canonical ones) serialized metadata no Python name, so they are
    read from the field's Arrow C Data Interface schema."""
    found = _c_schema_metadata(pa.field("column", extension))
    metadata = {EXTENSION_NAME: extension.extension_name}
    serialized = found.get(EXTENSION_METADATA.encode())
    if serialized is not None:
        metadata[EXTENSION_METADATA] = serialized.decode("utf-8", "replace")
    return metadata


class _CSchema(ctypes.Structure):
    """The head of the Arrow C Data Interface's ArrowSchema (an ABI)."""

    _fields_ = [
        ("format", ctypes.c_char_p),
        ("name", ctypes.c_char_p),
        ("metadata", ctypes.c_void_p),
    ]


def _c_schema_metadata(field):
    """{key: value} of ``field``'s metadata, read from its exported ArrowSchema."""
    capsule = field.__arrow_c_schema__()
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    schema = _CSchema.from_address(get_pointer(capsule, b"arrow_schema"))
    found = {}
    if schema.metadata:
        address = schema.metadata

        def int32():
            nonlocal address
            value = int.from_bytes(ctypes.string_at(address, 4), "little", signed=True)
            address += 4
            return value

        def text():
            nonlocal address
            length = int32()
            value = ctypes.string_at(address, length)
            address += length
            return value

        for _ in range(int32()):
            key = text()
            found[key] = text()
    del capsule  # releases the exported schema
    return found


def _decoded_type(arrow_type):
    """The type ``_decoded`` gives an array of ``arrow_type``."""
    if isinstance(arrow_type, pa.BaseExtensionType):
        return _decoded_type(arrow_type.storage_type)
    if pa.types.is_run_end_encoded(arrow_type):
        return _decoded_type(arrow_type.value_type)
    if pa.types.is_dictionary(arrow_type):
        return _decoded_type(arrow_type.value_type)
    if pa.types.is_string_view(arrow_type):
        return pa.large_string()
    if pa.types.is_binary_view(arrow_type):
        return pa.large_binary()
    if arrow_type in _WIDER:
        return _WIDER[arrow_type]
    if arrow_type == pa.uint64():
        return pa.decimal128(20, 0)
    if pa.types.is_date64(arrow_type):
        return pa.date32()
    if pa.types.is_list_view(arrow_type) or pa.types.is_list(arrow_type):
        return pa.list_(_decoded_value_field(arrow_type))
    if pa.types.is_large_list_view(arrow_type) or pa.types.is_large_list(arrow_type):
        return pa.large_list(_decoded_value_field(arrow_type))
    if pa.types.is_fixed_size_list(arrow_type):
        return pa.list_(_decoded_value_field(arrow_type))
    if pa.types.is_map(arrow_type):
        return pa.map_(
            _decoded_type(arrow_type.key_type),
            pa.field(
                arrow_type.item_field.name,
                _decoded_type(arrow_type.item_type),
                arrow_type.item_field.nullable,
            ),
        )
    if pa.types.is_struct(arrow_type):
        return pa.struct(
            [pa.field(f.name, _decoded_type(f.type), f.nullable) for f in arrow_type]
        )
    return arrow_type


def _decoded_value_field(list_type):
    value = list_type.value_field
    return pa.field(value.name, _decoded_type(value.type), value.nullable)


def _decoded(array):
    """``array`` as an array of ``_decoded_type(array.type)``, with the same values."""
    arrow_type = array.type
    if isinstance(arrow_type, pa.BaseExtensionType):
        return _decoded(array.storage)
    if pa.types.is_run_end_encoded(arrow_type):
        return _decoded(pc.run_end_decode(array))
    if pa.types.is_dictionary(arrow_type):
        return _decoded(array.dictionary_decode())
    target = _decoded_type(arrow_type)
    if target == arrow_type:
        return array
    if pa.types.is_date64(arrow_type):
        millis = array.view(pa.int64())
        days = pc.floor(pc.divide(pc.cast(millis, pa.float64()), float(_MS_PER_DAY)))
        return pc.cast(days, pa.int32()).view(pa.date32())
    if (
        pa.types.is_list(arrow_type)
        or pa.types.is_large_list(arrow_type)
        or pa.types.is_list_view(arrow_type)
        or pa.types.is_large_list_view(arrow_type)
        or pa.types.is_fixed_size_list(arrow_type)
    ):
        return _list(array, target)
    if pa.types.is_struct(arrow_type):
        children = [_decoded(child) for child in array.flatten()]
        return pa.StructArray.from_arrays(
            children, fields=list(target), mask=array.is_null() if array.null_count else None
        )
    if pa.types.is_map(arrow_type):
        return pa.MapArray.from_arrays(
            array.offsets,
            _decoded(array.keys),
            _decoded(array.items),
            type=target,
            mask=array.is_null() if array.null_count else None,
        )
    return array.cast(target)


def _list(array, target):
    """A list array of ``target`` from any list-like ``array``: its values in logical order,
    offsets from its lengths (a null list holds none)."""
    values = _decoded(array.flatten())
    lengths = pc.fill_null(pc.list_value_length(array), 0)
    offset_type = pa.int64() if pa.types.is_large_list(target) else pa.int32()
    ends = pc.cumulative_sum(pc.cast(lengths, offset_type))
    offsets = pa.concat_arrays([pa.array([0], offset_type), ends])
    mask = array.is_null() if array.null_count else None
    if pa.types.is_large_list(target):
        return pa.LargeListArray.from_arrays(offsets, values, type=target, mask=mask)
    return pa.ListArray.from_arrays(offsets, values, type=target, mask=mask)
