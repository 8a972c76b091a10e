/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUN_RECORD_H
#define RUN_RECORD_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

namespace interconnect
{
/**
 * @return the module's git commit this library was built from ("-dirty" appended when
 *         tracked files differed from it), or "unknown" (not built from a git checkout)
 */
std::string ModuleCommit();

/**
 * The machine a program runs on, in one line: what its timing figures (wall and CPU time,
 * events and packet-hops per second) belong to, as they are not the run's but the machine's.
 * The CPU's model name with its family and model numbers (/proc/cpuinfo), the CPUs online, the
 * caches the first CPU sees (/sys/devices/system/cpu/cpu0/cache), and the kernel's release
 * (uname), e.g. "Intel(R) Xeon(R) Processor (family 6, model 207), 2 CPUs; caches L1d 48K,
 * L1i 32K, L2 2048K, L3 266240K; Linux 6.1.0". What cannot be read is left out or said
 * "unknown"; reading never fails.
 * @return the description
 */
std::string MachineDescription();

/**
 * MachineDescription's text, from what it reads (apart, for tests).
 * @param cpuinfo the text of /proc/cpuinfo ("" if unreadable): its first "model name", "cpu
 *        family" and "model" lines are used
 * @param caches each cache's level, type (Data, Instruction or Unified) and size, as sysfs
 *        gives them, in its order
 * @param cpus the CPUs online (0 if unknown)
 * @param kernel the kernel's name and release, e.g. "Linux 6.1.0" ("" if unknown)
 * @return the description
 */
std::string DescribeMachine(const std::string& cpuinfo,
                            const std::vector<std::vector<std::string>>& caches,
                            unsigned cpus,
                            const std::string& kernel);
} // namespace interconnect

/**
 * @ingroup interconnect
 * @brief The resolved configuration and seed of one run, written beside its outputs.
 *
 * Every program of the module records what it ran with, so that any output can be traced back
 * to, and reproduced from, its configuration. The record is written as a JSON object with the
 * keys in the order they were set; it contains no wall-clock time or host name, so the same
 * configuration always yields the same file, byte for byte.
 *
 * @code
 *   RunRecord record("quickstart");
 *   record.Set("flowSize", flowSize);
 *   record.CaptureSeed();               // RngSeedManager's seed and run number
 *   record.Write(outDir + "/config.json");
 * @endcode
 */
class RunRecord
{
  public:
    /**
     * @param program the name of the program that made the run (first key of the record)
     */
    explicit RunRecord(const std::string& program);

    /**
     * Record a value; setting a key again replaces its value in place.
     * @param key the parameter name, as the user spells it on the command line
     * @param value the resolved value
     */
    void Set(const std::string& key, const std::string& value);
    /// @copydoc Set(const std::string&,const std::string&)
    void Set(const std::string& key, const char* value);
    /// @copydoc Set(const std::string&,const std::string&)
    void Set(const std::string& key, int64_t value);
    /// @copydoc Set(const std::string&,const std::string&)
    void Set(const std::string& key, int value);
    /// @copydoc Set(const std::string&,const std::string&)
    void Set(const std::string& key, uint64_t value);
    /// @copydoc Set(const std::string&,const std::string&)
    void Set(const std::string& key, uint32_t value);
    /// @copydoc Set(const std::string&,const std::string&)
    void Set(const std::string& key, double value);
    /// @copydoc Set(const std::string&,const std::string&)
    void Set(const std::string& key, bool value);

    /// Record RngSeedManager's current seed and run number as "seed" and "run".
    void CaptureSeed();

    /**
     * Record the default every attribute of every TypeId in a group has for the objects
     * created now (those settable at construction whose values are text:
     * AttributeDefaults::Current), and every other attribute whose default is not its TypeId's
     * or that NS_ATTRIBUTE_DEFAULT names, as "<TypeId name>::<attribute>" keys, all sorted by
     * name. What --ns3::X::Y=...,
     * Config::SetDefault or the NS_ATTRIBUTE_DEFAULT environment variable changed is then
     * part of the record.
     * @param group the TypeId group name, e.g. "Interconnect"
     * @throws InterconnectConfigException when NS_ATTRIBUTE_DEFAULT names no attribute or
     *         a value its checker refuses
     */
    void CaptureAttributeDefaults(const std::string& group);

    /// @return the record as a JSON object, one key per line, ending with a newline.
    std::string ToJson() const;

    /**
     * Write the record to a file, creating its directory if needed.
     * @param path the file to write
     * @param[out] error why it failed, when it did
     * @return true on success
     */
    bool Write(const std::string& path, std::string* error) const;

    /// Write the record; an InterconnectConfigException says why it could not.
    void Write(const std::string& path) const;

    /// @return the value recorded for key, already JSON-encoded, or "" if none.
    std::string GetEncoded(const std::string& key) const;

    /**
     * Encode a string as a JSON string literal (quotes, escapes for control characters).
     * @param text the raw text
     * @return the literal
     */
    static std::string JsonQuote(const std::string& text);

  private:
    /// Store an already-encoded value under key.
    void SetEncoded(const std::string& key, std::string encoded);

    std::vector<std::pair<std::string, std::string>> m_entries; //!< key, JSON-encoded value
};

/**
 * @ingroup interconnect
 * Open an output file for writing.
 * @param path the file
 * @return the open file; an InterconnectConfigException names the file and why not
 */
FILE* OpenOutputFile(const std::string& path);

/**
 * @ingroup interconnect
 * Close an output file, checking that what was written reached it.
 * @param f the file
 * @param path its name, for the message of the InterconnectConfigException if not
 */
void CloseOutputFile(FILE* f, const std::string& path);

/**
 * @ingroup interconnect
 * Create a directory (and its parents) for a program's outputs.
 * @param dir the directory
 * @param[out] error why it failed, when it did
 * @return true if the directory exists afterwards
 */
bool CreateOutputDirectory(const std::string& dir, std::string* error);

/**
 * @ingroup interconnect
 * A CSV field as RFC 4180 writes it: as it is, or in double quotes (quotes doubled) when it
 * holds a comma, a double quote or a line break.
 * @param text the raw text
 * @return the field
 */
std::string CsvQuote(const std::string& text);

/**
 * @ingroup interconnect
 * Run a program with an argument vector and wait for it: no shell, so no argument is ever
 * read as a command (a scenario's name or an output directory is data).
 * @param argv the program (looked up in PATH) and its arguments
 * @param stdoutToStderr send the program's standard output to this process's standard error
 * @return its exit status; 127 if it could not be started, 128 + N if signal N ended it
 */
int RunProgram(const std::vector<std::string>& argv, bool stdoutToStderr);

class MessageTransport;

/**
 * @ingroup interconnect
 * Write a program's outputs into a directory (created if needed): flows.csv (the transport's
 * messages), summary.json (its statistics and the event count) and config.json (the record).
 * An InterconnectConfigException names what could not be written.
 * @param dir the output directory
 * @param network the transport the messages went through
 * @param record the run's resolved configuration and seed
 */
void WriteRunOutputs(const std::string& dir,
                     const MessageTransport& network,
                     const RunRecord& record);

} // namespace ns3

#endif // RUN_RECORD_H
