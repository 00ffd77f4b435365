"""Checks of the arrays that cross into hetflow: dtype and shape errors name the argument."""
import numpy as np


def real_array(name, value, ndim, order="F"):
    """`value` as a float64 array of one of the dimensions in `ndim`, in `order` (a copy only where the
    layout needs one). TypeError for a non-float64 dtype (no silent conversion), ValueError for a shape
    or non-finite entry."""
    array = np.asarray(value)
    if array.dtype != np.float64:
        raise TypeError(f"{name}: expected a float64 array, got dtype {array.dtype} "
                        f"(convert it with np.asarray({name}, dtype=np.float64))")
    if array.ndim not in ndim:
        raise ValueError(f"{name}: expected {' or '.join(f'{d}-D' for d in ndim)}, got shape {array.shape}")
    if not np.isfinite(array).all():
        index = tuple(int(i) for i in np.argwhere(~np.isfinite(array))[0])
        raise ValueError(f"{name}{list(index)} = {array[index]}: every entry must be finite")
    return np.asfortranarray(array) if order == "F" else np.ascontiguousarray(array)
