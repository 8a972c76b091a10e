/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The machine's memory as a fabric's state meets it: the time of one load that depends on the
// one before (a pointer chase, in a random order that visits every chosen line once per
// cycle), by how much memory the lines are spread over. Two layouts per region: "dense", every
// 64-byte line of the region (what the caches hold), and "sparse", one line at a random offset
// in each 4 KB page (a few lines, spread over many pages: what the address translation holds).
// Each on 4 KB pages (MADV_NOHUGEPAGE) and on transparent huge pages (MADV_HUGEPAGE), with
// the huge pages the kernel gave (AnonHugePages of the region). doc/interconnect.rst,
// Performance, reads perm1024's cost per packet-hop against these figures. Reported, never
// asserted: it takes no arguments and prints CSV.

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <vector>

namespace
{

constexpr std::size_t LINE = 64;
constexpr std::size_t PAGE = 4096;

/// @return the AnonHugePages, in KB, of the mapping that starts at @p start (0 if none)
uint64_t
HugeKb(const void* start)
{
    char prefix[32];
    std::snprintf(prefix, sizeof(prefix), "%" PRIxPTR "-", reinterpret_cast<uintptr_t>(start));
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inRegion = false;
    while (std::getline(smaps, line))
    {
        if (!line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) &&
            line.find('-') != std::string::npos && line.find(':') > line.find('-'))
        {
            inRegion = line.rfind(prefix, 0) == 0;
        }
        else if (inRegion && line.rfind("AnonHugePages:", 0) == 0)
        {
            std::istringstream fields(line.substr(14));
            uint64_t kb = 0;
            fields >> kb;
            return kb;
        }
    }
    return 0;
}

/**
 * Chase a cycle through the chosen lines of a region.
 * @param base the region
 * @param lines the byte offsets of the chosen lines
 * @param rng the order's source
 * @return nanoseconds per load, the median of three passes
 */
double
Chase(char* base, std::vector<std::size_t>& lines, std::mt19937_64& rng)
{
    // Sattolo's algorithm: a random permutation that is one cycle through every line.
    for (std::size_t i = lines.size() - 1; i > 0; --i)
    {
        std::uniform_int_distribution<std::size_t> pick(0, i - 1);
        std::swap(lines[i], lines[pick(rng)]);
    }
    for (std::size_t i = 0; i < lines.size(); ++i)
    {
        char* next = base + lines[(i + 1) % lines.size()];
        std::memcpy(base + lines[i], &next, sizeof(next));
    }
    const std::size_t loads = std::max<std::size_t>(4 * lines.size(), 2000000);
    std::vector<double> passes;
    char* at = base + lines[0];
    for (int pass = 0; pass < 3; ++pass)
    {
        const auto start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < loads; ++i)
        {
            std::memcpy(&at, at, sizeof(at));
        }
        const auto end = std::chrono::steady_clock::now();
        passes.push_back(std::chrono::duration<double, std::nano>(end - start).count() / loads);
    }
    // (The chase's end is printed to nowhere, so that the compiler keeps the loads.)
    volatile char sink = *at;
    (void)sink;
    std::sort(passes.begin(), passes.end());
    return passes[1];
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc > 1)
    {
        std::fprintf(stderr,
                     "error: memory-reach takes no arguments (got '%s'); it prints CSV\n",
                     argv[1]);
        return 2;
    }
    std::printf("pages,region_mb,layout,lines,huge_kb,ns_per_load\n");
    std::mt19937_64 rng(1);
    for (const bool huge : {false, true})
    {
        for (const std::size_t mb : {1, 2, 4, 8, 16, 32, 64, 128})
        {
            const std::size_t bytes = mb << 20;
            // (Twice the size, so that the region can start on a 2 MB boundary.)
            void* mapped = mmap(nullptr,
                                bytes + (2u << 20),
                                PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS,
                                -1,
                                0);
            if (mapped == MAP_FAILED)
            {
                std::perror("mmap");
                return 1;
            }
            const uintptr_t aligned =
                (reinterpret_cast<uintptr_t>(mapped) + (2u << 20) - 1) & ~uintptr_t{(2u << 20) - 1};
            char* base = reinterpret_cast<char*>(aligned);
            madvise(base, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
            for (std::size_t at = 0; at < bytes; at += PAGE)
            {
                base[at] = 1;
            }
            const uint64_t hugeKb = HugeKb(base); // (madvise made the region a mapping of its own)
            for (const bool dense : {true, false})
            {
                std::vector<std::size_t> lines;
                lines.reserve(dense ? bytes / LINE : bytes / PAGE);
                for (std::size_t at = 0; at < bytes; at += dense ? LINE : PAGE)
                {
                    lines.push_back(dense ? at : at + (rng() % (PAGE / LINE)) * LINE);
                }
                const double ns = Chase(base, lines, rng);
                std::printf("%s,%zu,%s,%zu,%" PRIu64 ",%.1f\n",
                            huge ? "huge" : "4k",
                            mb,
                            dense ? "dense" : "sparse",
                            lines.size(),
                            hugeKb,
                            ns);
                std::fflush(stdout);
            }
            munmap(mapped, bytes + (2u << 20));
        }
    }
    return 0;
}
