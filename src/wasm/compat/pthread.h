/*
 * compat/pthread.h - the few pthread calls the library makes, for the
 * WebAssembly build only (make wasm), where wasi-libc has no threads.
 *
 * The library uses pthread_once and a mutex to be safe when carc check -j
 * runs games on several threads; the page runs one thread, so once is a
 * flag and a mutex does nothing. The host build never sees this header
 * (only the wasm build puts src/wasm/compat on its include path).
 */
#ifndef CARC_WASM_COMPAT_PTHREAD_H
#define CARC_WASM_COMPAT_PTHREAD_H

typedef int pthread_once_t;
typedef int pthread_mutex_t;
#define PTHREAD_ONCE_INIT 0
#define PTHREAD_MUTEX_INITIALIZER 0

static inline int pthread_once(pthread_once_t *once, void (*fn)(void))
{
	if (!*once) {
		*once = 1;
		fn();
	}
	return 0;
}
static inline int pthread_mutex_init(pthread_mutex_t *m, const void *attr) { (void)attr; *m = 0; return 0; }
static inline int pthread_mutex_destroy(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_lock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_unlock(pthread_mutex_t *m) { (void)m; return 0; }

#endif
