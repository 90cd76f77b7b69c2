/* verify.h - `terrain --verify FILE`: checks a .ctc chunk or a CTWORLD2
 * snapshot and prints what it vouches for. */
#ifndef TERRAIN_VERIFY_H
#define TERRAIN_VERIFY_H

/* Prints "kind", "generation", "key", "digest" (and a few more) lines and
 * returns 0 for a good file; prints one line "terrain: --verify FILE: reason"
 * to stderr and returns 2 for a bad or unreadable one. */
int terrain_verify(const char *path);

#endif
