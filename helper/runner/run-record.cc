/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "run-record.h"

#include "ns3/attribute-defaults.h"
#include "ns3/interconnect-compat.h"
#include "ns3/interconnect-config-error.h"
#include "ns3/message-transport.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <spawn.h>
#include <sstream>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

// The commit the build was made from, written by cmake/module-commit.cmake at every build
// (not there in a waf build).
#if __has_include("interconnect-module-commit.h")
#include "interconnect-module-commit.h"
#else
#define INTERCONNECT_MODULE_COMMIT "unknown"
#endif

namespace ns3
{

std::string
interconnect::ModuleCommit()
{
    return INTERCONNECT_MODULE_COMMIT;
}

std::string
interconnect::DescribeMachine(const std::string& cpuinfo,
                              const std::vector<std::vector<std::string>>& caches,
                              unsigned cpus,
                              const std::string& kernel)
{
    // The first value of each key (every CPU repeats them); "model" is not "model name".
    std::map<std::string, std::string> cpu;
    std::istringstream lines(cpuinfo);
    const auto trim = [](const std::string& t) {
        const auto first = t.find_first_not_of(" \t\r");
        const auto last = t.find_last_not_of(" \t\r");
        return first == std::string::npos ? std::string() : t.substr(first, last - first + 1);
    };
    std::string line;
    while (std::getline(lines, line))
    {
        const auto colon = line.find(':');
        if (colon == std::string::npos)
        {
            continue;
        }
        cpu.emplace(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
    }
    std::ostringstream os;
    const auto name = cpu.find("model name");
    os << (name != cpu.end() && !name->second.empty() ? name->second : "unknown CPU");
    const auto family = cpu.find("cpu family");
    const auto model = cpu.find("model");
    if (family != cpu.end() && model != cpu.end())
    {
        os << " (family " << family->second << ", model " << model->second << ")";
    }
    if (cpus != 0)
    {
        os << ", " << cpus << (cpus == 1 ? " CPU" : " CPUs");
    }
    std::string listed;
    for (const auto& c : caches)
    {
        if (c.size() != 3 || c[0].empty() || c[2].empty())
        {
            continue;
        }
        const std::string kind = c[1] == "Data" ? "d" : c[1] == "Instruction" ? "i" : "";
        listed += (listed.empty() ? "" : ", ") + ("L" + c[0] + kind + " " + c[2]);
    }
    if (!listed.empty())
    {
        os << "; caches " << listed;
    }
    if (!kernel.empty())
    {
        os << "; " << kernel;
    }
    return os.str();
}

std::string
interconnect::MachineDescription()
{
    auto readAll = [](const std::string& path) {
        std::ifstream in(path);
        std::ostringstream text;
        text << in.rdbuf();
        return in ? text.str() : std::string();
    };
    auto readLine = [](const std::string& path) {
        std::ifstream in(path);
        std::string text;
        std::getline(in, text);
        return text;
    };
    std::vector<std::vector<std::string>> caches;
    for (unsigned i = 0; i < 16; ++i)
    {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i);
        const std::string level = readLine(dir + "/level");
        if (level.empty())
        {
            break;
        }
        caches.push_back({level, readLine(dir + "/type"), readLine(dir + "/size")});
    }
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    struct utsname host = {};
    const std::string kernel =
        uname(&host) == 0 ? std::string(host.sysname) + " " + host.release : std::string();
    return DescribeMachine(readAll("/proc/cpuinfo"),
                           caches,
                           online > 0 ? static_cast<unsigned>(online) : 0,
                           kernel);
}

RunRecord::RunRecord(const std::string& program)
{
    Set("program", program);
    Set("ns3Version", interconnect::Ns3Version());
    Set("moduleCommit", interconnect::ModuleCommit());
}

void
RunRecord::SetEncoded(const std::string& key, std::string encoded)
{
    for (auto& entry : m_entries)
    {
        if (entry.first == key)
        {
            entry.second = std::move(encoded);
            return;
        }
    }
    m_entries.emplace_back(key, std::move(encoded));
}

void
RunRecord::Set(const std::string& key, const std::string& value)
{
    SetEncoded(key, JsonQuote(value));
}

void
RunRecord::Set(const std::string& key, const char* value)
{
    SetEncoded(key, JsonQuote(value));
}

void
RunRecord::Set(const std::string& key, int64_t value)
{
    SetEncoded(key, std::to_string(value));
}

void
RunRecord::Set(const std::string& key, int value)
{
    SetEncoded(key, std::to_string(value));
}

void
RunRecord::Set(const std::string& key, uint64_t value)
{
    SetEncoded(key, std::to_string(value));
}

void
RunRecord::Set(const std::string& key, uint32_t value)
{
    SetEncoded(key, std::to_string(value));
}

void
RunRecord::Set(const std::string& key, double value)
{
    if (!std::isfinite(value))
    {
        // JSON has no literal for these; keep the information as a string.
        SetEncoded(key, JsonQuote(std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf")));
        return;
    }
    // %.17g round-trips every double, and does not depend on the locale's stream state.
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.17g", value);
    SetEncoded(key, buffer);
}

void
RunRecord::Set(const std::string& key, bool value)
{
    SetEncoded(key, value ? "true" : "false");
}

void
RunRecord::CaptureSeed()
{
    Set("seed", static_cast<uint64_t>(RngSeedManager::GetSeed()));
    Set("run", static_cast<uint64_t>(RngSeedManager::GetRun()));
}

void
RunRecord::CaptureAttributeDefaults(const std::string& group)
{
    for (const auto& [name, value] : AttributeDefaults::Current(group))
    {
        Set(name, value);
    }
}

std::string
RunRecord::GetEncoded(const std::string& key) const
{
    for (const auto& entry : m_entries)
    {
        if (entry.first == key)
        {
            return entry.second;
        }
    }
    return "";
}

std::string
RunRecord::JsonQuote(const std::string& text)
{
    std::string out = "\"";
    for (unsigned char c : text)
    {
        switch (c)
        {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20)
            {
                char buffer[8];
                std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
                out += buffer;
            }
            else
            {
                out += static_cast<char>(c);
            }
        }
    }
    out += "\"";
    return out;
}

std::string
RunRecord::ToJson() const
{
    std::ostringstream os;
    os << "{\n";
    for (std::size_t i = 0; i < m_entries.size(); ++i)
    {
        os << "  " << JsonQuote(m_entries[i].first) << ": " << m_entries[i].second
           << (i + 1 < m_entries.size() ? ",\n" : "\n");
    }
    os << "}\n";
    return os.str();
}

bool
RunRecord::Write(const std::string& path, std::string* error) const
{
    const std::filesystem::path file(path);
    if (file.has_parent_path() && !CreateOutputDirectory(file.parent_path().string(), error))
    {
        return false;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << ToJson();
    out.close();
    if (!out)
    {
        if (error)
        {
            *error = "cannot write run record '" + path + "'";
        }
        return false;
    }
    return true;
}

void
RunRecord::Write(const std::string& path) const
{
    std::string error;
    if (!Write(path, &error))
    {
        InterconnectOutputError(path, error);
    }
}

FILE*
OpenOutputFile(const std::string& path)
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        InterconnectOutputError(path, std::strerror(errno));
    }
    return f;
}

void
CloseOutputFile(FILE* f, const std::string& path)
{
    if (std::ferror(f) || std::fclose(f) != 0)
    {
        InterconnectOutputError(path, std::strerror(errno));
    }
}

bool
CreateOutputDirectory(const std::string& dir, std::string* error)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
    {
        if (error)
        {
            *error = "cannot create output directory '" + dir + "'" +
                     (ec ? ": " + ec.message() : std::string(": a file is in the way"));
        }
        return false;
    }
    return true;
}

