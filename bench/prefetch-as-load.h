/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// For an analysis build only, never the module's: every software prefetch becomes a load, so that
// callgrind's cache model, which drops prefetch instructions, charges the miss of a line fetched
// ahead to the fetch and not to the code that later reads the line. The misses left where the code
// reads are those no fetch named (bench/prefetch-cover.sh splits the two). The byte loaded goes
// into a global, because valgrind's code optimizer drops a load whose value is unused, volatile or
// not. Configure the analysis build with this header forced into every source:
//
//   cmake -G Ninja -S . -B build-prefetch-as-load -DCMAKE_BUILD_TYPE=Release
//     -DINTERCONNECT_TESTS=OFF
//     "-DCMAKE_CXX_FLAGS_RELEASE=-O3 -DNDEBUG -g -include $PWD/bench/prefetch-as-load.h"
//   (one command)
//   ninja -C build-prefetch-as-load bench/interconnect-bench
//
// A load waits where a prefetch does not, so the build's times mean nothing; its events and
// records are the module's. A load can fault where a prefetch cannot: some of the module's
// prefetches may name a line it has not checked (an index not yet validated, an object a
// cancelled event's hints still name), which the cases profiled so far read safely; should an
// analysis build fault, look there first. A null address is skipped, as a prefetch of it does
// nothing.

#ifndef INTERCONNECT_PREFETCH_AS_LOAD_H
#define INTERCONNECT_PREFETCH_AS_LOAD_H

/// Where the loaded bytes go (one line, always in the cache).
inline volatile char g_prefetchAsLoadSink;

/**
 * Load a byte of the line a prefetch names (null: nothing, as a prefetch of it does nothing).
 * @param line the address
 */
__attribute__((always_inline)) static inline void
PrefetchAsLoad(const volatile void* line, int = 0, int = 3)
{
    if (line != nullptr)
    {
        g_prefetchAsLoadSink = g_prefetchAsLoadSink ^ *static_cast<const volatile char*>(line);
    }
}

#define __builtin_prefetch(...) PrefetchAsLoad(__VA_ARGS__)

#endif // INTERCONNECT_PREFETCH_AS_LOAD_H
