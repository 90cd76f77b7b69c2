/* ct_cache_hold.h - holds the threaded cache's worker, for tests.
 *
 * Whether a request finds every slot in flight depends on how quickly the
 * worker finishes a chunk; a test that must see the busy answer holds the
 * worker so that queued slots stay queued, whatever the machine's speed. */
#ifndef CT_CACHE_HOLD_H
#define CT_CACHE_HOLD_H

#include "ct.h"

#ifdef CT_WITH_THREADS
/* on != 0: the worker takes no new job (one it is generating finishes);
 * on == 0: it takes the queued jobs again. */
void ct__cache_hold(ct_cache *cache, int on);
#endif

#endif
