/* rowbridge's status codes: the Linux errno values of the same names, shared by
 * the C API (rowbridge.h, stream.h) and the C++ Status (status.hpp). */
#ifndef ROWBRIDGE_STATUS_CODES_H
#define ROWBRIDGE_STATUS_CODES_H

#define ROWBRIDGE_OK 0
#define ROWBRIDGE_E2BIG 7       /* a row or chunk exceeds a size limit */
#define ROWBRIDGE_EIO 5         /* internal failure (a bug: please report) */
#define ROWBRIDGE_ENOMEM 12     /* an allocation failed */
#define ROWBRIDGE_EINVAL 22     /* malformed input: schema, array or argument */
#define ROWBRIDGE_EOVERFLOW 75  /* a value does not fit its Spark type */
#define ROWBRIDGE_ENOTSUP 95    /* a type Spark rows cannot carry */
#define ROWBRIDGE_ECANCELED 125 /* a stream was cancelled, closed or interrupted */

#endif /* ROWBRIDGE_STATUS_CODES_H */
