/* Symbol visibility for rowbridge's public API. */
#ifndef ROWBRIDGE_EXPORT_H
#define ROWBRIDGE_EXPORT_H

#if defined(_WIN32)
#define ROWBRIDGE_EXPORT __declspec(dllexport)
#else
#define ROWBRIDGE_EXPORT __attribute__((visibility("default")))
#endif

#endif /* ROWBRIDGE_EXPORT_H */