std::string
CsvQuote(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
    {
        return text;
    }
    std::string out = "\"";
    for (char c : text)
    {
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return out + "\"";
}

int
RunProgram(const std::vector<std::string>& argv, bool stdoutToStderr)
{
    if (argv.empty())
    {
        return 127;
    }
    std::vector<char*> args;
    for (const auto& a : argv)
    {
        args.push_back(const_cast<char*>(a.c_str()));
    }
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (stdoutToStderr)
    {
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
    }
    pid_t pid = 0;
    const int started = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (started != 0)
    {
        return 127;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
    {
        if (errno != EINTR)
        {
            return 127;
        }
    }
    if (WIFEXITED(status))
    {
        return WEXITSTATUS(status);
    }
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127;
}

void
WriteRunOutputs(const std::string& dir, const MessageTransport& network, const RunRecord& record)
{
    std::string error;
    if (!CreateOutputDirectory(dir, &error))
    {
        InterconnectOutputError(dir, error);
    }
    if (!WriteFlowsCsv(dir + "/flows.csv", network.GetFlows(), network.GetWorkloadNames()))
    {
        InterconnectOutputError(dir + "/flows.csv", "the file could not be written");
    }
    if (!network.CollectStatistics().WriteJson(dir + "/summary.json", Simulator::GetEventCount()))
    {
        InterconnectOutputError(dir + "/summary.json", "the file could not be written");
    }
    record.Write(dir + "/config.json");
}

} // namespace ns3
