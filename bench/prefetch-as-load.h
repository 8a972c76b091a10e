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
// records are the module's, its instruction counts not (each fetch is a call here, with a
// sigsetjmp). A load can fault where a prefetch cannot: a span hint names the lines after an object
// (a NIC's arrival, the packet and the bytes after it, where the packet's buffer mostly is), and
// under valgrind, whose heap cannot grow by brk, an object may end its mapping (perm1024 faulted so
// at dd26538). So a load that faults is skipped, as a prefetch of an unmapped line does nothing:
// each load runs under a SIGSEGV and SIGBUS handler that jumps back past it (sigsetjmp, without the
// signal mask: no system call), and the header says on stderr how many it has skipped, at the 1st,
// 10th, 100th... A fault anywhere else is the program's own: the handler steps aside and the
// faulting instruction runs again, to be reported and to end the program as without it (a
// SIGSEGV or SIGBUS sent by kill() or raise() takes its default action at once). A null
// address is skipped too. Its variables and functions are visible to every library, so that the
// program and its libraries share one copy (a library built with hidden visibility would otherwise
// keep its own flag, which the handler installed last would not read).

#ifndef INTERCONNECT_PREFETCH_AS_LOAD_H
#define INTERCONNECT_PREFETCH_AS_LOAD_H

#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstdio>

/// Where the loaded bytes go (one line, always in the cache).
[[gnu::visibility("default")]] inline volatile char g_prefetchAsLoadSink;
/// Where a load that faults jumps back to.
[[gnu::visibility("default")]] inline thread_local sigjmp_buf g_prefetchAsLoadJump;
/// Whether a load is under way (a fault elsewhere is the program's own).
[[gnu::visibility("default")]] inline thread_local volatile std::sig_atomic_t g_prefetchAsLoadArmed;
/// Loads skipped because their line was not mapped.
[[gnu::visibility("default")]] inline volatile std::uint64_t g_prefetchAsLoadSkipped;

/// A fault: during a load, back past it; else the default action from now on, and back to the
/// faulting instruction, which faults again without the handler (and is reported where it is);
/// the signal sent by kill() or raise(), not by a fault, sent again, to its default action.
/// @param signal SIGSEGV or SIGBUS
/// @param info where it comes from
[[gnu::visibility("default")]] inline void
PrefetchAsLoadFault(int signal, siginfo_t* info, void* /* context */)
{
    if (g_prefetchAsLoadArmed && info->si_code > 0)
    {
        g_prefetchAsLoadArmed = 0;
        siglongjmp(g_prefetchAsLoadJump, 1);
    }
    std::signal(signal, SIG_DFL);
    if (info->si_code <= 0)
    {
        std::raise(signal); // (SA_NODEFER: delivered now)
    }
}

/// @return true, once the handlers are installed (at start-up, before main)
[[gnu::visibility("default")]] inline bool
InstallPrefetchAsLoadHandlers()
{
    struct sigaction action = {};
    action.sa_sigaction = PrefetchAsLoadFault;
    // (The handler leaves by a jump: the signal stays unblocked.)
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    return sigaction(SIGSEGV, &action, nullptr) == 0 && sigaction(SIGBUS, &action, nullptr) == 0;
}

/// The handlers, installed once in the program (an inline variable: one for all sources).
[[gnu::visibility("default")]] inline const bool g_prefetchAsLoadHandlers =
    InstallPrefetchAsLoadHandlers();

/**
 * Load a byte of the line a prefetch names (null or unmapped: nothing, as a prefetch of it does
 * nothing). Not inlined: GCC inlines no function that calls sigsetjmp; callgrind still charges the
 * load to this header's line, which bench/prefetch-cover.sh counts as the fetches'.
 * @param line the address
 */
[[gnu::noinline, gnu::visibility("default")]] inline void
PrefetchAsLoad(const volatile void* line, int = 0, int = 3)
{
    if (line == nullptr)
    {
        return;
    }
    if (sigsetjmp(g_prefetchAsLoadJump, 0) == 0)
    {
        g_prefetchAsLoadArmed = 1;
        g_prefetchAsLoadSink = g_prefetchAsLoadSink ^ *static_cast<const volatile char*>(line);
        g_prefetchAsLoadArmed = 0;
    }
    else
    {
        const std::uint64_t skipped = g_prefetchAsLoadSkipped + 1;
        g_prefetchAsLoadSkipped = skipped;
        std::uint64_t power = 1;
        while (power * 10 <= skipped)
        {
            power *= 10;
        }
        if (skipped == power)
        {
            std::fprintf(stderr,
                         "prefetch-as-load: loads of unmapped lines skipped so far: %llu\n",
                         static_cast<unsigned long long>(skipped));
        }
    }
}

#define __builtin_prefetch(...) PrefetchAsLoad(__VA_ARGS__)

#endif // INTERCONNECT_PREFETCH_AS_LOAD_H
