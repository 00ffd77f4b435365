// Shared by every hetflow kernel file (#include "core/common.cl").
// REAL is set by the host through BuildOptions::precision (-D REAL=float|double).
#ifndef REAL
#define REAL float
#endif

#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

typedef REAL real_t;
